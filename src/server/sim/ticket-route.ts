// POST /access/ticket: username and password (form-urlencoded or JSON) in, ticket and CSRF token out.

import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Authenticator } from './auth.ts'
import type { SimClusterModel } from './model.ts'
import { sendError, sendJson, wrapData } from './reply.ts'

const MAX_BODY = 64 * 1024

// Trimmed capability map of a full administrator, as the GUI receives it.
const ADMIN_CAPS = {
  vms: { 'VM.Audit': 1, 'VM.PowerMgmt': 1, 'VM.Console': 1 },
  storage: { 'Datastore.Audit': 1, 'Datastore.Allocate': 1 },
  nodes: { 'Sys.Audit': 1, 'Sys.Modify': 1, 'Sys.PowerMgmt': 1 },
  access: { 'User.Modify': 1, 'Permissions.Modify': 1 },
  dc: { 'Sys.Audit': 1, 'SDN.Audit': 1 },
  sdn: { 'SDN.Audit': 1 },
  mapping: { 'Mapping.Audit': 1 },
}

/** Reads the login body, checks the credentials and replies with a ticket or 401. */
export function handleTicketLogin(
  req: IncomingMessage,
  res: ServerResponse,
  auth: Authenticator,
  cluster: SimClusterModel,
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
    const password = fields.get('password') ?? ''
    // A separate realm parameter is allowed: `username=root&realm=pam`.
    const realm = fields.get('realm')
    const fullUser =
      realm !== undefined && !username.includes('@') ? `${username}@${realm}` : username
    const issued = auth.login(fullUser, password)
    if (issued === undefined) {
      sendError(res, 401, 'authentication failure')
      return
    }
    const data: Record<string, unknown> = {
      username: fullUser,
      ticket: issued.ticket,
      CSRFPreventionToken: issued.csrf,
      cap: ADMIN_CAPS,
    }
    if (!cluster.standalone) data.clustername = cluster.name
    sendJson(res, 200, 'OK', wrapData(data))
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
      // Malformed JSON counts as no credentials: the reply is the same 401 PVE gives.
    }
    return out
  }
  for (const [k, v] of new URLSearchParams(text)) out.set(k, v)
  return out
}
