// Backup times for display: absolute local time or relative age, and the age colour class.
import { formatLocalDateTime } from '../../shared/format/date-time.ts'
import { getBackupAgeColour } from '../../shared/views/backups-format.ts'
import { TEXT } from '../components/colours.ts'

export { formatBackupAge } from '../../shared/views/backups-format.ts'

/** 'YYYY-MM-DD HH:mm' in local time. */
export function formatBackupTime(epochSeconds: number): string {
  return formatLocalDateTime(epochSeconds * 1000, false)
}

/** Text class of a backup's age colour (spec 000 §9). */
export function ageClass(epochSeconds: number, nowMs: number): string {
  return TEXT[getBackupAgeColour(nowMs / 1000 - epochSeconds)]
}
