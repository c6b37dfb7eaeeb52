// Issue 26: the backup alert limits in force for one guest, and the age level of its newest
// backup. One definition for the alert engine (server) and the coverage view's "overdue" (worker),
// so the two agree. Pure.
import type { AlertConfig, AlertLevel, BackupAlertOverride } from '../model/alerts.ts'

/** The backup limits in force for one guest. */
export interface BackupLimits {
  /** Any backup alert for this guest at all. */
  enabled: boolean
  /** Days; 0 switches the level off. */
  warningDays: number
  criticalDays: number
  notBackedUp: boolean
}

const DAY_S = 86_400

/**
 * The limits for a guest: its override's fields first, then the matching rule's, then the
 * defaults. A config without `backups` (saved before issue 26) means every backup alert is off.
 */
export function resolveBackupLimits(
  config: Pick<AlertConfig, 'backups'>,
  override?: BackupAlertOverride,
  rule?: BackupAlertOverride,
): BackupLimits {
  const defaults = config.backups
  if (!defaults) return { enabled: false, warningDays: 0, criticalDays: 0, notBackedUp: false }
  return {
    enabled: defaults.enabled && (override?.enabled ?? rule?.enabled ?? true),
    warningDays: override?.ageWarningDays ?? rule?.ageWarningDays ?? defaults.ageWarningDays,
    criticalDays: override?.ageCriticalDays ?? rule?.ageCriticalDays ?? defaults.ageCriticalDays,
    notBackedUp: override?.notBackedUp ?? rule?.notBackedUp ?? defaults.notBackedUp,
  }
}

/**
 * The age level of a newest backup at `nowS` (epoch seconds): critical at or past criticalDays,
 * warning at or past warningDays, else null. `newest` 0 (never backed up) counts as infinitely
 * old. A level set to 0 is off.
 */
export function backupAgeLevel(
  limits: BackupLimits,
  newest: number,
  nowS: number,
): AlertLevel | null {
  if (!limits.enabled) return null
  const age = newest > 0 ? nowS - newest : Number.POSITIVE_INFINITY
  if (limits.criticalDays > 0 && age >= limits.criticalDays * DAY_S) return 'critical'
  if (limits.warningDays > 0 && age >= limits.warningDays * DAY_S) return 'warning'
  return null
}
