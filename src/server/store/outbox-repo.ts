// The notification outbox (issue 15): every planned notification is a row before anything is
// sent. The sender claims due rows as batches, and records each attempt's outcome; the policy's
// memory (cooldown, max per hour, "was the fired sent?") is answered from the same rows, so it
// survives a restart. Every write is a synchronous SQLite transaction.
import type {
  DestinationKind,
  NotificationEvent,
  NotSentReason,
} from '../../shared/model/notifications.ts'
import type { Db } from './db.ts'
import { decodeClaim, encodeClaim, type DueRow } from './outbox-claim.ts'

// The store imports only src/shared: these mirror notify/types.ts (PolicyDestination,
// PlannedRow, DeliveryMemory) structurally, and the notify side passes its own types in.

/** A destination as an outbox row names it. */
export interface OutboxDestination {
  kind: DestinationKind
  id: string
  name: string
}

/** A planned delivery (notify/types.ts PlannedRow): one row. */
export interface PlannedRow {
  destination: OutboxDestination
  event: NotificationEvent
  idempotencyKey: string
  groupKey: string
  dueAt: number
  status: 'pending' | 'suppressed'
  reason?: NotSentReason
}

/** Attempts before a row becomes a dead letter (email's maxRetries may lower it). */
export const MAX_ATTEMPTS = 8
export const BACKOFF_BASE_MS = 1000
export const BACKOFF_CAP_MS = 60_000
export const RETENTION_MS = 30 * 86_400_000
export const RETENTION_ROWS = 100_000

/** Delay before the next attempt after `attempts` failed ones: base, doubling, capped. */
export function backoffMs(attempts: number, baseMs = BACKOFF_BASE_MS): number {
  return Math.min(BACKOFF_CAP_MS, baseMs * 2 ** Math.max(0, Math.min(attempts - 1, 16)))
}

/** One outbox row as the sender sees it. */
export interface OutboxRow {
  id: number
  idempotencyKey: string
  event: NotificationEvent
  attempts: number
  reason?: NotSentReason
}

/** Rows that go out as one message: one destination, one group key, one due time. */
export interface ClaimedBatch {
  destination: OutboxDestination
  groupKey: string
  dueAt: number
  /**
   * Stable across retries and restarts: a hash of destination, group key and due time, which is
   * what makes a batch (its rows are always marked together).
   */
  batchKey: string
  rows: OutboxRow[]
}

export interface OutboxRepo {
  /** The policy's memory (notify/types.ts DeliveryMemory), answered from the rows. */
  lastNotified(alertId: string, startTime: string, destinationId: string): number | undefined
  countSince(alertId: string, destinationId: string, since: number): number
  firedWasNotified(alertId: string, startTime: string, destinationId: string): boolean
  /** The groups still open at `now` (due later), with their due times. */
  openGroups(now: number): OpenGroup[]
  /** Insert planned rows; a key already stored is ignored. Returns the rows inserted. */
  insert(planned: readonly PlannedRow[], now: number): number
  /** Insert one row inside the caller's transaction; false when its key was already stored. */
  insertOne(planned: PlannedRow, now: number): boolean
  /** The live rows (pending, sent, failed) of these alerts: the policy memory of one dispatch. */
  memoryRows(alertIds: readonly string[]): MemoryRow[]
  /** Run `fn` in one transaction (planning reads and inserts of one dispatch). */
  transaction<T>(fn: () => T): T
  /**
   * Due rows (pending or failed, next attempt <= now), grouped into batches in id order; rows of
   * the `busy` destination ids (a send in flight) are left for a later claim.
   */
  claimDue(now: number, busy?: readonly string[]): ClaimedBatch[]
  /** claimDue as its text (outbox-claim.ts decodeClaim): what crosses from a worker thread. */
  claimDueText(now: number, busy?: readonly string[]): string
  /** How many rows claimDue(now) would read, busy destinations included (one index count). */
  dueCount(now: number): number
  /**
   * `summary` (a storm or quiet-hours summary) replaces the rows' titles; a storm's also sets
   * their reason 'storm', so the log says why an alert went out only as a count.
   */
  markSent(ids: readonly number[], now: number, info?: string, summary?: SentSummary): void
  /**
   * Record a failed attempt: 'failed' with the next attempt after the backoff, or 'dead' when
   * this was attempt `maxAttempts` (or the error is not retryable). Returns the new status.
   */
  markFailed(ids: readonly number[], failure: FailedAttempt): 'failed' | 'dead'
  markSuppressed(ids: readonly number[], reason: NotSentReason, now: number): void
  /** Held back without an attempt (a channel's rate limit): pending again at `nextAttemptAt`. */
  markDeferred(ids: readonly number[], reason: NotSentReason, nextAttemptAt: number): void
  /** Whether an escalation notification of this occurrence and level was planned (any status). */
  escalationPlanned(alertId: string, startTime: string, level: number): boolean
  /** Whether any row exists for this occurrence's 'fired'. */
  firedPlanned(alertId: string, startTime: string): boolean
  /** Delete final rows older than the retention, and the oldest beyond the row cap. */
  prune(now: number): number
}

/** A live row (pending, sent or failed) as the policy's memory needs it (notify/planning-memory.ts). */
export interface MemoryRow {
  alertId: string
  destinationId: string
  eventKind: string
  alertStart: string
  at: number
}

/** A group of a destination whose rows wait for its due time. */
export interface OpenGroup {
  destinationId: string
  groupKey: string
  due: number
}

export interface SentSummary {
  reason: 'storm' | 'quiet-hours'
  text: string
}

export interface FailedAttempt {
  error: string
  retryable: boolean
  now: number
  maxAttempts: number
  backoffBaseMs?: number
}

// Rows that count as notified for the policy: sent, or on their way. Dead letters and
// suppressed rows never reached anyone.
const LIVE = `status IN ('pending', 'sent', 'failed')`

export function createOutboxRepo(db: Db): OutboxRepo {
  const insertRow = db.prepare(
    `INSERT OR IGNORE INTO notification_outbox (idempotency_key, destination_kind, destination_id,
       destination_name, group_key, event, alert_id, event_kind, event_level, alert_start, status,
       reason, attempts, next_attempt_at, due_at, title, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?)`,
  )
  const lastNotified = db.prepare<[string, string, string], { at: number | null }>(
    `SELECT MAX(COALESCE(sent_at, due_at)) AS at FROM notification_outbox
     WHERE alert_id = ? AND destination_id = ? AND alert_start = ? AND ${LIVE}`,
  )
  const countSince = db.prepare<[string, string, number], { n: number }>(
    `SELECT COUNT(*) AS n FROM notification_outbox
     WHERE alert_id = ? AND destination_id = ? AND ${LIVE} AND COALESCE(sent_at, due_at) >= ?`,
  )
  const firedNotified = db.prepare<[string, string, string], { one: number }>(
    `SELECT 1 AS one FROM notification_outbox
     WHERE alert_id = ? AND destination_id = ? AND event_kind = 'fired' AND ${LIVE}
       AND alert_start = ? LIMIT 1`,
  )
  const memoryOf = db.prepare<[string], MemoryRow>(
    `SELECT alert_id AS alertId, destination_id AS destinationId, event_kind AS eventKind,
       alert_start AS alertStart, COALESCE(sent_at, due_at) AS at
     FROM notification_outbox
     WHERE alert_id IN (SELECT value FROM json_each(?)) AND ${LIVE}`,
  )
  const firedAny = db.prepare<[string, string], { one: number }>(
    `SELECT 1 AS one FROM notification_outbox
     WHERE alert_id = ? AND event_kind = 'fired' AND alert_start = ? LIMIT 1`,
  )
  const escalationAny = db.prepare<[string, string, number], { one: number }>(
    `SELECT 1 AS one FROM notification_outbox
     WHERE alert_id = ? AND event_kind = 'escalation' AND alert_start = ? AND event_level = ?
     LIMIT 1`,
  )
  // A group is open while its due time is ahead: the sender claims a group only once it is due,
  // so a row planned later never joins a message that may already be on its way. One scan of the
  // rows still to send per dispatch; an index for per-group lookups cost every insert more.
  const openGroupRows = db.prepare<[number], OpenGroup>(
    `SELECT destination_id AS destinationId, group_key AS groupKey, MIN(due_at) AS due
     FROM notification_outbox INDEXED BY notification_outbox_due
     WHERE status IN ('pending', 'failed') AND status = 'pending' AND attempts = 0 AND due_at > ?
     GROUP BY destination_id, group_key`,
  )
  // A destination with a send in flight is skipped: during a backlog the sender ticks every second
  // and must not re-read (and parse) every waiting row each time. INDEXED BY: for ORDER BY id the
  // planner chose to scan the whole table, sent rows included.
  const dueRows = db.prepare<[number, string], DueRow>(
    `SELECT id, idempotency_key, destination_kind, destination_id, destination_name, group_key,
       due_at, event, attempts, reason
     FROM notification_outbox INDEXED BY notification_outbox_due
     WHERE status IN ('pending', 'failed') AND next_attempt_at <= ?
       AND destination_id NOT IN (SELECT value FROM json_each(?))
     ORDER BY id`,
  )
  const dueCountOf = db.prepare<[number], { n: number }>(
    `SELECT COUNT(*) AS n FROM notification_outbox INDEXED BY notification_outbox_due
     WHERE status IN ('pending', 'failed') AND next_attempt_at <= ?`,
  )
  const sent = db.prepare<[number, string | null, string | null, string | null, number]>(
    `UPDATE notification_outbox
     SET status = 'sent', sent_at = ?, attempts = attempts + 1, last_info = ?,
       title = COALESCE(?, title), reason = COALESCE(?, reason)
     WHERE id = ?`,
  )
  const failed = db.prepare<[string, string, number, number]>(
    `UPDATE notification_outbox
     SET status = ?, attempts = attempts + 1, last_error = ?, next_attempt_at = ?
     WHERE id = ?`,
  )
  const deferred = db.prepare<[string, number, number]>(
    // Quiet hours' reason stays: it makes the release one summary (outbox.ts).
    `UPDATE notification_outbox
     SET status = 'pending', reason = CASE reason WHEN 'quiet-hours' THEN reason ELSE ? END,
       next_attempt_at = ?
     WHERE id = ?`,
  )
  const suppressed = db.prepare<[string, number]>(
    `UPDATE notification_outbox SET status = 'suppressed', reason = ? WHERE id = ?`,
  )
  const attemptsOf = db.prepare<[number], { attempts: number }>(
    'SELECT attempts FROM notification_outbox WHERE id = ?',
  )
  const pruneOld = db.prepare<[number]>(
    `DELETE FROM notification_outbox
     WHERE created_at < ? AND status NOT IN ('pending', 'failed')`,
  )
  const pruneCap = db.prepare<[number]>(
    `DELETE FROM notification_outbox WHERE status NOT IN ('pending', 'failed') AND id <=
       (SELECT id FROM notification_outbox ORDER BY id DESC LIMIT 1 OFFSET ?)`,
  )

  // The rows of one event (one per destination) share its JSON: stringified once.
  let lastEvent: NotificationEvent | null = null
  let lastJson = ''
  const insertAll = db.transaction((planned: readonly PlannedRow[], now: number) => {
    let inserted = 0
    for (const p of planned) inserted += insertOne(p, now)
    return inserted
  })
  const insertOne = (p: PlannedRow, now: number): number => {
    const { event, destination } = p
    if (event !== lastEvent) {
      lastEvent = event
      lastJson = JSON.stringify(event)
    }
    return insertRow.run(
      p.idempotencyKey,
      destination.kind,
      destination.id,
      destination.name,
      p.groupKey,
      lastJson,
      event.alert.id,
      event.kind,
      event.level ?? null,
      event.alert.startTime,
      p.status,
      p.reason ?? null,
      p.dueAt,
      p.dueAt,
      titleOf(event),
      now,
    ).changes
  }

  // One snapshot of the due rows, as the claim's text (outbox-claim.ts).
  const claim = db.transaction((now: number, busy: string): string =>
    encodeClaim(dueRows.iterate(now, busy)),
  )

  const fail = db.transaction((ids: readonly number[], f: FailedAttempt): 'failed' | 'dead' => {
    // Rows of one batch share their attempts; the first one decides for all.
    const attempts = (attemptsOf.get(ids[0]!)?.attempts ?? 0) + 1
    const status = !f.retryable || attempts >= f.maxAttempts ? 'dead' : 'failed'
    const next = f.now + backoffMs(attempts, f.backoffBaseMs)
    for (const id of ids) failed.run(status, f.error, next, id)
    return status
  })

  return {
    lastNotified: (alertId, startTime, destinationId) =>
      lastNotified.get(alertId, destinationId, startTime)?.at ?? undefined,
    countSince: (alertId, destinationId, since) =>
      countSince.get(alertId, destinationId, since)?.n ?? 0,
    firedWasNotified: (alertId, startTime, destinationId) =>
      firedNotified.get(alertId, destinationId, startTime) !== undefined,
    openGroups: (now) => openGroupRows.all(now),
    insert: (planned, now) => insertAll(planned, now),
    insertOne: (planned, now) => insertOne(planned, now) === 1,
    memoryRows: (alertIds) => (alertIds.length === 0 ? [] : memoryOf.all(JSON.stringify(alertIds))),
    transaction: (fn) => db.transaction(fn)(),
    claimDue: (now, busy = []) => decodeClaim(claim(now, JSON.stringify(busy))),
    claimDueText: (now, busy = []) => claim(now, JSON.stringify(busy)),
    dueCount: (now) => dueCountOf.get(now)?.n ?? 0,
    markSent: db.transaction(
      (ids: readonly number[], now: number, info?: string, summary?: SentSummary) => {
        const reason = summary?.reason === 'storm' ? 'storm' : null
        for (const id of ids) sent.run(now, info ?? null, summary?.text ?? null, reason, id)
      },
    ),
    markFailed: (ids, failure) => (ids.length === 0 ? 'failed' : fail(ids, failure)),
    markDeferred: db.transaction(
      (ids: readonly number[], reason: NotSentReason, nextAttemptAt: number) => {
        for (const id of ids) deferred.run(reason, nextAttemptAt, id)
      },
    ),
    markSuppressed: db.transaction((ids: readonly number[], reason: NotSentReason) => {
      for (const id of ids) suppressed.run(reason, id)
    }),
    escalationPlanned: (alertId, startTime, level) =>
      escalationAny.get(alertId, startTime, level) !== undefined,
    firedPlanned: (alertId, startTime) => firedAny.get(alertId, startTime) !== undefined,
    prune(now) {
      const old = pruneOld.run(now - RETENTION_MS).changes
      return old + pruneCap.run(RETENTION_ROWS).changes
    },
  }
}

const KIND_LABEL: Record<NotificationEvent['kind'], string> = {
  fired: 'Alert',
  escalated: 'Escalated to critical',
  resolved: 'Resolved',
  escalation: 'Escalation',
}

/** The delivery log's one-line title of a single notification. */
export function titleOf(event: NotificationEvent): string {
  const level = event.kind === 'escalation' ? ` (level ${event.level ?? 1})` : ''
  return `${KIND_LABEL[event.kind]}${level}: ${event.alert.message}`
}
