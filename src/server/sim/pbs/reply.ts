// PBS-style replies (proxmox-rest-server): `{"data":...}` on success; on error the HTTP status
// with its standard reason phrase and the message as a plain-text body, although the
// Content-Type still claims JSON (reference §1.5).

import { STATUS_CODES } from 'node:http'
import type { ServerResponse } from 'node:http'

const CONTENT_TYPE = 'application/json;charset=UTF-8'

/** Sends a pre-serialised JSON body. */
export function sendJson(res: ServerResponse, status: number, body: Buffer): void {
  res.writeHead(status, STATUS_CODES[status] ?? 'Unknown', {
    'Content-Type': CONTENT_TYPE,
    'Content-Length': body.length,
    'Cache-Control': 'max-age=0',
  })
  res.end(body)
}

/** Sends an error: the message is the whole body. */
export function sendError(res: ServerResponse, status: number, message: string): void {
  sendJson(res, status, Buffer.from(message))
}

/** Serialises `{"data":...}` plus any extra top-level keys (the tasks list adds `total`). */
export function wrapData(data: unknown, extra?: Record<string, unknown>): Buffer {
  return Buffer.from(JSON.stringify({ data, ...extra }))
}
