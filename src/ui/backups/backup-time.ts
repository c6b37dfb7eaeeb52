// Backup times for display: absolute local time or relative age, and the age colour class.
import { formatLocalDateTime } from '../../shared/format/date-time.ts'
import { getBackupAgeColour } from '../../shared/views/backups-format.ts'
import { TEXT } from '../components/colours.ts'

/** 'YYYY-MM-DD HH:mm' in local time. */
export function formatBackupTime(epochSeconds: number): string {
  return formatLocalDateTime(epochSeconds * 1000, false)
}

/** 'just now', '5m ago', '3h ago', '4d ago', '2mo ago', '1y ago'; future times read 'just now'. */
export function formatBackupAge(epochSeconds: number, nowMs: number): string {
  const age = Math.max(0, nowMs / 1000 - epochSeconds)
  if (age < 60) return 'just now'
  if (age < 3600) return `${Math.floor(age / 60)}m ago`
  if (age < 86_400) return `${Math.floor(age / 3600)}h ago`
  if (age < 30 * 86_400) return `${Math.floor(age / 86_400)}d ago`
  if (age < 365 * 86_400) return `${Math.floor(age / (30 * 86_400))}mo ago`
  return `${Math.floor(age / (365 * 86_400))}y ago`
}

/** Text class of a backup's age colour (spec 000 §9). */
export function ageClass(epochSeconds: number, nowMs: number): string {
  return TEXT[getBackupAgeColour(nowMs / 1000 - epochSeconds)]
}
