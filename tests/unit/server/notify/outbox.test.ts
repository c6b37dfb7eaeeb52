// The sender against a real loopback HTTP receiver, on a real SQLite file, with a clock the test
// moves: retries on 500 then success under the same key, dead letter after the last attempt, a
// removed or disabled destination suppressed, one send in flight per destination, a slow
// destination not blocking the others. The channel is the test's (the webhook channel is another
// part's); the dispatcher path is covered through the real app.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { DEFAULT_ALERT_CONFIG } from '../../../../src/server/alerts/config-defaults.ts'
import {
  createOutbox,
  RATE_LIMIT_WAIT_MS,
  type Outbox,
} from '../../../../src/server/notify/outbox.ts'
import type { Channel, ResolvedDestination } from '../../../../src/server/notify/types.ts'
import { openDatabase, type Db } from '../../../../src/server/store/db.ts'
import { createOutboxLog } from '../../../../src/server/store/outbox-log.ts'
import {
  backoffMs,
  createOutboxRepo,
  MAX_ATTEMPTS,
  type OutboxRepo,
} from '../../../../src/server/store/outbox-repo.ts'
import { makeTempDir } from '../temp-dir.ts'
import {
  createReceiver,
  fired,
  hook,
  planned,
  T0,
  testChannel,
  webhookTo,
} from './notify-fixture.ts'

let temp: ReturnType<typeof makeTempDir>
let db: Db
let repo: OutboxRepo
let receiver: ReturnType<typeof createReceiver>
let url: string
const clock = { t: T0 }
let destinations: ResolvedDestination[] = []
const errors: string[] = []

beforeEach(async () => {
  temp = makeTempDir()
  db = openDatabase(temp.dir)
  repo = createOutboxRepo(db)
  receiver = createReceiver()
  url = await receiver.listen()
  clock.t = T0
  destinations = [webhookTo('a', url)]
  errors.length = 0
})
afterEach(async () => {
  await receiver.close()
  db.close()
  temp.cleanup()
})

function outbox(channel: Channel = testChannel): Outbox {
  return createOutbox({
    repo,
    channels: { webhook: channel, email: channel },
    destinations: () => destinations,
    schedule: () => DEFAULT_ALERT_CONFIG.schedule,
    now: () => clock.t,
    log: { error: (_obj, msg) => errors.push(msg) },
  })
}

const log = () => createOutboxLog(db).query({}, { limit: 100, offset: 0 }).rows

describe('outbox sender', () => {
  it('retries on 500 after the backoff, then marks the rows sent; the key never changes', async () => {
    receiver.setAnswer((n) => (n <= 2 ? 500 : 200))
    repo.insert([planned(fired(1), hook('a')), planned(fired(2), hook('a'))], T0)
    const sender = outbox()
    await sender.drain()
    expect(log().map((r) => [r.status, r.attempts, r.lastError])).toEqual([
      ['failed', 1, 'HTTP 500: broken'],
      ['failed', 1, 'HTTP 500: broken'],
    ])
    // Not due before its backoff: nothing is sent.
    clock.t += backoffMs(1) - 1
    await sender.drain()
    expect(receiver.received).toHaveLength(1)
    clock.t += 1
    await sender.drain()
    clock.t += backoffMs(2)
    await sender.drain()
    expect(receiver.received).toHaveLength(3)
    expect(new Set(receiver.received.map((r) => r.key)).size).toBe(1)
    expect(receiver.received[2]!.batch.events.map((e) => e.alert.id)).toEqual([
      fired(1).alert.id,
      fired(2).alert.id,
    ])
    expect(log().map((r) => [r.status, r.attempts, r.sentAt])).toEqual([
      ['sent', 3, clock.t],
      ['sent', 3, clock.t],
    ])
    await sender.drain()
    expect(receiver.received).toHaveLength(3)
  })

  it("waits out a channel's own rate limit without spending attempts, then sends", async () => {
    let limited = true
    const channel: Channel = {
      send: (batch, destination) =>
        limited
          ? Promise.resolve({ ok: false, error: 'Rate limit', retryable: true, deferred: true })
          : testChannel.send(batch, destination),
    }
    repo.insert([planned(fired(1), hook('a'))], T0)
    const sender = outbox(channel)
    for (let round = 0; round < MAX_ATTEMPTS + 2; round++) {
      await sender.drain()
      expect(log().map((r) => [r.status, r.attempts, r.reason])).toEqual([
        ['pending', 0, 'rate-limit'],
      ])
      clock.t += RATE_LIMIT_WAIT_MS
    }
    expect(receiver.received).toHaveLength(0)
    limited = false
    await sender.drain()
    expect(log().map((r) => [r.status, r.attempts])).toEqual([['sent', 1]])
    expect(receiver.received).toHaveLength(1)
  })

  it('dead-letters after the last attempt', async () => {
    receiver.setAnswer(() => 500)
    repo.insert([planned(fired(1), hook('a'))], T0)
    const sender = outbox()
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      await sender.drain()
      clock.t += backoffMs(attempt)
    }
    expect(receiver.received).toHaveLength(MAX_ATTEMPTS)
    expect(log()[0]).toMatchObject({ status: 'dead', attempts: MAX_ATTEMPTS })
    expect(errors).toEqual(['notification dead-lettered after its last attempt'])
    clock.t += 3_600_000
    await sender.drain()
    expect(receiver.received).toHaveLength(MAX_ATTEMPTS)
  })

  it('suppresses rows of a destination that was removed or disabled', async () => {
    repo.insert([planned(fired(1), hook('gone')), planned(fired(2), hook('off'))], T0)
    destinations = [webhookTo('a', url), webhookTo('off', url, false)]
    await outbox().drain()
    expect(receiver.received).toEqual([])
    expect(log().map((r) => [r.destination.id, r.status, r.reason])).toEqual([
      ['off', 'suppressed', 'disabled'],
      ['gone', 'suppressed', 'disabled'],
    ])
  })

  it('keeps one send in flight per destination; a slow one does not hold the others', async () => {
    destinations = [webhookTo('slow', url), webhookTo('a', url)]
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    const calls: string[] = []
    const gated: Channel = {
      async send(batch, destination) {
        calls.push(`${destination.id}:${batch.events[0]!.alert.id}`)
        if (destination.id === 'slow') await gate
        return testChannel.send(batch, destination)
      },
    }
    repo.insert(
      [
        planned(fired(1), hook('slow'), { groupKey: 'g1' }),
        planned(fired(2), hook('slow'), { groupKey: 'g2' }),
        planned(fired(3), hook('a')),
      ],
      T0,
    )
    const sender = outbox(gated)
    const first = sender.drain()
    // The fast destination's message arrives while the slow one still hangs.
    await receiver.until((r) => r.length === 1)
    expect(receiver.received[0]!.batch.events[0]!.alert.id).toBe(fired(3).alert.id)
    // A tick meanwhile starts nothing new for the busy destination.
    await sender.drain()
    expect(calls).toEqual([`slow:${fired(1).alert.id}`, `a:${fired(3).alert.id}`])
    release()
    await first
    await sender.drain()
    expect(calls.at(-1)).toBe(`slow:${fired(2).alert.id}`)
    expect(receiver.received.map((r) => r.batch.events[0]!.alert.id)).toEqual([
      fired(3).alert.id,
      fired(1).alert.id,
      fired(2).alert.id,
    ])
  })

  it('sends a burst to one destination in one drain, and stops the run at its first failure', async () => {
    const rows = [1, 2, 3, 4].map((n) => planned(fired(n), hook('a'), { groupKey: `g${n}` }))
    repo.insert(rows, T0)
    // The third message fails: the fourth is not tried with it (it would spend an attempt).
    receiver.setAnswer((n) => (n === 3 ? 500 : 200))
    const sender = outbox()
    await sender.drain()
    expect(receiver.received).toHaveLength(3)
    expect(log().map((r) => [r.alertIds[0], r.status, r.attempts])).toEqual(
      expect.arrayContaining([
        [fired(1).alert.id, 'sent', 1],
        [fired(2).alert.id, 'sent', 1],
        [fired(3).alert.id, 'failed', 1],
        [fired(4).alert.id, 'pending', 0],
      ]),
    )
    await sender.drain()
    expect(receiver.received.map((r) => r.batch.events[0]!.alert.id).at(-1)).toBe(fired(4).alert.id)
  })

  it('retries a channel that throws, and records its message', async () => {
    repo.insert([planned(fired(1), hook('a'))], T0)
    await outbox({ send: () => Promise.reject(new Error('socket hang up')) }).drain()
    expect(log()[0]).toMatchObject({ status: 'failed', lastError: 'socket hang up' })
  })
})
