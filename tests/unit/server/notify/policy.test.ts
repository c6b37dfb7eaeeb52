import { describe, expect, it } from 'vitest'
import { buildBatch } from '../../../../src/server/notify/batches.ts'
import { groupKeyOf, idempotencyKey, QUIET_GROUP } from '../../../../src/server/notify/policy.ts'
import type { PlannedDelivery } from '../../../../src/server/notify/types.ts'
import type { AlertSchedule } from '../../../../src/shared/model/alerts.ts'
import type { NotificationEvent } from '../../../../src/shared/model/notifications.ts'
import {
  EMAIL,
  fired,
  makeAlert,
  makeSchedule,
  MIN,
  PlanMemory,
  resolved,
  resolvedOf,
  T0,
} from './policy-fixture.ts'

const brief = (rows: PlannedDelivery[]) =>
  rows.map((r) => ({ to: r.destination.id, status: r.status, reason: r.reason, dueAt: r.dueAt }))

describe('idempotency and group keys', () => {
  it('gives a stable key, distinct per destination, kind, level and occurrence', () => {
    const a = makeAlert()
    const key = idempotencyKey(fired(a, T0), 'email')
    expect(key).toBe(`lab-pve1-101-cpu|fired|${a.startTime}|email`)
    expect(idempotencyKey(fired(a, T0 + 5 * MIN), 'email')).toBe(key)
    const escalation: NotificationEvent = { kind: 'escalation', alert: a, at: T0, level: 2 }
    const keys = [
      key,
      idempotencyKey(fired(a, T0), 'wh-1'),
      idempotencyKey(resolved(a, T0), 'email'),
      idempotencyKey({ kind: 'escalated', alert: a, at: T0 }, 'email'),
      idempotencyKey(escalation, 'email'),
      idempotencyKey({ ...escalation, level: 3 }, 'email'),
      idempotencyKey(
        fired(makeAlert({ startTime: new Date(T0 + MIN).toISOString() }), T0),
        'email',
      ),
    ]
    expect(new Set(keys).size).toBe(keys.length)
    expect(keys[4]).toBe(`lab-pve1-101-cpu|escalation#2|${a.startTime}|email`)
  })

  it('groups by alert when grouping is off, else by guest, node or all', () => {
    const e = fired(makeAlert(), T0)
    const key = (g: { enabled: boolean; byNode: boolean; byGuest: boolean }) =>
      groupKeyOf(
        e,
        makeSchedule((s) => Object.assign(s.grouping, g)),
      )
    expect(key({ enabled: false, byNode: true, byGuest: true })).toBe('lab-pve1-101-cpu')
    expect(key({ enabled: true, byNode: true, byGuest: false })).toBe('node:lab/pve1')
    expect(key({ enabled: true, byNode: false, byGuest: true })).toBe('resource:lab-pve1-101')
    expect(key({ enabled: true, byNode: true, byGuest: true })).toBe('resource:lab-pve1-101')
    expect(key({ enabled: true, byNode: false, byGuest: false })).toBe('all')
  })
})

describe('grouping window', () => {
  const grouped = makeSchedule((s) => {
    s.grouping = { enabled: true, window: 300, byNode: true, byGuest: false }
    s.groupingWindow = 300
  })

  it('sends at once when grouping is off', () => {
    const m = new PlanMemory()
    expect(brief(m.plan(fired(makeAlert(), T0), makeSchedule(), T0))).toEqual([
      { to: 'email', status: 'pending', reason: undefined, dueAt: T0 },
      { to: 'wh-1', status: 'pending', reason: undefined, dueAt: T0 },
    ])
  })

  it('opens a group due after the window and lets later events of the node join its due time', () => {
    const m = new PlanMemory()
    const first = m.plan(fired(makeAlert(), T0), grouped, T0)
    expect(first.map((r) => [r.groupKey, r.dueAt, r.reason])).toEqual([
      ['node:lab/pve1', T0 + 300_000, 'grouped'],
      ['node:lab/pve1', T0 + 300_000, 'grouped'],
    ])
    const other = makeAlert({
      id: 'lab-pve1-102-memory',
      resourceId: 'lab-pve1-102',
      type: 'memory',
    })
    const joined = m.plan(fired(other, T0 + 2 * MIN), grouped, T0 + 2 * MIN)
    expect(joined.map((r) => r.dueAt)).toEqual([T0 + 300_000, T0 + 300_000])
    // Another node opens its own group.
    const elsewhere = makeAlert({
      id: 'lab-pve2-201-cpu',
      resourceId: 'lab-pve2-201',
      node: 'pve2',
    })
    const own = m.plan(fired(elsewhere, T0 + 2 * MIN), grouped, T0 + 2 * MIN)
    expect(own.map((r) => [r.groupKey, r.dueAt])).toEqual([
      ['node:lab/pve2', T0 + 7 * MIN],
      ['node:lab/pve2', T0 + 7 * MIN],
    ])
    // Once the group is due (sent), the next event opens a new one.
    const later = m.plan(resolved(other, T0 + 6 * MIN), grouped, T0 + 6 * MIN)
    expect(later.map((r) => r.dueAt)).toEqual([T0 + 11 * MIN, T0 + 11 * MIN])
  })
})

describe('cooldown and max per hour', () => {
  /** Cooldown 30 min, max per hour high enough not to interfere. */
  const cooling = () =>
    makeSchedule((x) => {
      x.cooldown = 30
      x.maxAlertsHour = 10
    })
  /** The rows to both destinations, with one status and reason, due at `dueAt`. */
  const toBoth = (status: string, reason: string | undefined, dueAt: number) =>
    ['email', 'wh-1'].map((to) => ({ to, status, reason, dueAt }))

  it('sends a new occurrence within cooldown, and its recovery (issue 24 item 13)', () => {
    const s = cooling()
    const m = new PlanMemory()
    const first = makeAlert()
    m.plan(fired(first, T0), s, T0)
    m.plan(resolved(first, T0 + MIN), s, T0 + MIN)
    // Back 12 minutes later: a new occurrence (another start time), so news, not a repeat.
    const again = makeAlert({ startTime: new Date(T0 + 12 * MIN).toISOString() })
    expect(brief(m.plan(fired(again, T0 + 12 * MIN), s, T0 + 12 * MIN))).toEqual(
      toBoth('pending', undefined, T0 + 12 * MIN),
    )
    expect(brief(m.plan(resolved(again, T0 + 14 * MIN), s, T0 + 14 * MIN))).toEqual(
      toBoth('pending', undefined, T0 + 14 * MIN),
    )
  })

  it('holds a repeat of the same occurrence within cooldown', () => {
    const s = cooling()
    const m = new PlanMemory()
    const a = makeAlert()
    m.plan(fired(a, T0), s, T0)
    // The same occurrence announced again (same start time) inside the cooldown.
    expect(brief(m.plan(fired(a, T0 + 5 * MIN), s, T0 + 5 * MIN))).toEqual(
      toBoth('suppressed', 'cooldown', T0 + 5 * MIN),
    )
    expect(m.plan(fired(a, T0 + 31 * MIN), s, T0 + 31 * MIN).map((r) => r.status)).toEqual([
      'pending',
      'pending',
    ])
  })

  it('never swallows the recovery of a fire that was sent (cooldown and max per hour)', () => {
    const s = makeSchedule((x) => {
      x.cooldown = 120
      x.maxAlertsHour = 1
    })
    const m = new PlanMemory()
    const a = makeAlert()
    m.plan(fired(a, T0), s, T0)
    expect(brief(m.plan(resolved(a, T0 + MIN), s, T0 + MIN))).toEqual([
      { to: 'email', status: 'pending', reason: undefined, dueAt: T0 + MIN },
      { to: 'wh-1', status: 'pending', reason: undefined, dueAt: T0 + MIN },
    ])
  })

  it('caps notifications per alert and destination in a rolling hour', () => {
    const s = makeSchedule((x) => {
      x.cooldown = 0
      x.maxAlertsHour = 3
    })
    const m = new PlanMemory()
    const fireAt = (t: number) =>
      m.plan(fired(makeAlert({ startTime: new Date(t).toISOString() }), t), s, t, [EMAIL])[0]!
    expect([0, 1, 2].map((i) => fireAt(T0 + i * MIN).status)).toEqual([
      'pending',
      'pending',
      'pending',
    ])
    expect(fireAt(T0 + 3 * MIN)).toMatchObject({ status: 'suppressed', reason: 'max-per-hour' })
    // Another alert has its own count.
    const other = makeAlert({ id: 'lab-pve1-102-cpu' })
    expect(m.plan(fired(other, T0 + 3 * MIN), s, T0 + 3 * MIN, [EMAIL])[0]!.status).toBe('pending')
    // The hour rolls: at T0 + 61 min only two of the three are inside it.
    expect(fireAt(T0 + 61 * MIN).status).toBe('pending')
  })

  it('lets an escalation to critical through cooldown', () => {
    const s = makeSchedule((x) => {
      x.cooldown = 30
    })
    const m = new PlanMemory()
    const a = makeAlert()
    m.plan(fired(a, T0), s, T0)
    const worse = { ...a, level: 'critical' as const }
    const rows = m.plan({ kind: 'escalated', alert: worse, at: T0 + MIN }, s, T0 + MIN)
    expect(rows.map((r) => r.status)).toEqual(['pending', 'pending'])
  })
})

describe('applicability', () => {
  it('sends an escalation level only to its destinations, and none for an acknowledged alert', () => {
    const s = makeSchedule((x) => {
      x.escalation.enabled = true
    })
    const m = new PlanMemory()
    const a = makeAlert()
    const level1: NotificationEvent = { kind: 'escalation', alert: a, at: T0, level: 1 }
    expect(brief(m.plan(level1, s, T0))).toEqual([
      { to: 'email', status: 'pending', reason: undefined, dueAt: T0 },
      { to: 'wh-1', status: 'suppressed', reason: 'disabled', dueAt: T0 },
    ])
    const level2 = { ...level1, level: 2 }
    expect(m.plan(level2, s, T0).map((r) => r.status)).toEqual(['suppressed', 'pending'])
    const level3 = { ...level1, level: 3 }
    expect(m.plan(level3, s, T0).map((r) => r.status)).toEqual(['pending', 'pending'])
    const acked = { ...level3, alert: { ...a, acknowledged: true } }
    expect(m.plan(acked, s, T0).map((r) => r.reason)).toEqual(['disabled', 'disabled'])
  })

  it('sends no recovery for an alert that ended because it was disabled', () => {
    const s = makeSchedule()
    const m = new PlanMemory()
    const a = makeAlert()
    m.plan(fired(a, T0), s, T0)
    const gone: NotificationEvent = {
      kind: 'resolved',
      alert: resolvedOf(a, T0 + MIN, 'disabled'),
      at: T0 + MIN,
    }
    expect(m.plan(gone, s, T0 + MIN).map((r) => [r.status, r.reason])).toEqual([
      ['suppressed', 'disabled'],
      ['suppressed', 'disabled'],
    ])
  })

  it('sends a recovery only to the destinations that got the fire', () => {
    const s = makeSchedule()
    const m = new PlanMemory()
    const a = makeAlert()
    m.plan(fired(a, T0), s, T0, [EMAIL])
    expect(m.plan(resolved(a, T0 + MIN), s, T0 + MIN).map((r) => r.destination.id)).toEqual([
      'email',
    ])
  })
})

describe('quiet hours in the plan', () => {
  // Monday 22:00-08:00 UTC, every day; the fixture's T0 is Monday 12:00 UTC.
  const NIGHT = Date.UTC(2024, 0, 15, 23, 0)
  const MORNING = Date.UTC(2024, 0, 16, 8, 0)
  const quiet = (patch: (s: ReturnType<typeof makeSchedule>) => void = () => {}) =>
    makeSchedule((s) => {
      s.quietHours.enabled = true
      s.grouping = { enabled: true, window: 300, byNode: true, byGuest: false }
      patch(s)
    })

  it('holds a warning until the window ends, in the one quiet-hours group', () => {
    const rows = new PlanMemory().plan(fired(makeAlert(), NIGHT), quiet(), NIGHT)
    expect(rows.map((r) => [r.status, r.reason, r.groupKey, r.dueAt])).toEqual([
      ['pending', 'quiet-hours', QUIET_GROUP, MORNING],
      ['pending', 'quiet-hours', QUIET_GROUP, MORNING],
    ])
  })

  it('pages a critical alert at 03:00 by default; only warnings wait (issue 24 item 12)', () => {
    const THREE = Date.UTC(2024, 0, 16, 3, 0)
    const s = quiet()
    const m = new PlanMemory()
    const down = makeAlert({ id: 'node-offline-lab-pve1', type: 'offline', level: 'critical' })
    expect(m.plan(fired(down, THREE), s, THREE)[0]).toMatchObject({
      status: 'pending',
      reason: 'grouped',
      groupKey: 'node:lab/pve1',
      dueAt: THREE + 300_000,
    })
    // Its recovery goes out too: the level decides, as for the fire.
    expect(m.plan(resolved(down, THREE + 10 * MIN), s, THREE + 10 * MIN)[0]).not.toMatchObject({
      reason: 'quiet-hours',
    })
    const warn = makeAlert({ id: 'lab-pve1-102-powered-off', type: 'powered-off' })
    expect(m.plan(fired(warn, THREE), s, THREE)[0]).toMatchObject({
      reason: 'quiet-hours',
      dueAt: MORNING,
    })
  })

  it('holds the critical alerts of a category whose flag is set, as the reference does', () => {
    const s = quiet((x) => {
      x.quietHours.suppress = { performance: true, storage: false, offline: false }
    })
    const m = new PlanMemory()
    const hot = makeAlert({ level: 'critical' })
    expect(m.plan(fired(hot, NIGHT), s, NIGHT)[0]).toMatchObject({
      reason: 'quiet-hours',
      dueAt: MORNING,
    })
    const full = makeAlert({ id: 'lab-pve1-local-usage', type: 'usage', level: 'critical' })
    expect(m.plan(fired(full, NIGHT), s, NIGHT)[0]).toMatchObject({ reason: 'grouped' })
    const down = makeAlert({
      id: 'lab-pve1-101-powered-off',
      type: 'powered-off',
      level: 'critical',
    })
    expect(m.plan(fired(down, NIGHT), s, NIGHT)[0]).toMatchObject({ reason: 'grouped' })
  })

  it('sends at once when a hand-edited time or zone is invalid, instead of throwing (item 18)', () => {
    for (const patch of [
      (x: AlertSchedule) => (x.quietHours.timezone = 'Mars/Olympus_Mons'),
      (x: AlertSchedule) => (x.quietHours.start = '25:00'),
      (x: AlertSchedule) => (x.quietHours.end = 'eight'),
    ]) {
      const rows = new PlanMemory().plan(fired(makeAlert(), NIGHT), quiet(patch), NIGHT)
      expect(rows.map((r) => [r.status, r.reason])).toEqual([
        ['pending', 'grouped'],
        ['pending', 'grouped'],
      ])
    }
  })

  it('holds recoveries too and releases everything held as one summary per destination', () => {
    const s = quiet()
    const m = new PlanMemory()
    const day = [1, 2, 3].map((i) =>
      makeAlert({ id: `lab-pve1-10${i}-cpu`, resourceId: `lab-pve1-10${i}` }),
    )
    for (const a of day) m.plan(fired(a, T0), s, T0)
    const rows: PlannedDelivery[] = []
    for (const a of day) rows.push(...m.plan(resolved(a, NIGHT), s, NIGHT))
    const down = makeAlert({ id: 'lab-pve1-104-powered-off', type: 'powered-off', node: 'pve1' })
    rows.push(...m.plan(fired(down, NIGHT + 30 * MIN), s, NIGHT + 30 * MIN))
    expect(rows.every((r) => r.status === 'pending' && r.reason === 'quiet-hours')).toBe(true)
    // The outbox sends rows of one destination with the same group and due time as one message.
    const messages = new Map<string, PlannedDelivery[]>()
    for (const r of rows) {
      const k = `${r.destination.id} ${r.groupKey} ${r.dueAt}`
      messages.set(k, [...(messages.get(k) ?? []), r])
    }
    expect([...messages.keys()]).toEqual([
      `email ${QUIET_GROUP} ${MORNING}`,
      `wh-1 ${QUIET_GROUP} ${MORNING}`,
    ])
    const batch = buildBatch(
      messages.get(`email ${QUIET_GROUP} ${MORNING}`)!.map((r) => r.event),
      'k',
      s,
      MORNING,
      'quiet-hours',
    )
    expect(batch.summary).toEqual({
      reason: 'quiet-hours',
      text: '1 alert on pve1: 1 powered-off; 3 resolved',
      count: 4,
    })
  })
})
