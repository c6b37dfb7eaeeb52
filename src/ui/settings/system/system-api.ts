// The System tab's settings (spec 001 §3 System settings, §7 GET /api/system/settings and
// POST /api/system/settings/update): the form, what changed, and the two calls.
import { apiJson } from '../../api/http.ts'
import { isRecord, textOr, toBool } from '../../../shared/model/coerce.ts'
import {
  AUTO_UPDATE_INTERVALS,
  UPDATE_DEFAULTS,
  type UpdateSettings,
} from '../../../shared/model/updates.ts'
import { toChannel } from '../../updates/updates-api.ts'
import {
  HISTORY_RETENTION_DEFAULT,
  retentionProblem,
} from '../../../shared/model/history-retention.ts'

/** The fields this tab edits, the version panel's update settings among them. */
export interface SystemForm extends UpdateSettings {
  allowedOrigins: string
  allowEmbedding: boolean
  allowedEmbedOrigins: string
  discoveryEnabled: boolean
  discoverySubnet: string
  /** Minutes of recent history the server keeps, as typed (sent as a number). */
  historyRetentionMinutes: string
}

export interface LoadedSystemSettings {
  form: SystemForm
  /** Fields fixed by environment variables: shown read-only. */
  envOverrides: ReadonlySet<keyof SystemForm>
}

/** Spec 001 §4, §9: after a successful save the page reloads after 3 s. */
export const SAVE_RELOAD_MS = 3_000

export const SAVED_TEXT =
  'Settings saved successfully. Service restart may be required for port changes.'
export const SAVE_FAILED_TEXT = 'Failed to save settings'
/** Spec 001 §2 System tab: the two lines under an allowed-origins field fixed by the env. */
export const ENV_OVERRIDE_LINES = [
  'Overridden by ALLOWED_ORIGINS environment variable',
  'Remove the env var and restart to enable UI configuration',
] as const

const FIELDS: readonly (keyof SystemForm)[] = [
  'allowedOrigins',
  'allowEmbedding',
  'allowedEmbedOrigins',
  'discoveryEnabled',
  'discoverySubnet',
  'updateChannel',
  'autoUpdateEnabled',
  'autoUpdateCheckInterval',
  'autoUpdateTime',
  'historyRetentionMinutes',
]

/** An interval the select offers; anything else shows the default. */
function toInterval(value: unknown): number {
  return (AUTO_UPDATE_INTERVALS as readonly unknown[]).includes(value)
    ? (value as number)
    : UPDATE_DEFAULTS.autoUpdateCheckInterval
}

const toTime = (value: unknown) =>
  typeof value === 'string' && /^\d{2}:\d{2}$/.test(value) ? value : UPDATE_DEFAULTS.autoUpdateTime

function fromAnswer(answer: unknown): LoadedSystemSettings {
  const raw = isRecord(answer) ? answer : {}
  const overrides = raw.envOverrides
  const envOverrides = new Set<keyof SystemForm>(
    FIELDS.filter((field) =>
      Array.isArray(overrides)
        ? overrides.includes(field)
        : isRecord(overrides) && overrides[field] === true,
    ),
  )
  return {
    form: {
      allowedOrigins: textOr(raw.allowedOrigins),
      allowEmbedding: toBool(raw.allowEmbedding),
      allowedEmbedOrigins: textOr(raw.allowedEmbedOrigins),
      discoveryEnabled: toBool(raw.discoveryEnabled),
      discoverySubnet: textOr(raw.discoverySubnet, 'auto'),
      updateChannel: toChannel(raw.updateChannel),
      autoUpdateEnabled: toBool(raw.autoUpdateEnabled, UPDATE_DEFAULTS.autoUpdateEnabled),
      autoUpdateCheckInterval: toInterval(raw.autoUpdateCheckInterval),
      autoUpdateTime: toTime(raw.autoUpdateTime),
      historyRetentionMinutes: String(
        retentionProblem(raw.historyRetentionMinutes)
          ? HISTORY_RETENTION_DEFAULT
          : raw.historyRetentionMinutes,
      ),
    },
    envOverrides,
  }
}

/** True when any field differs from what was loaded. */
export function formChanged(form: SystemForm, loaded: SystemForm): boolean {
  return FIELDS.some((field) => form[field] !== loaded[field])
}

/** GET /api/system/settings. */
export async function loadSystemSettings(): Promise<LoadedSystemSettings> {
  return fromAnswer(await apiJson<unknown>('/api/system/settings'))
}

/**
 * POST /api/system/settings/update with every field but those the environment fixes (the
 * server would ignore them anyway). Throws the server's message (it names the bad field).
 */
export async function saveSystemSettings(
  form: SystemForm,
  envOverrides: ReadonlySet<keyof SystemForm>,
): Promise<LoadedSystemSettings> {
  const body: Record<string, unknown> = {}
  for (const field of FIELDS) {
    if (!envOverrides.has(field)) body[field] = form[field]
  }
  // A number for the server; text that is not one goes as it is, and the server names the field.
  if ('historyRetentionMinutes' in body) {
    const text = form.historyRetentionMinutes.trim()
    body.historyRetentionMinutes = /^\d+$/.test(text) ? Number(text) : text
  }
  return fromAnswer(await apiJson<unknown>('/api/system/settings/update', { method: 'POST', body }))
}
