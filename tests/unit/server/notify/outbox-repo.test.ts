// The outbox on a real SQLite file: idempotent inserts, the policy's memory, batches claimed per
// (destination, group, due time) with a stable key, the backoff schedule, dead letters, the log.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openDatabase, type Db } from '../../../../src/server/store/db.ts'
import { createOutboxLog } from '../../../../src/server/store/outbox-log.ts'
import {
  backoffMs,
  createOutboxRepo,
  MAX_ATTEMPTS,
  RETENTION_MS,
  type OutboxRepo,
} from '../../../../src/server/store/outbox-repo.ts'
import { makeTempDir } from '../temp-dir.ts'
import { fired, hook, makeAlert, planned, T0 } from './notify-fixture.ts'

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

describe('outbox repo', () => {
  it('ignores a planned row whose idempotency key is stored (a re-enqueue after a crash)', () => {
    const row = planned(fired(1), A)
    expect(repo.insert([row], T0)).toBe(1)
    expect(repo.insert([row, planned(fired(2), A)], T0 + 5)).toBe(1)
    // Reopening the file (a restart) keeps them.
    db.close()
    db = openDatabase(temp.dir)
    repo = createOutboxRepo(db)
    expect(repo.insert([row], T0 + 10)).toBe(0)
    expect(repo.claimDue(T0)[0]!.rows).toHaveLength(2)
  })

  it('answers the policy memory from the rows: sent or due counts, dead and suppressed do not', () => {
    const e = fired(1)
    const id = e.alert.id
    expect(repo.lastNotified(id, e.alert.startTime, 'a')).toBeUndefined()
    expect(repo.firedWasNotified(id, e.alert.startTime, 'a')).toBe(false)
    repo.insert([planned(e, A, { dueAt: T0 + 30_000 })], T0)
    expect(repo.lastNotified(id, e.alert.startTime, 'a')).toBe(T0 + 30_000)
    expect(repo.firedWasNotified(id, e.alert.startTime, 'a')).toBe(true)
    expect(repo.firedWasNotified(id, e.alert.startTime, 'b')).toBe(false)
    expect(repo.firedWasNotified(id, new Date(T0 + 1).toISOString(), 'a')).toBe(false)
    // Another occurrence of the same alert has no notification yet (cooldown is per occurrence).
    expect(repo.lastNotified(id, new Date(T0 + 1).toISOString(), 'a')).toBeUndefined()
    expect(repo.countSince(id, 'a', T0)).toBe(1)
    expect(repo.countSince(id, 'a', T0 + 30_001)).toBe(0)

    const [batch] = repo.claimDue(T0 + 30_000)
    repo.markSent(
      batch!.rows.map((r) => r.id),
      T0 + 31_000,
    )
    expect(repo.lastNotified(id, e.alert.startTime, 'a')).toBe(T0 + 31_000)

    // A suppressed row (cooldown) and a dead letter never reached anyone.
    const resolved = { kind: 'resolved' as const, alert: e.alert, at: T0 + 40_000 }
    repo.insert([planned(resolved, B, { status: 'suppressed', reason: 'cooldown' })], T0)
    expect(repo.lastNotified(id, e.alert.startTime, 'b')).toBeUndefined()
    expect(repo.countSince(id, 'b', 0)).toBe(0)
  })

  it('knows open groups until they are due (and so may be claimed)', () => {
    repo.insert(
      [
        planned(fired(1), A, { groupKey: 'pve1', dueAt: T0 + 300_000 }),
        planned(fired(2), A, { groupKey: 'pve1', dueAt: T0 + 300_000 }),
        planned(fired(3), B, { groupKey: 'pve2', dueAt: T0 + 60_000 }),
        // Due now (grouping off): never open.
        planned(fired(4), A, { groupKey: 'x', dueAt: T0 }),
      ],
      T0,
    )
    const open = (now: number) =>
      repo
        .openGroups(now)
        .map((g) => [g.destinationId, g.groupKey, g.due])
        .sort()
    expect(open(T0)).toEqual([
      ['a', 'pve1', T0 + 300_000],
      ['b', 'pve2', T0 + 60_000],
    ])
    expect(open(T0 + 60_000)).toEqual([['a', 'pve1', T0 + 300_000]])
    expect(repo.claimDue(T0 + 299_999).map((b) => b.groupKey)).toEqual(['pve2', 'x'])
    expect(repo.claimDue(T0 + 300_000)).toHaveLength(3)
    // Due: a later row never joins a message that may be on its way.
    expect(open(T0 + 300_000)).toEqual([])
  })

  it('claims one batch per destination, group key and due time, with a stable key', () => {
    repo.insert(
      [
        planned(fired(1), A, { groupKey: 'pve1' }),
        planned(fired(2), A, { groupKey: 'pve1' }),
        planned(fired(3), A, { groupKey: 'pve2' }),
        planned(fired(1), B, { groupKey: 'pve1' }),
        planned(fired(4), A, { groupKey: 'pve1', dueAt: T0 + 1 }),
        planned(fired(5), A, { groupKey: 'pve1', dueAt: T0 + 60_000 }),
      ],
      T0,
    )
    const batches = repo.claimDue(T0 + 1)
    expect(batches.map((b) => [b.destination.id, b.groupKey, b.dueAt, b.rows.length])).toEqual([
      ['a', 'pve1', T0, 2],
      ['a', 'pve2', T0, 1],
      ['b', 'pve1', T0, 1],
      ['a', 'pve1', T0 + 1, 1],
    ])
    // The batch key stands for destination, group and due time: the same on the next claim and
    // after a reopen (a restart).
    expect(batches[0]!.batchKey).toMatch(/^[0-9a-f]{32}$/)
    db.close()
    db = openDatabase(temp.dir)
    repo = createOutboxRepo(db)
    const again = repo.claimDue(T0 + 1)
    expect(again.map((b) => b.batchKey)).toEqual(batches.map((b) => b.batchKey))
    expect(new Set(batches.map((b) => b.batchKey)).size).toBe(4)
    // A destination with a send in flight is left out, and keeps its keys for later.
    const notA = repo.claimDue(T0 + 1, ['a'])
    expect(notA.map((b) => [b.destination.id, b.batchKey])).toEqual([['b', batches[2]!.batchKey]])
  })

  it('backs off 1 s doubling, capped at 60 s', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => backoffMs(n))).toEqual([
      1000, 2000, 4000, 8000, 16_000, 32_000, 60_000, 60_000, 60_000,
    ])
    expect(backoffMs(2, 5000)).toBe(10_000)
  })

  it('retries a failed batch after the backoff and dead-letters it after the last attempt', () => {
    repo.insert([planned(fired(1), A), planned(fired(2), A)], T0)
    let now = T0
    const statuses: string[] = []
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const batches = repo.claimDue(now)
      expect(batches).toHaveLength(1)
      expect(batches[0]!.rows.map((r) => r.attempts)).toEqual([attempt - 1, attempt - 1])
      const ids = batches[0]!.rows.map((r) => r.id)
      statuses.push(
        repo.markFailed(ids, {
          error: 'HTTP 500: broken',
          retryable: true,
          now,
          maxAttempts: MAX_ATTEMPTS,
        }),
      )
      // Not due again before its backoff.
      expect(repo.claimDue(now + backoffMs(attempt) - 1)).toEqual([])
      now += backoffMs(attempt)
    }
    expect(statuses).toEqual([...Array<string>(MAX_ATTEMPTS - 1).fill('failed'), 'dead'])
    expect(repo.claimDue(now + 3_600_000)).toEqual([])
    const { rows, total } = createOutboxLog(db).query({ status: 'dead' }, { limit: 10, offset: 0 })
    expect(total).toBe(2)
    expect(rows[0]).toMatchObject({ attempts: 8, lastError: 'HTTP 500: broken', status: 'dead' })
  })

  it('dead-letters at once on a failure that is not retryable, or at a lower limit', () => {
    repo.insert([planned(fired(1), A), planned(fired(2), B)], T0)
    const [a, b] = repo.claimDue(T0)
    expect(
      repo.markFailed([a!.rows[0]!.id], { error: 'no', retryable: false, now: T0, maxAttempts: 8 }),
    ).toBe('dead')
    expect(
      repo.markFailed([b!.rows[0]!.id], { error: 'no', retryable: true, now: T0, maxAttempts: 2 }),
    ).toBe('failed')
    const [b2] = repo.claimDue(T0 + 1000)
    expect(
      repo.markFailed([b2!.rows[0]!.id], { error: 'no', retryable: true, now: T0, maxAttempts: 2 }),
    ).toBe('dead')
  })

  it('lists deliveries newest first with filters, paging and the total', () => {
    repo.insert([planned(fired(1), A), planned(fired(2), A), planned(fired(3), B)], T0)
    repo.insert([planned(fired(4), B, { status: 'suppressed', reason: 'quiet-hours' })], T0)
    const log = createOutboxLog(db)
    const all = log.query({}, { limit: 2, offset: 0 })
    expect(all.total).toBe(4)
    expect(all.rows.map((r) => r.alertIds[0])).toEqual([makeAlert(4).id, makeAlert(3).id])
    expect(log.query({}, { limit: 10, offset: 3 }).rows).toHaveLength(1)
    expect(log.query({ destination: 'b' }, { limit: 10, offset: 0 }).total).toBe(2)
    const held = log.query({ status: 'suppressed' }, { limit: 10, offset: 0 })
    expect(held.rows).toEqual([
      expect.objectContaining({
        destination: { kind: 'webhook', id: 'b', name: 'hook b' },
        eventKinds: ['fired'],
        reason: 'quiet-hours',
        attempts: 0,
        title: `Alert: ${makeAlert(4).message}`,
      }),
    ])
  })

  it('prunes final rows past the retention, never rows still to send', () => {
    repo.insert([planned(fired(1), A), planned(fired(2), A)], T0)
    const [batch] = repo.claimDue(T0)
    repo.markSent([batch!.rows[0]!.id], T0)
    expect(repo.prune(T0 + RETENTION_MS + 1)).toBe(1)
    expect(repo.claimDue(T0 + RETENTION_MS + 1)[0]!.rows).toHaveLength(1)
  })
})
