// Alert context (issue 25): which chart an alert history occurrence is about, and its bands.
import { describe, expect, test } from 'vitest'
import { formatHistoryRow } from '../../../../src/shared/views/alert-history.ts'
import { alertBands, alertChartTarget } from '../../../../src/shared/views/alert-history-chart.ts'
import { HOUR, NOW, historyRow } from './alert-history-fixtures.ts'

const row = (patch: Parameters<typeof historyRow>[0]) => formatHistoryRow(historyRow(patch), 'UTC')

describe('alertChartTarget', () => {
  test('a metric alert charts its metric for its resource', () => {
    expect(alertChartTarget(row({ type: 'networkIn' }))).toEqual({
      resourceId: 'lab-pve1-101',
      kind: 'guest',
      metric: 'netin',
    })
    expect(alertChartTarget(row({ type: 'usage', resourceType: 'Storage' }))).toMatchObject({
      kind: 'storage',
      metric: 'usage',
    })
  })

  test('a state alert charts CPU (where an outage shows as a gap); unknown resources none', () => {
    expect(alertChartTarget(row({ type: 'connectivity', resourceType: 'Node' }))).toMatchObject({
      kind: 'node',
      metric: 'cpu',
    })
    expect(alertChartTarget(row({ resourceType: 'Unknown', type: 'powered-off' }))).toBeNull()
  })
})

describe('alertBands', () => {
  test('every occurrence of the same resource and type, an active one up to now', () => {
    const now = Math.floor(NOW / 1000)
    const open = row({ historyId: 1, startTime: new Date(NOW - HOUR).toISOString() })
    const closed = row({
      historyId: 2,
      level: 'critical',
      startTime: new Date(NOW - 3 * HOUR).toISOString(),
      endTime: new Date(NOW - 2 * HOUR).toISOString(),
    })
    const other = row({ historyId: 3, type: 'memory' })
    expect(alertBands([open, closed, other, undefined], open, now)).toEqual([
      { start: now - 3600, end: now, label: 'Warning', level: 'warning' },
      { start: now - 3 * 3600, end: now - 2 * 3600, label: 'Critical', level: 'critical' },
    ])
  })
})
