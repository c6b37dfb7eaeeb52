// One dispatch's planning on a real SQLite file (dispatcher.ts enqueueEvents): the policy's memory is
// read once per dispatch and kept current with the rows the dispatch plans, so it must answer as the
// rows would: an earlier event of the same dispatch counts for cooldown and for "was its fire
// sent?", an open group is joined across dispatches, a replanned event adds nothing. And a storm
// summary marks the rows it replaced.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createDefaultAlertConfig } from '../../../../src/server/alerts/config-defaults.ts'
import { enqueueEvents } from '../../../../src/server/notify/dispatcher.ts'
import { createOutbox } from '../../../../src/server/notify/outbox.ts'
import { openDatabase, type Db } from '../../../../src/server/store/db.ts'
import { createOutboxLog } from '../../../../src/server/store/outbox-log.ts'
import { createOutboxRepo, type OutboxRepo } from '../../../../src/server/store/outbox-repo.ts'
import type { AlertSchedule } from '../../../../src/shared/model/alerts.ts'
import type { NotificationEvent } from '../../../../src/shared/model/notifications.ts'
import { makeTempDir } from '../temp-dir.ts'
import { fired, hook, makeAlert, T0, testChannel } from './notify-fixture.ts'
import { createReceiver } from './notify-fixture.ts'

const MIN = 60_000
let temp: ReturnType<typeof makeTempDir>
let db: Db
let repo: OutboxRepo
beforeEach(() => {
  temp = makeTempDir()
  db = openDatabase(temp.dir)
  repo = createOutboxRepo(db)
})
afterEach(() => {
  db.close()
  temp.cleanup()
})

const A = hook('a')
const B = hook('b')
const log = () =>
  createOutboxLog(db)
    .query({}, { limit: 500, offset: 0 })
    .rows.sort((x, y) => x.id - y.id)

function schedule(patch: (s: AlertSchedule) => void = () => {}): AlertSchedule {
  const s = createDefaultAlertConfig().schedule
  s.grouping.enabled = false
  s.storm.enabled = false
  patch(s)
  return s
}

/** A new occurrence of alert `n` (another start time), fired at `at`. */
const refired = (n: number, at: number): NotificationEvent => ({
  kind: 'fired',
  alert: makeAlert(n, { startTime: new Date(at).toISOString() }),
  at,
})

describe('enqueueEvents', () => {
  it('sees the earlier rows of its own dispatch: a fire beyond max per hour is held back', () => {
    const s = schedule((x) => (x.maxAlertsHour = 1))
    const n = enqueueEvents(repo, [fired(1), refired(1, T0 + 1000)], s, [A, B], T0 + 1000)
    expect(n).toBe(4)
    expect(log().map((r) => [r.destination.id, r.status, r.reason ?? null])).toEqual([
      ['a', 'pending', null],
      ['b', 'pending', null],
      ['a', 'suppressed', 'max-per-hour'],
      ['b', 'suppressed', 'max-per-hour'],
    ])
    // A later dispatch reads the same from the stored rows.
    enqueueEvents(repo, [refired(1, T0 + 2000)], s, [A], T0 + 2000)
    expect(log().at(-1)).toMatchObject({ status: 'suppressed', reason: 'max-per-hour' })
    enqueueEvents(repo, [refired(1, T0 + 61 * MIN)], s, [A], T0 + 61 * MIN)
    expect(log().at(-1)).toMatchObject({ status: 'pending' })
  })

  it('sends a new occurrence inside the cooldown, and its recovery (issue 24 item 13)', () => {
    const s = schedule((x) => {
      x.cooldown = 30
      x.maxAlertsHour = 10
    })
    const first = fired(1)
    enqueueEvents(repo, [first], s, [A], T0)
    const recovery = (e: NotificationEvent, at: number): NotificationEvent => ({
      kind: 'resolved',
      alert: { ...e.alert, resolvedTime: new Date(at).toISOString(), endReason: 'resolved' },
      at,
    })
    enqueueEvents(repo, [recovery(first, T0 + MIN)], s, [A], T0 + MIN)
    const again = refired(1, T0 + 12 * MIN)
    enqueueEvents(repo, [again], s, [A], T0 + 12 * MIN)
    enqueueEvents(repo, [recovery(again, T0 + 14 * MIN)], s, [A], T0 + 14 * MIN)
    expect(log().map((r) => [r.eventKinds.join(), r.status, r.reason ?? null])).toEqual([
      ['fired', 'pending', null],
      ['resolved', 'pending', null],
      ['fired', 'pending', null],
      ['resolved', 'pending', null],
    ])
  })

  it('plans a recovery in the same dispatch as its fire, and only to where the fire went', () => {
    const s = schedule()
    const fire = fired(2)
    const recovery: NotificationEvent = {
      kind: 'resolved',
      alert: {
        ...fire.alert,
        resolvedTime: new Date(T0 + 500).toISOString(),
        endReason: 'resolved',
      },
      at: T0 + 500,
    }
    enqueueEvents(repo, [fire], s, [A], T0)
    // B was added after the fire: it never heard of the alert, so it gets no recovery.
    expect(enqueueEvents(repo, [recovery], s, [A, B], T0 + 500)).toBe(1)
    const other = fired(3)
    const otherRecovery: NotificationEvent = {
      kind: 'resolved',
      alert: {
        ...other.alert,
        resolvedTime: new Date(T0 + 600).toISOString(),
        endReason: 'resolved',
      },
      at: T0 + 600,
    }
    expect(enqueueEvents(repo, [other, otherRecovery], s, [A, B], T0 + 600)).toBe(4)
    expect(log().map((r) => [r.alertIds[0], r.eventKinds[0], r.destination.id])).toEqual([
      [fire.alert.id, 'fired', 'a'],
      [fire.alert.id, 'resolved', 'a'],
      [other.alert.id, 'fired', 'a'],
      [other.alert.id, 'fired', 'b'],
      [other.alert.id, 'resolved', 'a'],
      [other.alert.id, 'resolved', 'b'],
    ])
  })

  it('joins the open group of a destination across dispatches, and opens one per group key', () => {
    const s = schedule((x) => {
      x.grouping = { enabled: true, window: 120, byNode: true, byGuest: false }
      x.groupingWindow = 120
    })
    // makeAlert(n) is on node pve<n % 3>: 1 and 4 share pve1, 2 is on pve2.
    enqueueEvents(repo, [fired(1)], s, [A], T0)
    enqueueEvents(repo, [fired(4, T0 + 30_000), fired(2, T0 + 30_000)], s, [A], T0 + 30_000)
    expect(log().map((r) => [r.alertIds[0], r.dueAt, r.reason])).toEqual([
      [fired(1).alert.id, T0 + 120_000, 'grouped'],
      [fired(4).alert.id, T0 + 120_000, 'grouped'],
      [fired(2).alert.id, T0 + 30_000 + 120_000, 'grouped'],
    ])
    // Claimed, the group is closed: the next fire on pve1 opens a new one.
    repo.claimDue(T0 + 120_000)
    enqueueEvents(repo, [fired(7, T0 + 121_000)], s, [A], T0 + 121_000)
    expect(log().at(-1)).toMatchObject({ dueAt: T0 + 121_000 + 120_000 })
  })

  it('adds nothing when the same events are planned again (a restart replaying them)', () => {
    const s = schedule()
    const events = [fired(1), fired(2)]
    expect(enqueueEvents(repo, events, s, [A, B], T0)).toBe(4)
    expect(enqueueEvents(repo, events, s, [A, B], T0 + 10)).toBe(0)
    expect(log()).toHaveLength(4)
  })

  it('marks the rows a storm summary replaced with the reason storm', async () => {
    const s = schedule((x) => {
      x.grouping = { ...x.grouping, enabled: true, byNode: false, byGuest: false }
      x.storm = { enabled: true, threshold: 3 }
    })
    const receiver = createReceiver()
    const url = await receiver.listen()
    try {
      const events = [1, 2, 3, 4].map((n) => fired(n))
      enqueueEvents(repo, events, s, [A], T0)
      const { webhookTo } = await import('./notify-fixture.ts')
      const sender = createOutbox({
        repo,
        channels: { webhook: testChannel, email: testChannel },
        destinations: () => [webhookTo('a', url)],
        schedule: () => s,
        now: () => T0 + s.groupingWindow * 1000,
        log: { error: () => {} },
      })
      await sender.drain()
      expect(receiver.received).toHaveLength(1)
      expect(receiver.received[0]!.batch.summary).toMatchObject({ reason: 'storm', count: 4 })
      expect(log().map((r) => [r.status, r.reason, r.title])).toEqual(
        Array(4).fill(['sent', 'storm', '4 alerts on 3 nodes: 4 cpu']),
      )
    } finally {
      await receiver.close()
    }
  })
})
