// The notification inbox (issue 27): a dispatch too large to plan on the event loop is committed
// here as ONE row before it is acknowledged, then planned into outbox rows by a worker thread
// (notify/storm.ts), which deletes the row in the transaction of the last outbox rows it writes.
// One row of a few MB costs the loop a few ms where 30,000 outbox rows cost it most of a second.
import type { Db } from './db.ts'

/** One staged dispatch: its JSON (notify/storm.ts StagedDispatch) and its row id. */
export interface InboxItem {
  id: number
  json: string
}

export interface OutboxInbox {
  /** Commit one dispatch; returns its id. */
  stage(json: string, now: number): number
  /** The dispatches still to plan, oldest first (after a kill, on start). */
  pending(): InboxItem[]
  /** One staged dispatch, if it is still there. */
  get(id: number): InboxItem | undefined
  /** Inside the transaction that wrote its last outbox rows. */
  remove(id: number): void
}

export function createOutboxInbox(db: Db): OutboxInbox {
  const insert = db.prepare<[string, number]>(
    'INSERT INTO notification_inbox (json, created_at) VALUES (?, ?)',
  )
  const all = db.prepare<[], InboxItem>('SELECT id, json FROM notification_inbox ORDER BY id')
  const one = db.prepare<[number], InboxItem>(
    'SELECT id, json FROM notification_inbox WHERE id = ?',
  )
  const remove = db.prepare<[number]>('DELETE FROM notification_inbox WHERE id = ?')
  return {
    stage: (json, now) => Number(insert.run(json, now).lastInsertRowid),
    pending: () => all.all(),
    get: (id) => one.get(id),
    remove: (id) => {
      remove.run(id)
    },
  }
}
