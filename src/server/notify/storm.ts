// The storm path (issue 27, target 7): a dispatch of many events is committed on the loop as ONE
// inbox row (store/outbox-inbox.ts) and planned into outbox rows by a worker thread
// (storm-worker.ts), which also claims due rows for the sender. The loop pays for one
// JSON.stringify and one insert where it paid for tens of thousands of rows, and for receiving
// the claimed batches. An event is acknowledged once its inbox row is committed: a kill before
// the worker's last slice leaves the row, planned again on the next start (the outbox's unique
// keys turn the rows already written into no-ops).
import type { Worker } from 'node:worker_threads'
import { startTsWorker } from '../ts-worker.ts'
import type { AlertSchedule } from '../../shared/model/alerts.ts'
import type { NotificationEvent } from '../../shared/model/notifications.ts'
import type { Db } from '../store/db.ts'
import { createOutboxInbox } from '../store/outbox-inbox.ts'
import { decodeClaim } from '../store/outbox-claim.ts'
import type { ClaimedBatch } from '../store/outbox-repo.ts'
import type { PolicyDestination } from './types.ts'

/** A dispatch of at least this many events takes the storm path (smaller ones cost the loop little). */
export const STORM_EVENTS = 100
/** The sender claims a backlog of at least this many due rows in the worker. */
export const STORM_ROWS = 300

/** What an inbox row holds: the plan's inputs, fixed when the dispatch was accepted. */
export interface StagedDispatch {
  events: NotificationEvent[]
  schedule: AlertSchedule
  destinations: PolicyDestination[]
  now: number
}

type StormAsk = { op: 'plan'; id: number } | { op: 'claim'; now: number; busy: string[] }
export type StormRequest = StormAsk & { seq: number }
export type StormReply =
  { seq: number; ok: true; value: unknown } | { seq: number; ok: false; error: string }

export interface StormWriter {
  /** Commit the dispatch to the inbox (on the loop) and have the worker plan it. */
  enqueue(dispatch: StagedDispatch): Promise<number>
  /** Plan what a kill left in the inbox (on start). */
  resume(): Promise<number>
  /** Whether a dispatch is still being planned (later dispatches must queue behind it). */
  busy(): boolean
  /** Resolves when every dispatch handed over so far is planned (or failed). */
  settled(): Promise<void>
  claimDue(now: number, busy?: readonly string[]): Promise<ClaimedBatch[]>
  close(): Promise<void>
}

/** The storm writer of a database file; null for an in-memory database (no second connection). */
export function createStormWriter(db: Db): StormWriter | null {
  if (db.memory) return null
  const inbox = createOutboxInbox(db)
  let seq = 0
  const waiting = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>()
  const planning = new Set<Promise<unknown>>()
  const planned = new Set<number>()
  const failAll = (err: Error) => {
    for (const w of waiting.values()) w.reject(err)
    waiting.clear()
  }
  // Started at the first storm: a server that never meets one never starts the thread.
  let thread: Worker | null = null
  const worker = (): Worker => {
    if (thread) return thread
    const started = startTsWorker(new URL('./storm-worker.ts', import.meta.url), { file: db.name })
    started.unref()
    started.on('message', (reply: StormReply) => {
      const w = waiting.get(reply.seq)
      waiting.delete(reply.seq)
      if (reply.ok) w?.resolve(reply.value)
      else w?.reject(new Error(reply.error))
    })
    started.on('error', failAll)
    started.on('exit', () => {
      if (thread === started) thread = null
      failAll(new Error('the notification worker exited'))
    })
    return (thread = started)
  }

  const ask = <T>(request: StormAsk): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const s = ++seq
      waiting.set(s, { resolve: resolve as (v: unknown) => void, reject })
      worker().postMessage({ ...request, seq: s })
    })
  const plan = (id: number): Promise<number> => {
    planned.add(id)
    const p = ask<number>({ op: 'plan', id })
    // A failed plan leaves its inbox row: tried again by the next resume().
    const tracked = p.catch(() => planned.delete(id)).finally(() => planning.delete(tracked))
    planning.add(tracked)
    return p
  }

  return {
    enqueue: (dispatch) => plan(inbox.stage(JSON.stringify(dispatch), dispatch.now)),
    async resume() {
      const ids = inbox.pending().filter((item) => !planned.has(item.id))
      const counts = await Promise.all(ids.map((item) => plan(item.id)))
      return counts.reduce((a, b) => a + b, 0)
    },
    busy: () => planning.size > 0,
    async settled() {
      while (planning.size > 0) await Promise.all(planning)
    },
    // As text: a storm's claim received as objects cost the loop three times as much.
    claimDue: async (now, busy = []) =>
      decodeClaim(await ask<string>({ op: 'claim', now, busy: [...busy] })),
    async close() {
      const t = thread
      thread = null
      await t?.terminate()
    },
  }
}
