// The link of an alert's notification (issue 25 "Where"): the resource's page in Pulse, centred on
// the alert's start, so a click from a phone shows the chart around the alert.
import type { Alert } from '../../shared/model/alerts.ts'
import { resourcePagePath, type HistoryResourceKind } from '../../shared/model/history.ts'

/** The page of an alert's resource: its kind and id (a disk's page is its node's). */
function pageOf(alert: Alert): { kind: HistoryResourceKind; id: string } {
  switch (alert.metadata?.resourceType) {
    case 'Node':
      return { kind: 'node', id: alert.resourceId }
    case 'Disk':
      return { kind: 'node', id: `${alert.instance}-${alert.node}` }
    case 'Storage':
      return { kind: 'storage', id: alert.resourceId }
    case 'PBS':
      return { kind: 'pbs', id: alert.resourceId }
    default:
      return { kind: 'guest', id: alert.resourceId }
  }
}

/** `${publicUrl}${resourcePagePath(kind, id, startTime)}`; '' without PULSE_PUBLIC_URL. */
export function alertResourceLink(alert: Alert, publicUrl: string | undefined): string {
  if (!publicUrl) return ''
  const { kind, id } = pageOf(alert)
  const start = Date.parse(alert.startTime)
  const path = resourcePagePath(kind, id, Number.isFinite(start) ? start : undefined)
  return `${publicUrl.replace(/\/+$/, '')}${path}`
}
