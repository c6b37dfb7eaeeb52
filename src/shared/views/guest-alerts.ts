// Alert styling of guest rows (spec 000 §4 alert row styling): severity per guest from the active alerts.
import type { Entity } from '../model/state.ts'

/** What a guest row shows for its alerts: red, yellow, the 'Ack' marker, or nothing. */
export type GuestAlertState = 'critical' | 'warning' | 'acknowledged'

/** Alert state per resource id (a guest's id); guests without alerts are absent. */
export type GuestAlertIndex = ReadonlyMap<string, GuestAlertState>

const EMPTY_INDEX: GuestAlertIndex = new Map()

/**
 * Index active alerts by resource id. Unacknowledged critical wins over warning; a resource whose
 * alerts are all acknowledged is 'acknowledged'. Malformed entries (no resourceId) are skipped.
 */
export function indexGuestAlerts(alerts: readonly Entity[]): GuestAlertIndex {
  if (alerts.length === 0) return EMPTY_INDEX
  const index = new Map<string, GuestAlertState>()
  for (const alert of alerts) {
    const resourceId = alert.resourceId
    if (typeof resourceId !== 'string' || !resourceId) continue
    const current = index.get(resourceId)
    if (alert.acknowledged === true) {
      if (!current) index.set(resourceId, 'acknowledged')
      continue
    }
    const level = alert.level === 'critical' ? 'critical' : 'warning'
    if (current !== 'critical') index.set(resourceId, level)
  }
  return index
}
