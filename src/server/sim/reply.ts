// Low-level PVE-style replies: the exact Content-Type, `{"data":...}` bodies, and error text in the
// HTTP status line's reason phrase (that is where pve-http-server puts it).

import type { ServerResponse } from 'node:http'

const CONTENT_TYPE = 'application/json;charset=UTF-8'
const NULL_BODY = Buffer.from('{"data":null}')

/** Sends a pre-serialised JSON body with PVE's headers. */
export function sendJson(res: ServerResponse, status: number, reason: string, body: Buffer): void {
  res.writeHead(status, reason, {
    'Content-Type': CONTENT_TYPE,
    'Content-Length': body.length,
    'Cache-Control': 'max-age=0',
    Pragma: 'no-cache',
    Expires: new Date().toUTCString(),
    Server: 'pve-api-daemon/3.0',
  })
  res.end(body)
}

/** Sends an error: message in the reason phrase, body `{"data":null}` (plus `errors` for 400). */
export function sendError(
  res: ServerResponse,
  status: number,
  reason: string,
  errors?: Record<string, string>,
): void {
  const body =
    errors === undefined ? NULL_BODY : Buffer.from(JSON.stringify({ data: null, errors }))
  // A reason phrase must be a single line of visible characters.
  sendJson(res, status, reason.replace(/[^\x20-\x7e]/g, ' '), body)
}

/** Serialises a payload as `{"data":...}`. */
export function wrapData(data: unknown): Buffer {
  return Buffer.from(JSON.stringify({ data }))
}
