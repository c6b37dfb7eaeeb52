// The storm path (issue 27, target 7) on real SQLite files and a real worker thread: a dispatch
// staged as one inbox row and planned by the worker in slices writes exactly the outbox rows the
// loop's one-transaction planning writes, on random sequences of fires, recoveries and
// escalations under random schedules; the worker's claim is the loop's claim; a dispatch
// committed to the inbox but not planned (a kill in between) is planned on the next start; and
// the sender delivers a storm it claimed in the worker.
import { afterEach, describe, expect, it } from 'vitest'
import { createDefaultAlertConfig } from '../../../../src/server/alerts/config-defaults.ts'
import type { AlertTransition } from '../../../../src/server/notify/dispatcher.ts'
import { enqueueEvents } from '../../../../src/server/notify/enqueue.ts'
import { createNotifyService, type NotifyService } from '../../../../src/server/notify/service.ts'
import { createStormWriter, type StormWriter } from '../../../../src/server/notify/storm.ts'
import { openDatabase, type Db } from '../../../../src/server/store/db.ts'
import { createOutboxInbox } from '../../../../src/server/store/outbox-inbox.ts'
import { createOutboxRepo } from '../../../../src/server/store/outbox-repo.ts'
import type { AlertConfig, AlertSchedule } from '../../../../src/shared/model/alerts.ts'
import type { NotificationEvent } from '../../../../src/shared/model/notifications.ts'
import { makeTempDir } from '../temp-dir.ts'
import { createReceiver, hook, makeAlert, T0, testChannel, webhookTo } from './notify-fixture.ts'

const MIN = 60_000
const cleanups: (() => unknown)[] = []
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c()
})

function tempDb(): Db {
  const temp = makeTempDir()
  const db = openDatabase(temp.dir)
  cleanups.push(
    () => temp.cleanup(),
    () => db.close(),
  )
  return db
}

function stormOf(db: Db): StormWriter {
  const storm = createStormWriter(db)!
  cleanups.push(() => storm.close())
  return storm
}

/** A small deterministic generator (mulberry32): the same seed, the same sequence. */
function random(seed: number): () => number {
  let a = seed
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

function randomSchedule(rnd: () => number): AlertSchedule {
  const s = createDefaultAlertConfig().schedule
  s.cooldown = [0, 5, 30][Math.floor(rnd() * 3)]!
  s.maxAlertsHour = 1 + Math.floor(rnd() * 4)
  s.grouping.enabled = rnd() < 0.6
  s.grouping.byNode = rnd() < 0.5
  s.grouping.byGuest = rnd() < 0.3
  s.groupingWindow = 60 + Math.floor(rnd() * 600)
  return s
}

/**
 * Dispatches of a pool of 150 alerts: fires (a new occurrence now and then), recoveries and
 * escalations, several events of one alert in one dispatch, so a later slice depends on an
 * earlier one (max per hour, "was its fire sent?", an open group).
 */
function randomDispatches(rnd: () => number, count: number): NotificationEvent[][] {
  const starts = new Map<number, number>()
  const out: NotificationEvent[][] = []
  for (let d = 0; d < count; d++) {
    const at = T0 + d * 7 * MIN
    const events: NotificationEvent[] = []
    const size = 300 + Math.floor(rnd() * 400)
    for (let i = 0; i < size; i++) {
      const n = Math.floor(rnd() * 150)
      const r = rnd()
      if (r < 0.15 || !starts.has(n)) starts.set(n, at - Math.floor(rnd() * 5) * MIN)
      const alert = makeAlert(n, { startTime: new Date(starts.get(n)!).toISOString() })
      if (r < 0.6) events.push({ kind: 'fired', alert, at })
      else if (r < 0.85)
        events.push({
          kind: 'resolved',
          alert: { ...alert, endTime: new Date(at).toISOString() },
          at,
        } as NotificationEvent)
      else events.push({ kind: 'escalation', alert, at, level: 1 + Math.floor(rnd() * 2) })
    }
    out.push(events)
  }
  return out
}

/** Every outbox row but its id, in insertion order. */
const rowsOf = (db: Db) =>
  (db.prepare('SELECT * FROM notification_outbox ORDER BY id').all() as OutboxRowData[]).map(
    (row) => ({ ...row, id: undefined }),
  )

interface OutboxRowData {
  id: number | undefined
  idempotency_key: string
  status: string
}

const DESTINATIONS = [hook('a'), hook('b'), { kind: 'email' as const, id: 'email', name: 'Email' }]

describe('the storm path', () => {
  it('writes the rows the loop would write, in slices, and empties the inbox', async () => {
    for (const seed of [1, 2, 3]) {
      const rnd = random(seed)
      const schedule = randomSchedule(rnd)
      const dispatches = randomDispatches(rnd, 3)
      const onLoop = tempDb()
      const viaWorker = tempDb()
      const storm = stormOf(viaWorker)
      const loopRepo = createOutboxRepo(onLoop)
      let i = 0
      for (const events of dispatches) {
        const now = T0 + i++ * 7 * MIN
        const expected = enqueueEvents(loopRepo, events, schedule, DESTINATIONS, now)
        const got = await storm.enqueue({ events, schedule, destinations: DESTINATIONS, now })
        expect(got).toBe(expected)
      }
      expect(rowsOf(viaWorker)).toEqual(rowsOf(onLoop))
      expect(createOutboxInbox(viaWorker).pending()).toEqual([])
      // The worker's claim is the loop's claim, batch for batch.
      const later = T0 + 60 * MIN
      expect(await storm.claimDue(later, ['b'])).toEqual(
        createOutboxRepo(viaWorker).claimDue(later, ['b']),
      )
    }
  })

  it('plans on start a dispatch a kill left in the inbox, once', async () => {
    const temp = makeTempDir()
    cleanups.push(() => temp.cleanup())
    const schedule = createDefaultAlertConfig().schedule
    schedule.grouping.enabled = false
    const events = Array.from({ length: 400 }, (_, n): NotificationEvent => ({
      kind: 'fired',
      alert: makeAlert(n),
      at: T0,
    }))
    // What a kill after the inbox commit leaves on disk: the row, some of its outbox rows.
    const before = openDatabase(temp.dir)
    const staged = { events, schedule, destinations: [hook('a')], now: T0 }
    createOutboxInbox(before).stage(JSON.stringify(staged), T0)
    enqueueEvents(createOutboxRepo(before), events.slice(0, 120), schedule, [hook('a')], T0)
    before.close()

    const db = openDatabase(temp.dir)
    cleanups.push(() => db.close())
    const service = serviceOn(db, schedule, 'http://127.0.0.1:9/unused')
    await service.dispatcher.settled()
    const rows = rowsOf(db)
    expect(rows).toHaveLength(400)
    expect(new Set(rows.map((r) => r.idempotency_key)).size).toBe(400)
    expect(rows.every((r) => r.status === 'pending')).toBe(true)
    expect(createOutboxInbox(db).pending()).toEqual([])
  })

  it('delivers a storm through the service: staged, planned and claimed in the worker', async () => {
    const receiver = createReceiver()
    cleanups.push(() => receiver.close())
    const url = await receiver.listen()
    const db = tempDb()
    const schedule = createDefaultAlertConfig().schedule
    schedule.grouping.enabled = true
    schedule.grouping.byNode = true
    schedule.grouping.byGuest = false
    const { service, emit } = serviceWithSource(db, schedule, url)
    for (let n = 0; n < 450; n++) emit({ kind: 'fired', alert: makeAlert(n), at: T0 })
    await service.dispatcher.settled()
    expect(rowsOf(db)).toHaveLength(450)
    clock.t = T0 + schedule.groupingWindow * 1000
    // One batch per node group (3), sent one after another per destination.
    for (let i = 0; i < 3; i++) await service.outbox.drain()
    const arrived = receiver.received.flatMap((r) => r.batch.events.map((e) => e.alert.id))
    expect(arrived.sort()).toEqual(Array.from({ length: 450 }, (_, n) => makeAlert(n).id).sort())
    const statuses = new Set(rowsOf(db).map((r) => r.status))
    expect([...statuses]).toEqual(['sent'])
  })
})

const clock = { t: T0 }

function serviceWithSource(
  db: Db,
  schedule: AlertSchedule,
  url: string,
): { service: NotifyService; emit: (t: AlertTransition) => void } {
  const config = { ...createDefaultAlertConfig(), schedule } as AlertConfig
  const listeners: ((t: AlertTransition) => void)[] = []
  clock.t = T0
  // A stand-in for the alert service: only its three methods are read.
  const service = createNotifyService({
    db,
    alerts: {
      onTransition: (listener) => {
        listeners.push(listener)
        return () => listeners.splice(listeners.indexOf(listener), 1)
      },
      active: () => [],
      config: () => config,
    },
    destinations: () => [webhookTo('a', url)],
    channels: { email: testChannel, webhook: testChannel },
    now: () => clock.t,
    log: { error: () => {}, warn: () => {} },
  })
  cleanups.push(async () => {
    await service.stop()
    await service.close()
  })
  return { service, emit: (t) => listeners.forEach((l) => l(t)) }
}

function serviceOn(db: Db, schedule: AlertSchedule, url: string): NotifyService {
  return serviceWithSource(db, schedule, url).service
}
