// An active alert as the worker's overview and resource views give it: a critical CPU alert of
// the guest web-01 (lab-pve1-100), changed by `patch`.
import type { AlertsOverviewRow } from '../../../src/shared/views/alerts-overview-types.ts'

export function overviewRow(id: string, patch: Partial<AlertsOverviewRow> = {}): AlertsOverviewRow {
  return {
    id,
    level: 'critical',
    type: 'cpu',
    resourceName: 'web-01',
    resourceId: 'lab-pve1-100',
    node: 'pve1',
    instance: 'lab',
    message: 'CPU at 97%',
    valueText: '97.0%',
    thresholdText: '90.0%',
    startTime: '2025-01-01T11:00:00Z',
    sinceText: '1h ago',
    acknowledged: false,
    ackUser: '',
    ackTime: '',
    stale: false,
    flapping: false,
    silenceId: '',
    silencedText: '',
    resourceType: 'VM',
    pending: false,
    notes: [],
    ...patch,
  }
}
