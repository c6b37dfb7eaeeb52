// History rows for the alert history tests (unit and browser).
import type { HistoryAlert } from '../../../../src/shared/model/alerts.ts'

export const HOUR = 3_600_000
/** 2025-11-05 10:30 UTC. */
export const NOW = Date.UTC(2025, 10, 5, 10, 30)

/** A history row (an active warning on VM 'web' an hour before NOW), with `patch` applied. */
export function historyRow(patch: Partial<HistoryAlert> = {}): HistoryAlert {
  return {
    historyId: 1,
    id: 'lab-pve1-101-cpu',
    type: 'cpu',
    level: 'warning',
    resourceId: 'lab-pve1-101',
    resourceName: 'web',
    node: 'pve1',
    instance: 'lab',
    message: 'VM cpu at 91.3%',
    value: 91.3,
    threshold: 80,
    peak: 93,
    startTime: new Date(NOW - HOUR).toISOString(),
    lastSeen: new Date(NOW).toISOString(),
    acknowledged: false,
    duration: 5 * 60_000,
    status: 'active',
    resourceType: 'VM',
    ...patch,
  }
}
