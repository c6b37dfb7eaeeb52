// Alert context (issue 25): which chart an alert history occurrence is about (resource, kind,
// metric), and its occurrences as shaded bands. Pure.
import type { AlertLevel } from '../model/alerts.ts'
import type { HistoryMetric, HistoryResourceKind } from '../model/history.ts'
import type { HistoryAlertRow, HistoryResourceType, HistoryViewRow } from './alert-history-types.ts'

/** The chart of an occurrence. */
export interface AlertChartTarget {
  resourceId: string
  kind: HistoryResourceKind
  metric: HistoryMetric
}

/** A shaded window: unix seconds (the chart's ChartBand). */
export interface AlertBand {
  start: number
  end: number
  label: string
  level: AlertLevel
}

const KIND: Partial<Record<HistoryResourceType, HistoryResourceKind>> = {
  VM: 'guest',
  CT: 'guest',
  Node: 'node',
  Storage: 'storage',
  PBS: 'pbs',
}

/** Alert types (metric names of the alert engine) to history metrics. */
const METRIC: Readonly<Record<string, HistoryMetric>> = {
  cpu: 'cpu',
  memory: 'memory',
  disk: 'disk',
  diskRead: 'diskread',
  diskWrite: 'diskwrite',
  networkIn: 'netin',
  networkOut: 'netout',
  usage: 'usage',
  temperature: 'temperature',
}

/**
 * The chart an occurrence is about: its metric for metric alerts; for state alerts (offline,
 * connectivity) the CPU (usage for storage), where the outage shows as a gap. Null when the
 * resource's kind is unknown or its time unreadable.
 */
export function alertChartTarget(row: HistoryAlertRow): AlertChartTarget | null {
  const kind = KIND[row.resourceType]
  if (!kind || !row.resourceId || row.startSec === null) return null
  const fallback: HistoryMetric = kind === 'storage' ? 'usage' : 'cpu'
  const metric = METRIC[row.alertType] ?? fallback
  // Storage has only usage; a PBS only cpu and memory.
  if (kind === 'storage' && metric !== 'usage')
    return { resourceId: row.resourceId, kind, metric: 'usage' }
  if (kind === 'pbs' && metric !== 'cpu' && metric !== 'memory') {
    return { resourceId: row.resourceId, kind, metric: 'cpu' }
  }
  return { resourceId: row.resourceId, kind, metric }
}

/** The occurrences among `rows` of the same resource and alert type as `row`, as bands. */
export function alertBands(
  rows: readonly (HistoryViewRow | undefined)[],
  row: HistoryAlertRow,
  nowSec: number,
): AlertBand[] {
  const bands: AlertBand[] = []
  for (const other of rows) {
    if (other?.kind !== 'alert' || other.startSec === null) continue
    if (other.resourceId !== row.resourceId || other.alertType !== row.alertType) continue
    bands.push({
      start: other.startSec,
      end: other.endSec ?? nowSec,
      label: other.severityText,
      level: other.level,
    })
  }
  return bands
}
