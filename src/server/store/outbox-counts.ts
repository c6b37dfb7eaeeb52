// Counts of the notification outbox for /metrics: rows still to send and dead letters kept. Both
// are read from partial indexes (notification_outbox_due, notification_outbox_dead), so a scrape
// never reads the rows themselves, whose event JSON makes a full scan cost ~90 ms at the row cap.
import type { DestinationKind } from '../../shared/model/notifications.ts'
import type { Db } from './db.ts'

export interface OutboxCounts {
  /** Rows pending or failed with attempts left (due now or later). */
  queued(): number
  /** Rows that used up their attempts (or failed for good), per destination kind present. */
  dead(): Array<{ kind: DestinationKind; count: number }>
}

/** Prepared count statements over the outbox table. */
export function createOutboxCounts(db: Db): OutboxCounts {
  const queued = db.prepare<[], { n: number }>(
    `SELECT COUNT(*) AS n FROM notification_outbox INDEXED BY notification_outbox_due
     WHERE status IN ('pending', 'failed')`,
  )
  const dead = db.prepare<[], { kind: DestinationKind; count: number }>(
    `SELECT destination_kind AS kind, COUNT(*) AS count
     FROM notification_outbox INDEXED BY notification_outbox_dead
     WHERE status = 'dead' GROUP BY destination_kind ORDER BY destination_kind`,
  )
  return {
    queued: () => queued.get()?.n ?? 0,
    dead: () => dead.all(),
  }
}
