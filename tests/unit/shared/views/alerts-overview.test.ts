import { describe, expect, it } from 'vitest'
import type { Entity } from '../../../../src/shared/model/state.ts'
import {
  toOverviewRow,
  createAlertsOverviewView,
  formatSince,
  orderAlerts,
} from '../../../../src/shared/views/alerts-overview.ts'
import type { AlertsOverviewRequest } from '../../../../src/shared/views/alerts-overview-types.ts'

const NOW = Date.UTC(2025, 0, 1, 12, 0, 0)
const MIN = 60_000

function alert(id: string, level: string, agoMin: number, change: Partial<Entity> = {}): Entity {
  return {
    id,
    type: 'cpu',
    level,
    resourceId: `r-${id}`,
    resourceName: `name-${id}`,
    node: 'pve1',
    instance: 'lab',
    message: `VM cpu at 91.3%`,
    value: 91.3,
    threshold: 80,
    startTime: new Date(NOW - agoMin * MIN).toISOString(),
    acknowledged: false,
    ...change,
  }
}

const request = (change: Partial<AlertsOverviewRequest> = {}): AlertsOverviewRequest => ({
  kind: 'alertsOverview',
  showAcknowledged: true,
  now: NOW,
  ...change,
})
const NONE: ReadonlySet<string> = new Set()

describe('alerts overview', () => {
  it('changes its occurrence hash when one alert ends and another fires, counts unchanged', () => {
    const view = createAlertsOverviewView()
    const before = view.compute(
      { alerts: [alert('a1', 'warning', 1), alert('a2', 'warning', 2)], pending: NONE, now: NOW },
      request(),
    )
    const after = view.compute(
      { alerts: [alert('a1', 'warning', 1), alert('a3', 'warning', 2)], pending: NONE, now: NOW },
      request(),
    )
    expect(after.active).toBe(before.active)
    expect(after.occurrences).not.toBe(before.occurrences)
  })

  it('writes a metric alert as the rest of the UI does: metric name, value and unit', () => {
    expect(toOverviewRow(alert('m', 'warning', 1), NONE, NOW).message).toBe('CPU at 91.3%')
    const offline = alert('o', 'critical', 1, {
      type: 'connectivity',
      message: "Node 'pve3' is offline",
      value: 0,
    })
    expect(toOverviewRow(offline, NONE, NOW).message).toBe("Node 'pve3' is offline")
  })

  const alerts = [
    alert('w-old', 'warning', 90),
    alert('c-old', 'critical', 60),
    alert('w-new', 'warning', 5, { acknowledged: true, ackUser: 'admin' }),
    alert('c-new', 'critical', 1),
    alert('bad-time', 'critical', 0, { startTime: 'soon' }),
  ]

  it('orders critical first, then newest first, unreadable times last in their level', () => {
    expect([...orderAlerts(alerts)].map((i) => alerts[i]!.id)).toEqual([
      'c-new',
      'c-old',
      'bad-time',
      'w-new',
      'w-old',
    ])
  })

  it('counts unacknowledged and acknowledged alerts and hides acknowledged rows on request', () => {
    const view = createAlertsOverviewView()
    const all = view.compute({ alerts, pending: NONE, now: NOW }, request())
    expect(all).toMatchObject({ active: 4, acknowledged: 1, rowCount: 5 })
    const hidden = view.compute(
      { alerts, pending: NONE, now: NOW },
      request({ showAcknowledged: false }),
    )
    expect(hidden).toMatchObject({ active: 4, acknowledged: 1, rowCount: 4 })
    expect(hidden.rows.map((row) => row.id)).not.toContain('w-new')
  })

  it('keeps the alerts holding every word of the filter, and gives every matching id on request', () => {
    const list = [
      alert('a', 'critical', 1, { node: 'pve2', resourceName: 'db-1' }),
      alert('b', 'warning', 2, { node: 'pve2', type: 'memory', message: 'VM memory at 95%' }),
      alert('c', 'critical', 3, { node: 'pve1', resourceName: 'DB-2' }),
    ]
    const view = createAlertsOverviewView()
    const input = { alerts: list, pending: NONE, now: NOW }
    const byNode = view.compute(input, request({ search: ' PVE2 ' }))
    expect(byNode.rowCount).toBe(2)
    expect(byNode.matchingIds).toBeUndefined()
    const both = view.compute(input, request({ search: 'db critical', withIds: true }))
    expect(both.matchingIds).toEqual(['a', 'c'])
    expect(both.rows.map((r) => r.id)).toEqual(['a', 'c'])
    // The counters stay those of every active alert.
    expect(both).toMatchObject({ active: 3, acknowledged: 0 })
    const none = view.compute(input, request({ search: 'pve2 db-2', withIds: true }))
    expect(none).toMatchObject({ rowCount: 0, matchingIds: [] })
  })

  it('formats only the window, with value, threshold and since texts', () => {
    const view = createAlertsOverviewView()
    const model = view.compute(
      { alerts, pending: new Set(['c-old']), now: NOW },
      request({ window: { start: 1, count: 2 } }),
    )
    expect(model.start).toBe(1)
    expect(model.rows.map((row) => row.id)).toEqual(['c-old', 'bad-time'])
    expect(model.rows[0]).toMatchObject({
      level: 'critical',
      valueText: '91.3%',
      thresholdText: '80.0%',
      sinceText: '1h 0m ago',
      pending: true,
      resourceName: 'name-c-old',
    })
    expect(model.rows[1]?.sinceText).toBe('')
  })

  it('shows no value for state alerts and uses the metadata unit when given', () => {
    const view = createAlertsOverviewView()
    const rows = view.compute(
      {
        alerts: [
          alert('off', 'critical', 2, { type: 'powered-off', value: 0, threshold: 0 }),
          alert('io', 'warning', 3, { type: 'diskWrite', value: 120.5, threshold: 100 }),
          alert('t', 'warning', 4, { type: 'temperature', value: 82, metadata: { unit: '°C' } }),
        ],
        pending: NONE,
        now: NOW,
      },
      request(),
    ).rows
    expect(rows.map((row) => row.valueText)).toEqual(['', '120.5 MB/s', '82.0°C'])
  })

  it('returns the same result for the same inputs, and the worker clock to the minute', () => {
    const view = createAlertsOverviewView()
    const input = { alerts, pending: NONE, now: NOW + 10_000 }
    const first = view.compute(input, request({ now: undefined }))
    expect(view.compute({ ...input, now: NOW + 50_000 }, request({ now: undefined }))).toBe(first)
    expect(first.rows[0]?.sinceText).toBe('1m ago')
  })

  it('says how long ago in minutes, hours and days', () => {
    expect(formatSince(NOW - 30_000, NOW)).toBe('just now')
    expect(formatSince(NOW - 5 * MIN, NOW)).toBe('5m ago')
    expect(formatSince(NOW - 125 * MIN, NOW)).toBe('2h 5m ago')
    expect(formatSince(NOW - (3 * 24 + 4) * 60 * MIN, NOW)).toBe('3d 4h ago')
  })
})
