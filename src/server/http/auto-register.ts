// POST /api/auto-register (spec 000 §8, wire-protocol §3.4): the setup script hands Pulse the token
// it just created. Public, but only with the one-time registration code embedded in a script this
// server served, for that node type and host. The node is tested exactly as a UI add with a pinned
// fingerprint would be, then added (or, for a node already registered at that host, its token and
// fingerprint replaced: re-running the script recreates the token, which kills the stored one).
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { AppError } from '../../shared/model/errors.ts'
import {
  NODE_TYPES,
  PBS_MONITOR_FLAGS,
  PVE_MONITOR_FLAGS,
  type NodeConfigView,
} from '../../shared/model/node-config.ts'
import type { RateLimits } from '../auth/rate-limits.ts'
import { normalizeHost } from '../nodes/node-input.ts'
import type { NodeService } from '../nodes/node-service.ts'
import { parseBody } from '../parse-body.ts'
import type { RegistrationCodes } from '../setup/registration-codes.ts'

/** Attempts per client address and minute, loopback included (a node runs the script once). */
export const AUTO_REGISTER_RATE_LIMIT = 20
export const AUTO_REGISTER_RATE_WINDOW_MS = 60_000

const required = (max: number) =>
  z.string({ error: 'is required' }).trim().min(1, 'is required').max(max)

const bodySchema = z.object({
  type: z.enum(NODE_TYPES, { error: 'must be "pve" or "pbs"' }),
  host: required(512),
  tokenId: required(256),
  tokenValue: required(512),
  serverName: required(128),
  // Empty when the script could not read the node's certificate: then nothing is pinned.
  fingerprint: z.string({ error: 'must be a string' }).trim().max(128).default(''),
  code: required(128),
})

export interface AutoRegisterDeps {
  nodes: NodeService
  codes: RegistrationCodes
  rateLimits: RateLimits
  broadcast: (type: string, data: unknown) => void
}

/** Register POST /api/auto-register. */
export function registerAutoRegisterRoute(app: FastifyInstance, deps: AutoRegisterDeps): void {
  const { nodes, codes } = deps
  const limit = deps.rateLimits.route(AUTO_REGISTER_RATE_LIMIT, AUTO_REGISTER_RATE_WINDOW_MS)

  app.post('/api/auto-register', { onRequest: limit }, async (request) => {
    const body = parseBody(bodySchema, request.body)
    const host = normalizeHost(body.host, body.type)
    // The payload the Add node form would send: the node service validates it (token id shape,
    // name rules, fingerprint format) with the same messages, before the code is spent.
    const existing = nodes.list().find((n) => n.type === body.type && n.host === host)
    const payload = {
      ...(existing ? monitorFlags(existing) : {}),
      type: body.type,
      name: existing?.name ?? body.serverName,
      host,
      tokenName: body.tokenId,
      tokenValue: body.tokenValue,
      fingerprint: body.fingerprint,
      // The pin, when sent, takes precedence over CA verification. Without one the certificate
      // must verify against the system CAs: unlike the reference, a script that could not read
      // the node's certificate never makes Pulse trust whatever answers at that address.
      verifySSL: !body.fingerprint,
    }
    validateAs(nodes, payload)
    const grant = codes.take(body.code, body.type, host)
    if (!grant) throw new AppError('SETUP_CODE_INVALID')
    let stored: NodeConfigView
    try {
      await nodes.testPayload(payload)
      stored = existing ? nodes.update(existing.id, payload) : nodes.add(payload)
    } catch (err) {
      // Nothing was stored: the same script (a downloaded copy) may be run again once fixed.
      codes.restore(body.code, grant)
      throw err
    }
    request.log.info({ type: stored.type, host: stored.host }, 'node auto-registered')
    deps.broadcast('node_auto_registered', {
      type: stored.type,
      host: stored.host,
      name: stored.name,
      tokenId: stored.tokenName,
      hasToken: true,
      verifySSL: stored.verifySSL,
      status: 'connected',
    })
    return {
      status: 'success',
      message: `Node ${stored.host} auto-registered successfully`,
      node: stored,
    }
  })
}

// The node service names fields as the Add node form does; name them as this body does.
const BODY_FIELDS: Record<string, string> = { tokenName: 'tokenId', name: 'serverName' }

function validateAs(nodes: NodeService, payload: object): void {
  try {
    nodes.validate(payload)
  } catch (err) {
    const field = err instanceof AppError ? BODY_FIELDS[String(err.params.field)] : undefined
    if (!field || !(err instanceof AppError)) throw err
    throw new AppError('FIELD_INVALID', { ...err.params, field }, { cause: err })
  }
}

/** The monitoring choices the admin made for a node already stored: kept on re-registration. */
function monitorFlags(view: NodeConfigView): Record<string, boolean> {
  return Object.fromEntries([...PVE_MONITOR_FLAGS, ...PBS_MONITOR_FLAGS].map((f) => [f, view[f]]))
}
