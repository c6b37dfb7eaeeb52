// The sender's claim as one JSON text (issue 27, target 7). A storm's claim is read in a worker
// thread (notify/storm-worker.ts) and crosses to the loop: as objects, the structured clone of
// 30,000 rows and 10,000 events cost the loop ~115 ms to receive; as this text it costs one
// JSON.parse and the row objects (~35 ms). The events go in as the rows hold them (their stored
// JSON, each distinct one once), so the worker does not parse them either.
//
// Text: {"events":[<stored event JSON>,...],"batches":[{"destination":{kind,id,name},"groupKey",
// "dueAt","batchKey","rows":[[id, idempotencyKey, eventIndex, attempts, reason?],...]},...]}
import { createHash } from 'node:crypto'
import type { DestinationKind, NotSentReason } from '../../shared/model/notifications.ts'
import type { ClaimedBatch, OutboxDestination, OutboxRow } from './outbox-repo.ts'

/** A due row as read from SQLite. */
export interface DueRow {
  id: number
  idempotency_key: string
  destination_kind: DestinationKind
  destination_id: string
  destination_name: string
  group_key: string
  due_at: number
  event: string
  attempts: number
  reason: NotSentReason | null
}

type WireRow = [number, string, number, number] | [number, string, number, number, NotSentReason]

interface WireBatch {
  destination: OutboxDestination
  groupKey: string
  dueAt: number
  batchKey: string
  rows: WireRow[]
}

/** The batch key: 32 hex digits of a SHA-256 of what identifies the batch. */
function batchKeyOf(identity: string): string {
  return createHash('sha256').update(identity).digest('hex').slice(0, 32)
}

/**
 * Due rows (in id order) grouped into batches of one destination, group key and due time, as the
 * claim's text. An event's rows (one per destination) hold the same JSON: it is sent once.
 */
export function encodeClaim(rows: Iterable<DueRow>): string {
  const events: string[] = []
  const eventIndex = new Map<string, number>()
  const batches = new Map<string, WireBatch>()
  for (const row of rows) {
    let index = eventIndex.get(row.event)
    if (index === undefined) {
      index = events.push(row.event) - 1
      eventIndex.set(row.event, index)
    }
    const key = `${row.destination_kind}\u0000${row.destination_id}\u0000${row.group_key}\u0000${row.due_at}`
    let batch = batches.get(key)
    if (!batch) {
      batch = {
        destination: {
          kind: row.destination_kind,
          id: row.destination_id,
          name: row.destination_name,
        },
        groupKey: row.group_key,
        dueAt: row.due_at,
        batchKey: batchKeyOf(key),
        rows: [],
      }
      batches.set(key, batch)
    }
    const wire: WireRow = [row.id, row.idempotency_key, index, row.attempts]
    if (row.reason) wire.push(row.reason)
    batch.rows.push(wire)
  }
  return `{"events":[${events.join(',')}],"batches":${JSON.stringify([...batches.values()])}}`
}

/** The batches of a claim's text; throws when the text is not a claim (or an event is not JSON). */
export function decodeClaim(text: string): ClaimedBatch[] {
  const wire = JSON.parse(text) as { events: OutboxRow['event'][]; batches: WireBatch[] }
  if (!Array.isArray(wire.events) || !Array.isArray(wire.batches)) {
    throw new Error('a notification claim without events or batches')
  }
  const { events } = wire
  return wire.batches.map((batch) => ({
    destination: batch.destination,
    groupKey: batch.groupKey,
    dueAt: batch.dueAt,
    batchKey: batch.batchKey,
    rows: batch.rows.map(([id, idempotencyKey, index, attempts, reason]): OutboxRow => {
      const event = events[index]
      if (event === undefined) throw new Error(`a notification claim row without its event`)
      return reason
        ? { id, idempotencyKey, event, attempts, reason }
        : { id, idempotencyKey, event, attempts }
    }),
  }))
}
