// The delivery log (GET /api/notifications/deliveries, /webhook-history): the outbox rows read
// back as DeliveryRecords, newest first, so "why didn't I get it?" has an answer.
import type {
  DeliveryRecord,
  DeliveryStatus,
  DestinationKind,
  NotificationEventKind,
  NotSentReason,
} from '../../shared/model/notifications.ts'
import type { Db } from './db.ts'

export interface DeliveryFilter {
  status?: DeliveryStatus
  /** A destination id ('email' or a webhook id). */
  destination?: string
}

/** One webhook attempt in the reference's compat shape (wire-protocol.md §3.7). */
export interface WebhookHistoryEntry {
  webhookName: string
  webhookUrl: string
  service: string
  alertId: string
  timestamp: string
  statusCode: number
  success: boolean
  errorMessage?: string
  retryAttempts: number
  payloadSize: number
}

export interface OutboxLog {
  query(
    filter: DeliveryFilter,
    page: { limit: number; offset: number },
  ): { rows: DeliveryRecord[]; total: number }
  /** The last `limit` webhook rows that were attempted, newest first. */
  webhookHistory(
    limit: number,
    webhook: (id: string) => { url: string; service: string } | undefined,
  ): WebhookHistoryEntry[]
}

interface LogRow {
  id: number
  idempotency_key: string
  destination_kind: DestinationKind
  destination_id: string
  destination_name: string
  alert_id: string
  event_kind: NotificationEventKind
  title: string
  status: DeliveryStatus
  reason: NotSentReason | null
  attempts: number
  last_error: string | null
  last_info: string | null
  created_at: number
  due_at: number
  sent_at: number | null
}

const COLUMNS = `id, idempotency_key, destination_kind, destination_id, destination_name, alert_id,
  event_kind, title, status, reason, attempts, last_error, last_info, created_at, due_at, sent_at`

export function createOutboxLog(db: Db): OutboxLog {
  // Optional filters as `? IS NULL OR ...`: one statement, prepared once.
  const where = `WHERE (@status IS NULL OR status = @status)
    AND (@destination IS NULL OR destination_id = @destination)`
  type Params = { status: string | null; destination: string | null }
  const page = db.prepare<[Params & { limit: number; offset: number }], LogRow>(
    `SELECT ${COLUMNS} FROM notification_outbox ${where}
     ORDER BY id DESC LIMIT @limit OFFSET @offset`,
  )
  const count = db.prepare<[Params], { n: number }>(
    `SELECT COUNT(*) AS n FROM notification_outbox ${where}`,
  )
  const webhooks = db.prepare<[number], LogRow>(
    `SELECT ${COLUMNS} FROM notification_outbox
     WHERE destination_kind = 'webhook' AND attempts > 0 ORDER BY id DESC LIMIT ?`,
  )

  return {
    query(filter, { limit, offset }) {
      const params = { status: filter.status ?? null, destination: filter.destination ?? null }
      return {
        rows: page.all({ ...params, limit, offset }).map(toRecord),
        total: count.get(params)?.n ?? 0,
      }
    },
    webhookHistory(limit, webhook) {
      return webhooks.all(limit).map((row) => {
        const hook = webhook(row.destination_id)
        const success = row.status === 'sent'
        const text = success ? row.last_info : row.last_error
        return {
          webhookName: row.destination_name,
          webhookUrl: hook?.url ?? '',
          service: hook?.service ?? '',
          alertId: row.alert_id,
          timestamp: new Date(row.sent_at ?? row.due_at).toISOString(),
          statusCode: statusCodeOf(text, success),
          success,
          ...(row.last_error && !success ? { errorMessage: row.last_error } : {}),
          retryAttempts: Math.max(0, row.attempts - 1),
          payloadSize: 0,
        }
      })
    },
  }
}

/** The HTTP status a channel reported in its info or error text ("HTTP 500: ..."), if any. */
function statusCodeOf(text: string | null, success: boolean): number {
  const match = text ? /\b(?:HTTP |status )?([1-5]\d\d)\b/.exec(text) : null
  if (match) return Number(match[1])
  return success ? 200 : 0
}

function toRecord(row: LogRow): DeliveryRecord {
  return {
    id: row.id,
    idempotencyKey: row.idempotency_key,
    destination: { kind: row.destination_kind, id: row.destination_id, name: row.destination_name },
    alertIds: [row.alert_id],
    eventKinds: [row.event_kind],
    title: row.title,
    status: row.status,
    ...(row.reason ? { reason: row.reason } : {}),
    attempts: row.attempts,
    ...(row.last_error ? { lastError: row.last_error } : {}),
    createdAt: row.created_at,
    dueAt: row.due_at,
    ...(row.sent_at !== null ? { sentAt: row.sent_at } : {}),
  }
}
