// The reference's other settings paths (spec 001 §7, reference/wire-protocol.md §3.4), answered from
// the same settings as /api/system/settings, so a client written for the reference (its own web UI
// included) reads our values rather than its built-in defaults:
// - GET /api/config/system: the running values, flat (the system settings plus port, poll interval
//   and log level);
// - GET /api/settings: the legacy `{current, defaults, capabilities}` form;
// - POST /api/settings/update and /api/settings/validate: that form back. Of it only the allowed
//   origins are stored settings here; ports, host, poll interval, log level and authentication are
//   set by the environment, so a changed value is refused with a 400 naming the field and the
//   variable (the same value, as a UI sends the whole form back, is accepted). Nothing restarts.
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { AppError } from '../../shared/model/errors.ts'
import { requireAdmin } from '../auth/guard.ts'
import { CONFIG_DEFAULTS, type ServerConfig } from '../config.ts'
import { LOG_LEVELS } from '../log.ts'
import { parseBody } from '../parse-body.ts'
import { originList, readSystemSettings, type SystemSettingsDeps } from './system-settings.ts'

export interface SettingsCompatDeps extends SystemSettingsDeps {
  config: Pick<ServerConfig, 'port' | 'host' | 'pollIntervalMs' | 'log' | 'authDisabled'>
}

/** One listener serves the API and the UI: the legacy form's backend and frontend are the same. */
interface Listener {
  port: number
  host: string
}

/** The legacy settings form (the reference's `config.Settings`). */
export interface LegacySettings {
  server: { backend: Listener; frontend: Listener }
  monitoring: { pollingInterval: number }
  logging: { level: string }
  security: { allowedOrigins: string[]; enableAuthentication: boolean }
}

const listener = z.object({
  port: z.number({ error: 'must be a port number' }).int().min(1).max(65535).optional(),
  host: z.string({ error: 'must be a host name or address' }).max(255).optional(),
})

// Unknown keys (the reference's file logging, backup polling, …) are ignored, as there.
const legacySchema = z.object({
  server: z.object({ backend: listener.optional(), frontend: listener.optional() }).optional(),
  monitoring: z
    .object({
      pollingInterval: z.number({ error: 'must be a number of seconds' }).int().min(1).optional(),
    })
    .optional(),
  logging: z.object({ level: z.enum(LOG_LEVELS).optional() }).optional(),
  security: z
    .object({
      allowedOrigins: z
        .union([z.array(z.string().max(2048)).max(100), z.string()], {
          error: 'must be a list of origins',
        })
        .transform((value) => (Array.isArray(value) ? value.join(',') : value))
        .pipe(originList(true))
        .optional(),
      // Never answered, so a form sends it back empty; a token is not set by a settings form.
      apiToken: z
        .literal('', { error: 'cannot be set here; regenerate the API token under Security' })
        .optional(),
      enableAuthentication: z.boolean({ error: 'must be true or false' }).optional(),
    })
    .optional(),
})

// The reference's server reads `{settings, validateOnly, restartNow}`, its UI sends the form alone.
const wrappedSchema = z.object({
  settings: legacySchema,
  validateOnly: z.boolean({ error: 'must be true or false' }).optional(),
  restartNow: z.boolean({ error: 'must be true or false' }).optional(),
})

type LegacyInput = z.output<typeof legacySchema>

/** The legacy form of `config`, with `allowedOrigins` as in effect. */
function toLegacy(
  config: SettingsCompatDeps['config'],
  allowedOrigins: readonly string[],
): LegacySettings {
  const at = { port: config.port, host: config.host }
  return {
    server: { backend: at, frontend: at },
    monitoring: { pollingInterval: Math.round(config.pollIntervalMs / 1000) },
    logging: { level: config.log.level },
    security: { allowedOrigins: [...allowedOrigins], enableAuthentication: !config.authDisabled },
  }
}

/** Refuse a changed value of a setting the environment decides; the same value passes. */
function refuseEnvironmentChanges(
  input: LegacyInput,
  running: LegacySettings,
  prefix: string,
): void {
  const checks: Array<[string, unknown, unknown, string]> = [
    ['server.backend.port', input.server?.backend?.port, running.server.backend.port, 'PORT'],
    ['server.frontend.port', input.server?.frontend?.port, running.server.frontend.port, 'PORT'],
    ['server.backend.host', input.server?.backend?.host, running.server.backend.host, 'HOST'],
    ['server.frontend.host', input.server?.frontend?.host, running.server.frontend.host, 'HOST'],
    [
      'monitoring.pollingInterval',
      input.monitoring?.pollingInterval,
      running.monitoring.pollingInterval,
      'PULSE_POLL_INTERVAL_MS',
    ],
    ['logging.level', input.logging?.level, running.logging.level, 'LOG_LEVEL'],
    [
      'security.enableAuthentication',
      input.security?.enableAuthentication,
      running.security.enableAuthentication,
      'DISABLE_AUTH',
    ],
  ]
  for (const [field, sent, current, variable] of checks) {
    if (sent !== undefined && sent !== current) {
      throw new AppError('FIELD_INVALID', {
        field: prefix + field,
        problem: `is set by the ${variable} environment variable; change it there and restart`,
      })
    }
  }
}

/** Register GET /api/config/system, GET /api/settings, POST /api/settings/{update,validate}. */
export function registerSettingsCompatRoutes(app: FastifyInstance, deps: SettingsCompatDeps): void {
  const { config } = deps
  const running = () => toLegacy(config, deps.webPolicy.allowedOrigins())

  app.get('/api/config/system', async () => ({
    ...readSystemSettings(deps),
    pbsPollingInterval: running().monitoring.pollingInterval,
    backendPort: config.port,
    frontendPort: config.port,
    logLevel: config.log.level,
  }))

  app.get('/api/settings', async () => ({
    current: running(),
    defaults: toLegacy(
      {
        port: CONFIG_DEFAULTS.port,
        host: CONFIG_DEFAULTS.host,
        pollIntervalMs: CONFIG_DEFAULTS.pollIntervalMs,
        log: { level: CONFIG_DEFAULTS.logLevel, format: null },
        authDisabled: false,
      },
      [],
    ),
    // Settings from the environment need a restart, which this server never does by itself.
    capabilities: { canRestart: false, canValidatePorts: false, requiresRestart: true },
  }))

  /** Validate a legacy body; store it unless only validating. Returns whether it was stored. */
  const apply = (body: unknown, validateOnly: boolean): boolean => {
    const wrapped = typeof body === 'object' && body !== null && 'settings' in body
    const { settings, ...flags } = wrapped
      ? parseBody(wrappedSchema, body)
      : { settings: parseBody(legacySchema, body), validateOnly: false }
    refuseEnvironmentChanges(settings, running(), wrapped ? 'settings.' : '')
    if (validateOnly || flags.validateOnly) return false
    // Left as it is when ALLOWED_ORIGINS fixes it, as /api/system/settings/update does.
    deps.webPolicy.configure({ allowedOrigins: settings.security?.allowedOrigins })
    return true
  }

  app.post('/api/settings/validate', async (request) => {
    requireAdmin(request)
    apply(request.body, true)
    return { valid: true, message: 'Configuration is valid' }
  })
  app.post('/api/settings/update', async (request) => {
    requireAdmin(request)
    if (!apply(request.body, false)) return { valid: true, message: 'Configuration is valid' }
    return { success: true, message: 'Settings saved', requiresRestart: false }
  })
}
