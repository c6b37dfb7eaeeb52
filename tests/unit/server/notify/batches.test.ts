import { describe, expect, it } from 'vitest'
import { batchKey, buildBatch, summaryText } from '../../../../src/server/notify/batches.ts'
import type { AlertType } from '../../../../src/shared/model/alerts.ts'
import type { NotificationEvent } from '../../../../src/shared/model/notifications.ts'
import { fired, makeAlert, makeSchedule, resolved, T0 } from './policy-fixture.ts'

function fires(n: number, type: AlertType, node = 'pve3', from = 0): NotificationEvent[] {
  return Array.from({ length: n }, (_, i) =>
    fired(
      makeAlert({
        id: `lab-${node}-${from + i}-${type}`,
        type,
        node,
        resourceId: `lab-${node}-${from + i}`,
      }),
      T0,
    ),
  )
}

describe('storm summary', () => {
  it('summarises only when more than the threshold fired', () => {
    const s = makeSchedule((x) => {
      x.storm = { enabled: true, threshold: 20 }
    })
    expect(buildBatch(fires(20, 'cpu'), 'k', s, T0).summary).toBeUndefined()
    const storm = buildBatch(fires(21, 'cpu'), 'k', s, T0)
    expect(storm).toMatchObject({
      key: 'k',
      createdAt: T0,
      summary: { reason: 'storm', text: '21 alerts on pve3: 21 cpu', count: 21 },
    })
    expect(storm.events).toHaveLength(21)
    // Recoveries do not make a storm.
    const mixed = [...fires(20, 'cpu'), ...fires(5, 'memory').map((e) => resolved(e.alert, T0))]
    expect(buildBatch(mixed, 'k', s, T0).summary).toBeUndefined()
    const off = makeSchedule((x) => {
      x.storm = { enabled: false, threshold: 20 }
    })
    expect(buildBatch(fires(500, 'cpu'), 'k', off, T0).summary).toBeUndefined()
  })

  it('marks the release of quiet hours as a summary whatever the count', () => {
    const batch = buildBatch(fires(1, 'cpu'), 'k', makeSchedule(), T0, 'quiet-hours')
    expect(batch.summary).toEqual({
      reason: 'quiet-hours',
      text: '1 alert on pve3: 1 cpu',
      count: 1,
    })
  })
})

describe('summary text', () => {
  it('names the node, types by count then name, and recoveries', () => {
    const events = [...fires(22, 'cpu'), ...fires(120, 'powered-off', 'pve3', 100)]
    expect(summaryText(events)).toBe('142 alerts on pve3: 120 powered-off, 22 cpu')
    const tie = [...fires(2, 'memory'), ...fires(2, 'cpu', 'pve3', 10)]
    expect(summaryText(tie)).toBe('4 alerts on pve3: 2 cpu, 2 memory')
    const recoveries = fires(12, 'disk', 'pve3', 300).map((e) => resolved(e.alert, T0))
    expect(summaryText([...events, ...recoveries])).toBe(
      '142 alerts on pve3: 120 powered-off, 22 cpu; 12 resolved',
    )
    expect(summaryText(recoveries)).toBe('12 resolved on pve3')
  })

  it('counts nodes when the alerts span several, and an alert once across its events', () => {
    const events = [
      ...fires(3, 'cpu', 'pve1'),
      ...fires(2, 'cpu', 'pve2'),
      ...fires(1, 'usage', 'pve3'),
    ]
    expect(summaryText(events)).toBe('6 alerts on 3 nodes: 5 cpu, 1 usage')
    const a = makeAlert()
    const twice: NotificationEvent[] = [
      fired(a, T0),
      { kind: 'escalated', alert: { ...a, level: 'critical' }, at: T0 },
    ]
    expect(summaryText(twice)).toBe('1 alert on pve1: 1 cpu')
  })
})

describe('batch key', () => {
  it('is the same for the same members in any order and differs for other members', () => {
    expect(batchKey(['b', 'a', 'c'])).toBe(batchKey(['a', 'b', 'c']))
    expect(batchKey(['a', 'b'])).not.toBe(batchKey(['a', 'b', 'c']))
    expect(batchKey(['ab'])).not.toBe(batchKey(['a', 'b']))
    expect(batchKey(['a'])).toMatch(/^[0-9a-f]{32}$/)
  })
})

describe('one entry per alert', () => {
  it("keeps each alert's latest event only, in the order of those events", () => {
    const a = makeAlert({ id: 'lab-pve1-101-cpu', level: 'warning' })
    const b = makeAlert({ id: 'lab-pve1-102-cpu' })
    const events: NotificationEvent[] = [
      fired(a, T0),
      fired(b, T0 + 1),
      { kind: 'escalated', alert: { ...a, level: 'critical' }, at: T0 + 2 },
      resolved({ ...a, level: 'critical' }, T0 + 3),
    ]
    const batch = buildBatch(events, 'k', makeSchedule(), T0 + 4)
    expect(batch.events.map((e) => [e.alert.id, e.kind, e.alert.level])).toEqual([
      ['lab-pve1-102-cpu', 'fired', b.level],
      ['lab-pve1-101-cpu', 'resolved', 'critical'],
    ])
  })

  it('counts alerts, not events, toward a storm and in its summary', () => {
    const s = makeSchedule((x) => {
      x.storm = { enabled: true, threshold: 20 }
    })
    const twice = fires(15, 'cpu').flatMap((e) => [e, { ...e, at: T0 + 1 }])
    expect(buildBatch(twice, 'k', s, T0).summary).toBeUndefined()
    const storm = buildBatch([...twice, ...fires(6, 'memory')], 'k', s, T0)
    expect(storm.summary).toMatchObject({ count: 21, text: '21 alerts on pve3: 15 cpu, 6 memory' })
  })
})
