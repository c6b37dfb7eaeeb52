// Setup-script routes: an admin asks for a one-time URL, and a PVE/PBS node fetches the script
// with `curl | bash`. GET /api/setup-script is in PUBLIC_ROUTES: without admin credentials it
// answers only to a valid, unexpired one-time code presented with the very type, host, Pulse
// address and backup rights it was issued for (the script's registration code is issued for that
// host, so a URL for pve-a.lan can never make Pulse register and connect to another host).
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { z } from 'zod'
import { AppError } from '../../shared/model/errors.ts'
import { NODE_TYPES, type SetupScriptUrl } from '../../shared/model/node-config.ts'
import { requireAdmin } from '../auth/guard.ts'
import { normalizeHost } from '../nodes/node-input.ts'
import { parseBody } from '../parse-body.ts'
import { buildSetupScript } from '../setup/setup-script.ts'
import type { RegistrationCodes } from '../setup/registration-codes.ts'
import { createSetupTokens, type SetupBinding, type SetupTokens } from '../setup/setup-tokens.ts'

const urlRequestSchema = z.object({
  type: z.enum(NODE_TYPES, { error: 'must be "pve" or "pbs"' }),
  host: z.string({ error: 'is required' }).trim().min(1, 'is required').max(512),
  backupPerms: z.boolean({ error: 'must be true or false' }).default(false),
})

const scriptQuerySchema = z.object({
  type: z.enum(NODE_TYPES, { error: 'must be "pve" or "pbs"' }),
  host: z.string().max(512).default(''),
  pulse_url: z.string().max(512).default(''),
  backup_perms: z.string().max(8).default('false'),
  setup_token: z.string().max(128).optional(),
})

/** This server's origin as the caller reached it (the address the node will fetch from). */
function originOf(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`
}

/** The host as the URL generator stores it, or as given when it would refuse it. */
function presentedHost(query: z.output<typeof scriptQuerySchema>): string {
  try {
    return normalizeHost(query.host, query.type)
  } catch {
    return query.host
  }
}

/**
 * Let the request through: an admin needs no code; anyone else needs an outstanding code presented
 * with exactly what it was issued for (401 when unknown or used, 403 naming a changed value).
 */
function admitScriptRequest(
  request: FastifyRequest,
  tokens: SetupTokens,
  query: z.output<typeof scriptQuerySchema>,
): void {
  if (request.auth?.isAdmin || query.setup_token === undefined) {
    requireAdmin(request)
    return
  }
  const presented: SetupBinding = {
    type: query.type,
    host: presentedHost(query),
    pulse_url: query.pulse_url,
    backup_perms: query.backup_perms,
  }
  const result = tokens.redeem(query.setup_token, presented)
  if (result.ok) return
  if (!result.mismatch) throw new AppError('AUTH_REQUIRED')
  const { field, expected, actual } = result.mismatch
  throw new AppError('SETUP_URL_MISMATCH', { field, expected, actual: actual || '(none)' })
}

/** A registration code for the script, or none when host or Pulse's address is unusable. */
function registrationCodeFor(
  codes: RegistrationCodes,
  query: z.output<typeof scriptQuerySchema>,
): string | undefined {
  if (!query.host || !/^https?:\/\//.test(query.pulse_url)) return undefined
  try {
    return codes.issue(query.type, normalizeHost(query.host, query.type))
  } catch {
    // A host the URL generator would have refused: the script still prints the token.
    return undefined
  }
}

/** Register POST /api/setup-script-url and GET /api/setup-script. */
export function registerSetupScriptRoutes(
  app: FastifyInstance,
  deps: { now: () => number; codes: RegistrationCodes },
): void {
  const tokens = createSetupTokens(deps.now)

  app.post('/api/setup-script-url', async (request): Promise<SetupScriptUrl> => {
    requireAdmin(request)
    const body = parseBody(urlRequestSchema, request.body)
    const host = normalizeHost(body.host, body.type)
    const origin = originOf(request)
    const binding: SetupBinding = {
      type: body.type,
      host,
      pulse_url: origin,
      backup_perms: String(body.backupPerms),
    }
    const { token, expiresAt } = tokens.issue(binding)
    const query = new URLSearchParams({ ...binding, setup_token: token })
    // URLSearchParams encodes ' as %27, so the URL is safe inside single quotes.
    const url = `${origin}/api/setup-script?${query.toString()}`
    return { url, command: `curl -fsSL '${url}' | bash`, expires: Math.floor(expiresAt / 1000) }
  })

  app.get('/api/setup-script', async (request, reply) => {
    const query = parseBody(scriptQuerySchema, request.query ?? {})
    // Admins (the UI's download button) need no code; anyone else needs the one-time URL intact.
    admitScriptRequest(request, tokens, query)
    const script = buildSetupScript({
      type: query.type,
      host: query.host,
      pulseUrl: query.pulse_url,
      backupPerms: query.backup_perms === 'true',
      registrationCode: registrationCodeFor(deps.codes, query),
    })
    return reply
      .type('text/x-shellscript; charset=utf-8')
      .header('content-disposition', `attachment; filename="pulse-setup-${query.type}.sh"`)
      .header('cache-control', 'no-store')
      .send(script)
  })
}
