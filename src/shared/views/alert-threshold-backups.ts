// Issue 26: the backup fields of the Thresholds tab: what a typed value becomes (same rule as the
// other threshold inputs: whole numbers, anything else 0, clamped to the range the server accepts),
// and a guest override's backup fields edited and stored. Pure.
import type { BackupAlertConfig, BackupAlertOverride, ThresholdOverride } from '../model/alerts.ts'

/**
 * The backup alert defaults (AlertConfig.backups of a fresh install; the Backups card's reset).
 * Age levels follow spec 000 §9's backup age colours (yellow from 3 days, red from 7).
 */
export const DEFAULT_BACKUP_ALERTS: Readonly<BackupAlertConfig> = {
  enabled: true,
  ageWarningDays: 3,
  ageCriticalDays: 7,
  notBackedUp: false,
  failedJobs: true,
  pbsJobs: true,
  overdueGraceMinutes: 60,
  verification: true,
  orphaned: false,
}

/** The most days an age level may be (config-validate-backups.ts). */
export const BACKUP_DAYS_MAX = 3650
/** The most minutes a PBS job may be overdue before its alert (a week). */
export const OVERDUE_GRACE_MAX = 10_080

function clampWhole(text: string, max: number): number {
  const trimmed = text.trim()
  const value = /^\d+$/.test(trimmed) ? Number(trimmed) : 0
  return Math.min(max, value)
}

/** Days of an age level: a whole number 0 (off) to 3650; anything else becomes 0. */
export const clampBackupDays = (text: string): number => clampWhole(text, BACKUP_DAYS_MAX)

/** Overdue grace: whole minutes 0 to 10,080; anything else becomes 0. */
export const clampGraceMinutes = (text: string): number => clampWhole(text, OVERDUE_GRACE_MAX)

/**
 * Switch a resource's backup alerts on or off in its override (a guest; for a PBS id, its job
 * alerts). Off stores `backup.enabled: false`; on removes it, and the override when nothing is
 * left. Returns the same object when nothing changed.
 */
export function toggleBackupAlerts(
  overrides: Readonly<Record<string, ThresholdOverride>>,
  id: string,
  on: boolean,
): Readonly<Record<string, ThresholdOverride>> {
  const current = overrides[id]
  if ((current?.backup?.enabled !== false) === on) return overrides
  const backup: BackupAlertOverride = { ...current?.backup }
  if (on) delete backup.enabled
  else backup.enabled = false
  const next: ThresholdOverride = { ...current }
  delete next.backup
  if (Object.keys(backup).length > 0) next.backup = backup
  const out = { ...overrides }
  if (Object.keys(next).length > 0) out[id] = next
  else delete out[id]
  return out
}
