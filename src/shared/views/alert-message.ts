// Display text of an alert: the metric's name as the rest of the UI writes it and the value with
// its unit, rebuilt from the alert's fields. The wire `message` ('VM cpu at 92.4%', reference
// wording, wire-protocol.md §5.2) repeats the resource type the Type column already shows and
// spells the metric as a key; state alerts ('Node 'pve3' is offline') keep their message.
import type { Alert, AlertMetric, AlertResourceType } from '../model/alerts.ts'
import { ALERT_METRICS } from '../model/alerts.ts'

/** A metric's name as the UI and notifications write it. */
export const METRIC_NAMES: Readonly<Record<AlertMetric, string>> = {
  cpu: 'CPU',
  memory: 'Memory',
  disk: 'Disk',
  diskRead: 'Disk read',
  diskWrite: 'Disk write',
  networkIn: 'Network in',
  networkOut: 'Network out',
  usage: 'Usage',
  temperature: 'Temperature',
}

const METRICS: ReadonlySet<string> = new Set(ALERT_METRICS)

/** Guest type labels as the dashboard writes them (spec 000 §2: VM or LXC). */
export const RESOURCE_TYPE_LABELS: Readonly<Record<AlertResourceType | 'CT' | 'Unknown', string>> =
  {
    VM: 'VM',
    Container: 'LXC',
    CT: 'LXC',
    Node: 'Node',
    PBS: 'PBS',
    Storage: 'Storage',
    Disk: 'Disk',
    Unknown: 'Unknown',
  }

const RATE_METRICS: ReadonlySet<string> = new Set([
  'diskRead',
  'diskWrite',
  'networkIn',
  'networkOut',
])

function unitOf(metric: AlertMetric, unit: string | undefined): string {
  if (unit) return unit
  if (metric === 'temperature') return '°C'
  return RATE_METRICS.has(metric) ? 'MB/s' : '%'
}

function amount(value: number, unit: string): string {
  return `${value.toFixed(1)}${unit === '%' || unit === '°C' ? '' : ' '}${unit}`
}

type MessageFields = Pick<Alert, 'message' | 'value' | 'metadata'> & {
  type: string
  peak?: number
}

/**
 * 'CPU at 92.4%', 'Disk (/var) at 93.1%'. With `withPeak` (history: the severity badge is the
 * occurrence's highest level) the peak leads and is labelled when it differs from the last value:
 * 'CPU peak 93.1%, last 86.8%'. A state alert, or one without a readable value, keeps its message.
 */
export function alertMessageText(alert: MessageFields, withPeak = false): string {
  const type = String(alert.type)
  if (!METRICS.has(type) || !Number.isFinite(alert.value)) return alert.message
  const metric = type as AlertMetric
  const unit = unitOf(metric, alert.metadata?.unit)
  const mount = alert.metadata?.mountpoint ? ` (${alert.metadata.mountpoint})` : ''
  const name = `${METRIC_NAMES[metric]}${mount}`
  const peak = alert.peak
  if (
    withPeak &&
    peak !== undefined &&
    Number.isFinite(peak) &&
    peak.toFixed(1) !== alert.value.toFixed(1) &&
    peak > alert.value
  ) {
    return `${name} peak ${amount(peak, unit)}, last ${amount(alert.value, unit)}`
  }
  return `${name} at ${amount(alert.value, unit)}`
}
