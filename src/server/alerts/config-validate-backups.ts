// Issue 26: validation of the backup alert settings (AlertConfig.backups, an override's or a
// rule's `backup`), part of parseAlertConfig (config-validate.ts).
import { z } from 'zod'
import type { AlertConfig } from '../../shared/model/alerts.ts'
import { DEFAULT_ALERT_CONFIG } from './config-defaults.ts'
import { bool, int, num } from './config-schema-parts.ts'

const D = DEFAULT_ALERT_CONFIG

// Issue 26. Days may be fractional (12 hours is 0.5); 0 switches an age level off.
const days = () => num(0, 3650)
export const backupOverride = z.object(
  {
    enabled: z.boolean({ error: 'must be true or false' }).optional(),
    ageWarningDays: days().optional(),
    ageCriticalDays: days().optional(),
    notBackedUp: z.boolean({ error: 'must be true or false' }).optional(),
  },
  { error: 'must be an object' },
)
/** AlertConfig.backups; a config saved before issue 26 (none) gets the defaults. */
export const backups = z
  .object({
    enabled: bool(D.backups.enabled),
    ageWarningDays: days().default(D.backups.ageWarningDays),
    ageCriticalDays: days().default(D.backups.ageCriticalDays),
    notBackedUp: bool(D.backups.notBackedUp),
    failedJobs: bool(D.backups.failedJobs),
    pbsJobs: bool(D.backups.pbsJobs),
    // Up to a week.
    overdueGraceMinutes: int(0, 10_080).default(D.backups.overdueGraceMinutes),
    verification: bool(D.backups.verification),
    orphaned: bool(D.backups.orphaned),
  })
  .prefault({})

/** A critical age below the warning age (both on, in one place): the path of the critical field. */
export function backupOrder(config: AlertConfig): string | null {
  const below = (b: { ageWarningDays?: number; ageCriticalDays?: number } | undefined) =>
    b !== undefined &&
    (b.ageWarningDays ?? 0) > 0 &&
    (b.ageCriticalDays ?? 0) > 0 &&
    b.ageCriticalDays! < b.ageWarningDays!
  if (below(config.backups)) return 'backups.ageCriticalDays'
  for (const [id, entry] of Object.entries(config.overrides)) {
    if (below(entry.backup)) return `overrides.${id}.backup.ageCriticalDays`
  }
  const at = config.customRules.findIndex((r) => below(r.backup))
  return at >= 0 ? `customRules.${at}.backup.ageCriticalDays` : null
}
