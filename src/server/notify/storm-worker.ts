// Runs inside a worker thread (storm.ts starts it): the outbox's heavy SQLite work off the event
// loop. It plans staged dispatches (store/outbox-inbox.ts) into outbox rows, in slices with a
// pause between them so the loop's own writes get the write lock, and claims due rows for the
// sender. Its own connection to the same database file (WAL).
import { parentPort, workerData } from 'node:worker_threads'
import path from 'node:path'
import { openDatabase } from '../store/db.ts'
import { createOutboxInbox } from '../store/outbox-inbox.ts'
import { createOutboxRepo } from '../store/outbox-repo.ts'
import { enqueueEvents } from './enqueue.ts'
import type { StagedDispatch, StormReply, StormRequest } from './storm.ts'

/** Events per transaction: a few hundred rows, tens of ms of holding the write lock. */
export const SLICE_EVENTS = 250

const { file } = workerData as { file: string }
const db = openDatabase(path.dirname(file), path.basename(file))
const repo = createOutboxRepo(db)
const inbox = createOutboxInbox(db)
const pause = new Int32Array(new SharedArrayBuffer(4))

/** Sleep this thread (not the loop): the loop's writer waiting on the lock gets its turn. */
const yieldLock = (ms: number) => Atomics.wait(pause, 0, 0, Math.min(50, Math.max(5, ms)))

function plan(id: number): number {
  const item = inbox.get(id)
  if (!item) return 0
  const d = JSON.parse(item.json) as StagedDispatch
  let sliceStart = performance.now()
  const slicedRepo: typeof repo = {
    ...repo,
    transaction: (fn) => {
      const result = repo.transaction(fn)
      yieldLock(performance.now() - sliceStart)
      sliceStart = performance.now()
      return result
    },
  }
  return enqueueEvents(slicedRepo, d.events, d.schedule, d.destinations, d.now, {
    sliceEvents: SLICE_EVENTS,
    inLastTransaction: () => inbox.remove(id),
  })
}

parentPort!.on('message', (m: StormRequest) => {
  let reply: StormReply
  try {
    reply =
      m.op === 'plan'
        ? { seq: m.seq, ok: true, value: plan(m.id) }
        : { seq: m.seq, ok: true, value: repo.claimDueText(m.now, m.busy) }
  } catch (err) {
    reply = { seq: m.seq, ok: false, error: err instanceof Error ? err.message : String(err) }
  }
  parentPort!.postMessage(reply)
})
