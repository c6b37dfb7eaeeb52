// Column titles and units of the Thresholds tab (spec 001 §2), and the 'Off' rule of §5.
import type { AlertMetric } from '../../shared/model/alerts.ts'
import { isThresholdOff } from '../../shared/views/alert-override-edit.ts'

export const METRIC_LABELS: Readonly<Record<AlertMetric, string>> = {
  cpu: 'CPU %',
  memory: 'Memory %',
  disk: 'Disk %',
  diskRead: 'Disk R MB/s',
  diskWrite: 'Disk W MB/s',
  networkIn: 'Net In MB/s',
  networkOut: 'Net Out MB/s',
  usage: 'Usage %',
  temperature: 'Temp °C',
}

/** A trigger as the tables show it: 'Off' when 0 or -1 (spec 001 §5), '…' before the config. */
export function formatTrigger(value: number | undefined): string {
  if (value === undefined) return '…'
  return isThresholdOff(value) ? 'Off' : String(value)
}
