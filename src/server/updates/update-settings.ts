// The update settings kept with the system settings (spec 001 §3 System settings, §9 defaults):
// one JSON value in the system settings table, read field by field so a damaged value falls back
// to the default of that field only.
import { z } from 'zod'
import {
  AUTO_UPDATE_INTERVALS,
  UPDATE_CHANNELS,
  UPDATE_DEFAULTS,
  type UpdateSettings,
} from '../../shared/model/updates.ts'
import type { SystemSettingsRepo } from '../store/system-settings-repo.ts'

const KEY = 'updateSettings'

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/

/** The route's fields. As in the reference, an empty channel or time is ignored, not cleared. */
export const updateSettingsPatch = {
  updateChannel: z
    .union([z.literal(''), z.enum(UPDATE_CHANNELS)], { error: 'must be "stable" or "rc"' })
    .optional()
    .transform((v) => (v ? v : undefined)),
  autoUpdateEnabled: z.boolean({ error: 'must be true or false' }).optional(),
  autoUpdateCheckInterval: z
    .number({ error: `must be one of ${AUTO_UPDATE_INTERVALS.join(', ')} (hours)` })
    .refine((v) => (AUTO_UPDATE_INTERVALS as readonly number[]).includes(v), {
      error: `must be one of ${AUTO_UPDATE_INTERVALS.join(', ')} (hours)`,
    })
    .optional(),
  autoUpdateTime: z
    .string({ error: 'must be a time of day HH:MM (00:00 to 23:59)' })
    .refine((v) => v === '' || TIME.test(v), {
      error: 'must be a time of day HH:MM (00:00 to 23:59)',
    })
    .optional()
    .transform((v) => (v ? v : undefined)),
}

const stored = z.object({
  updateChannel: z.enum(UPDATE_CHANNELS).catch(UPDATE_DEFAULTS.updateChannel),
  autoUpdateEnabled: z.boolean().catch(UPDATE_DEFAULTS.autoUpdateEnabled),
  autoUpdateCheckInterval: z
    .number()
    .refine((v) => (AUTO_UPDATE_INTERVALS as readonly number[]).includes(v))
    .catch(UPDATE_DEFAULTS.autoUpdateCheckInterval),
  autoUpdateTime: z.string().regex(TIME).catch(UPDATE_DEFAULTS.autoUpdateTime),
})

/** The saved update settings, defaults where unset. */
export function readUpdateSettings(repo: SystemSettingsRepo): UpdateSettings {
  const value = repo.get(KEY)
  return stored.parse(typeof value === 'object' && value !== null ? value : {})
}

/** Merge a validated patch into the saved settings; returns the result. */
export function writeUpdateSettings(
  repo: SystemSettingsRepo,
  patch: Partial<UpdateSettings>,
  now: number,
): UpdateSettings {
  const next = { ...readUpdateSettings(repo) }
  for (const [key, value] of Object.entries(patch)) {
    if (value !== undefined) (next as Record<string, unknown>)[key] = value
  }
  repo.set(KEY, next, now)
  return next
}

/** True when the patch carries at least one field. */
export const touchesUpdateSettings = (patch: Partial<UpdateSettings>): boolean =>
  Object.values(patch).some((v) => v !== undefined)
