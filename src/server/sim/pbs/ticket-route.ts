// POST /access/ticket for the PBS simulator: username and password (form or JSON) in, a PBS
// ticket and CSRF token out; 401 with a text body for bad credentials.

import type { IncomingMessage, ServerResponse } from 'node:http'
import type { PbsAuthenticator } from './auth.ts'
import { sendError, sendJson, wrapData } from './reply.ts'

const MAX_BODY = 64 * 1024

/** Reads the login body, checks the credentials and replies with a ticket or 401. */
export function handlePbsLogin(
  req: IncomingMessage,
  res: ServerResponse,
  auth: PbsAuthenticator,
): void {
  const chunks: Buffer[] = []
  let size = 0
  req.on('data', (chunk: Buffer) => {
    size += chunk.length
    if (size > MAX_BODY) {
      sendError(res, 413, 'request entity too large')
      req.destroy()
      return
    }
    chunks.push(chunk)
  })
  req.on('end', () => {
    if (res.headersSent) return
    const fields = parseBody(Buffer.concat(chunks).toString('utf8'), req.headers['content-type'])
    const username = fields.get('username') ?? ''
    const realm = fields.get('realm')
    const fullUser =
      realm !== undefined && !username.includes('@') ? `${username}@${realm}` : username
    const issued = auth.login(fullUser, fields.get('password') ?? '')
    if (issued === undefined) {
      sendError(res, 401, 'authentication failed - invalid credentials')
      return
    }
    sendJson(
      res,
      200,
      wrapData({ username: fullUser, ticket: issued.ticket, CSRFPreventionToken: issued.csrf }),
    )
  })
}

function parseBody(text: string, contentType: string | undefined): Map<string, string> {
  const out = new Map<string, string>()
  if (contentType?.includes('application/json') === true) {
    try {
      const parsed: unknown = JSON.parse(text)
      if (parsed !== null && typeof parsed === 'object') {
        for (const [k, v] of Object.entries(parsed)) if (typeof v === 'string') out.set(k, v)
      }
    } catch {
      // Malformed JSON counts as no credentials: the same 401 as a wrong password.
    }
    return out
  }
  for (const [k, v] of new URLSearchParams(text)) out.set(k, v)
  return out
}
