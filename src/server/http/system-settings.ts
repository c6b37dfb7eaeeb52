// System settings routes (spec 001 §3 System settings): discovery, the /ws allowed origins and the
// embedding policy, the update settings, the theme and the history retention, stored in SQLite, plus which settings the
// environment fixes. Keys fixed by the environment are ignored, since the UI sends the whole form
// back. Everything is validated before anything is written, so a refused request changes nothing.
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import type { SystemSettings } from '../../shared/model/node-config.ts'
import { requireAdmin } from '../auth/guard.ts'
import type { DiscoveryService } from '../discovery/discovery-service.ts'
import { parseBody } from '../parse-body.ts'
import { parseOrigins, type WebPolicy } from '../system/web-policy.ts'
import { THEMES, type Theme } from '../../shared/model/theme.ts'
import type { UpdateSettings } from '../../shared/model/updates.ts'
import type { SystemSettingsRepo } from '../store/system-settings-repo.ts'
import {
  readUpdateSettings,
  touchesUpdateSettings,
  updateSettingsPatch,
  writeUpdateSettings,
} from '../updates/update-settings.ts'
import { readStoredTheme, saveTheme } from './theme.ts'
import type { HistoryRetention } from '../history/retention.ts'
import { retentionProblem } from '../../shared/model/history-retention.ts'

const RETENTION_PROBLEM = retentionProblem(undefined)

/** A comma-separated origin list, validated and normalised ('*' only where `star`). */
export const originList = (star: boolean) =>
  z
    .string({ error: 'must be a comma-separated list of origins' })
    .max(4096)
    .transform((text, ctx) => {
      const parsed = parseOrigins(text, star)
      if ('origins' in parsed) return parsed.origins
      ctx.addIssue({ code: 'custom', message: parsed.problem })
      return z.NEVER
    })

const updateSchema = z.object({
  discoveryEnabled: z.boolean({ error: 'must be true or false' }).optional(),
  // As in the reference, an empty subnet is ignored rather than clearing the setting.
  discoverySubnet: z
    .string({ error: 'must be "auto" or a CIDR subnet' })
    .trim()
    .max(64)
    .optional()
    .transform((v) => (v ? v : undefined)),
  allowedOrigins: originList(true).optional(),
  allowEmbedding: z.boolean({ error: 'must be true or false' }).optional(),
  allowedEmbedOrigins: originList(false).optional(),
  ...updateSettingsPatch,
  // As in the reference, an empty theme is ignored (it cannot be cleared).
  theme: z
    .union([z.literal(''), z.enum(THEMES)], { error: 'must be "light" or "dark"' })
    .optional()
    .transform((v): Theme | undefined => (v ? v : undefined)),
  historyRetentionMinutes: z
    .number({ error: RETENTION_PROBLEM })
    .refine((v) => retentionProblem(v) === '', { error: RETENTION_PROBLEM })
    .optional(),
})

export interface SystemSettingsDeps {
  discovery: DiscoveryService
  /** Allowed origins and embedding, applied at once by the guard and the header hook. */
  webPolicy: WebPolicy
  /** Where the update settings and the theme are stored. */
  settings: SystemSettingsRepo
  now: () => number
  broadcast: (type: string, data: unknown) => void
  /** Minutes of recent history the server keeps (absent: not offered). */
  history?: HistoryRetention
  /** Called after the update settings changed (the auto-update timer re-arms). */
  onUpdateSettings?: (settings: UpdateSettings) => void
}

/** The system settings in effect (environment overrides applied), as GET /api/system/settings. */
export function readSystemSettings(deps: SystemSettingsDeps): SystemSettings {
  const web = deps.webPolicy.settings()
  const history = deps.history?.settings()
  return {
    ...deps.discovery.settings(),
    ...web,
    ...readUpdateSettings(deps.settings),
    theme: readStoredTheme(deps.settings),
    ...(history && {
      historyRetentionMinutes: history.historyRetentionMinutes,
      envOverrides: { ...web.envOverrides, ...history.envOverrides },
    }),
  }
}

/** Register GET /api/system/settings and POST /api/system/settings/update. */
export function registerSystemSettingsRoutes(app: FastifyInstance, deps: SystemSettingsDeps): void {
  const answer = () => readSystemSettings(deps)
  app.get('/api/system/settings', async () => answer())
  app.post('/api/system/settings/update', async (request) => {
    requireAdmin(request)
    const body = parseBody(updateSchema, request.body)
    const { discoveryEnabled, discoverySubnet, allowedOrigins, allowEmbedding } = body
    const { updateChannel, autoUpdateEnabled, autoUpdateCheckInterval, autoUpdateTime } = body
    // Discovery validates the subnet before storing anything; what follows cannot fail, so a
    // refused request changes nothing.
    deps.discovery.configure({ discoveryEnabled, discoverySubnet })
    deps.webPolicy.configure({
      allowedOrigins,
      allowEmbedding,
      allowedEmbedOrigins: body.allowedEmbedOrigins,
    })
    const updates = { updateChannel, autoUpdateEnabled, autoUpdateCheckInterval, autoUpdateTime }
    if (touchesUpdateSettings(updates)) {
      deps.onUpdateSettings?.(writeUpdateSettings(deps.settings, updates, deps.now()))
    }
    if (body.theme) saveTheme(deps, body.theme)
    deps.history?.configure(body.historyRetentionMinutes)
    return answer()
  })
}
