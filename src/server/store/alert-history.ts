// Alert history: one row per occurrence of an alert, opened when it fires, kept up to date (peak,
// level, acknowledgment) while it is active and closed with its end time and reason. Queries
// filter by time first: rows arrive in start-time order, and the index on (start_time, level,
// search) covers the severity and text filters, so counting a filtered range reads no table page
// and a page of results reads only its own rows. Text is matched with one instr() over the
// lower-cased `search` column. A filtered 7-day page of a million-row history takes a few tens of
// milliseconds (bench/alert-history.ts).
//
// Notes on an occurrence (issue 28) are store/alert-notes-repo.ts's: this repo builds that one,
// hands on its addNote and openNotes, reads a page's notes through it, and keeps the notes' text
// at the end of a row's search text (KEEP_NOTES) when it rewrites the row.
import type {
  Alert,
  AlertEndReason,
  AlertLevel,
  AlertHistorySummary,
  AlertNote,
  HistoryAlert,
} from '../../shared/model/alerts.ts'
import { createAlertNotesRepo, KEEP_NOTES, type AlertNotesRepo } from './alert-notes-repo.ts'
import type { Db } from './db.ts'

const DAY_MS = 86_400_000
/** Rows deleted per statement by retention: long deletes in steps, not one long lock. */
const PRUNE_BATCH = 10_000

/** A validated history query; times in epoch ms, `q` already lower-cased. */
export interface HistoryFilter {
  since?: number
  until?: number
  severity?: AlertLevel
  q?: string
  resourceId?: string
}

/** The history of alert occurrences, with their notes' addNote and openNotes (AlertNotesRepo). */
export interface AlertHistoryRepo extends Pick<AlertNotesRepo, 'addNote' | 'openNotes'> {
  /** Open occurrences by alert id (their history ids). */
  openOccurrences(): Map<string, number>
  /** Insert an occurrence of a fired alert; returns its history id. */
  open(alert: Alert): number
  /** Refresh an open occurrence: value, peak, level (the highest seen), message, acknowledgment. */
  update(historyId: number, alert: Alert): void
  close(historyId: number, alert: Alert, endTime: number, reason: AlertEndReason): void
  /** Close an occurrence whose alert is no longer stored, at its last sighting. */
  closeOrphan(historyId: number): void
  query(
    filter: HistoryFilter,
    page: { limit: number; offset: number },
    now: number,
  ): { rows: HistoryAlert[]; total: number }
  summary(
    filter: HistoryFilter & { since: number; until: number },
    bucketMs: number,
    now: number,
  ): AlertHistorySummary
  /** Delete ended occurrences older than retentionDays, then the oldest over maxRows. */
  prune(limits: { retentionDays: number; maxRows: number }, now: number): number
  /** Delete every ended occurrence (the open ones belong to active alerts). */
  clear(): number
}

interface Row {
  history_id: number
  alert_id: string
  type: string
  level: AlertLevel
  resource_id: string
  resource_name: string
  node: string
  instance: string
  message: string
  value: number
  threshold: number
  peak: number
  start_time: number
  end_time: number | null
  last_seen: number
  acknowledged: number
  ack_time: number | null
  ack_user: string | null
  end_reason: AlertEndReason | null
  resource_type: string
}

const searchText = (a: Alert) =>
  `${a.id} ${a.type} ${a.resourceName} ${a.node} ${a.message}`.toLowerCase()

const ms = (iso: string | undefined, fallback: number) => {
  const t = iso ? Date.parse(iso) : NaN
  return Number.isFinite(t) ? t : fallback
}

const HISTORY_TYPES: Record<string, HistoryAlert['resourceType']> = {
  VM: 'VM',
  Container: 'CT',
  Node: 'Node',
  Storage: 'Storage',
  PBS: 'PBS',
}

function toHistoryAlert(row: Row, now: number, notes?: AlertNote[]): HistoryAlert {
  const ended = row.end_time !== null
  const alert: HistoryAlert = {
    historyId: row.history_id,
    id: row.alert_id,
    type: row.type as HistoryAlert['type'],
    level: row.level,
    resourceId: row.resource_id,
    resourceName: row.resource_name,
    node: row.node,
    instance: row.instance,
    message: row.message,
    value: row.value,
    threshold: row.threshold,
    peak: row.peak,
    startTime: new Date(row.start_time).toISOString(),
    lastSeen: new Date(row.last_seen).toISOString(),
    acknowledged: row.acknowledged === 1,
    duration: Math.max(0, (row.end_time ?? now) - row.start_time),
    // Spec 001 §4: a resolved alert shows in history as resolved or acknowledged.
    status: row.acknowledged === 1 ? 'acknowledged' : ended ? 'resolved' : 'active',
    resourceType: HISTORY_TYPES[row.resource_type] ?? 'Unknown',
  }
  if (row.resource_type) {
    alert.metadata = {
      resourceType: row.resource_type as NonNullable<Alert['metadata']>['resourceType'],
    }
  }
  if (row.ack_time !== null) alert.ackTime = new Date(row.ack_time).toISOString()
  if (row.ack_user !== null) alert.ackUser = row.ack_user
  if (row.end_time !== null) alert.endTime = new Date(row.end_time).toISOString()
  if (row.end_reason !== null) alert.endReason = row.end_reason
  if (notes) alert.notes = notes
  return alert
}

/** The WHERE clause of a filter and its parameters (named, for better-sqlite3). */
function whereOf(filter: HistoryFilter): { sql: string; params: Record<string, unknown> } {
  const parts: string[] = []
  const params: Record<string, unknown> = {}
  if (filter.since !== undefined) {
    parts.push('start_time >= @since')
    params.since = filter.since
  }
  if (filter.until !== undefined) {
    parts.push('start_time < @until')
    params.until = filter.until
  }
  if (filter.severity) {
    parts.push('level = @severity')
    params.severity = filter.severity
  }
  if (filter.resourceId !== undefined) {
    parts.push('resource_id = @resourceId')
    params.resourceId = filter.resourceId
  }
  if (filter.q) {
    parts.push('instr(search, @q) > 0')
    params.q = filter.q
  }
  return { sql: parts.length ? `WHERE ${parts.join(' AND ')}` : '', params }
}

/**
 * The table as a query names it. With a text filter the wide index is the one to walk: it holds
 * the search text, so only matching rows are read; the planner would otherwise take the narrow
 * (start_time, level) index and read every row of the range for its text.
 */
const source = (filter: HistoryFilter) =>
  filter.q ? 'alert_history INDEXED BY alert_history_start' : 'alert_history'

/** Alert history on SQLite. */
export function createAlertHistoryRepo(db: Db): AlertHistoryRepo {
  const notes = createAlertNotesRepo(db)
  const insert = db.prepare(
    `INSERT INTO alert_history (alert_id, type, level, resource_id, resource_name, node, instance,
       message, value, threshold, peak, start_time, last_seen, acknowledged, ack_time, ack_user,
       resource_type, search)
     VALUES (@id, @type, @level, @resourceId, @resourceName, @node, @instance, @message, @value,
       @threshold, @peak, @startTime, @lastSeen, @acknowledged, @ackTime, @ackUser, @resourceType,
       @search)`,
  )
  // The level column is the occurrence's peak level: a critical alert that eased keeps it.
  const refresh = db.prepare(
    `UPDATE alert_history SET
       level = CASE WHEN level = 'critical' THEN 'critical' ELSE @level END,
       message = @message, value = @value, threshold = @threshold, peak = MAX(peak, @peak),
       last_seen = @lastSeen, acknowledged = @acknowledged, ack_time = @ackTime,
       ack_user = @ackUser, search = @search || ${KEEP_NOTES}
     WHERE history_id = @historyId`,
  )
  const finish = db.prepare(
    `UPDATE alert_history SET
       level = CASE WHEN level = 'critical' THEN 'critical' ELSE @level END,
       message = @message, value = @value, peak = MAX(peak, @peak), last_seen = @lastSeen,
       acknowledged = @acknowledged, ack_time = @ackTime, ack_user = @ackUser,
       search = @search || ${KEEP_NOTES},
       end_time = @endTime, end_reason = @reason
     WHERE history_id = @historyId`,
  )
  const orphan = db.prepare<[number]>(
    `UPDATE alert_history SET end_time = last_seen, end_reason = 'removed' WHERE history_id = ?`,
  )
  const listOpen = db.prepare<[], { alert_id: string; history_id: number }>(
    'SELECT alert_id, history_id FROM alert_history WHERE end_time IS NULL',
  )
  const countSince = db.prepare<[number], { n: number }>(
    'SELECT COUNT(*) AS n FROM alert_history WHERE start_time >= ?',
  )
  const countAll = db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM alert_history')
  const pruneOld = db.prepare<[number, number]>(
    `DELETE FROM alert_history WHERE history_id IN (SELECT history_id FROM alert_history
       WHERE start_time < ? AND end_time IS NOT NULL LIMIT ?)`,
  )
  const pruneOldest = db.prepare<[number]>(
    `DELETE FROM alert_history WHERE history_id IN (SELECT history_id FROM alert_history
       WHERE end_time IS NOT NULL ORDER BY start_time LIMIT ?)`,
  )
  // The occurrences still open are the active alerts: they stay, and close when those resolve.
  const deleteEnded = db.prepare('DELETE FROM alert_history WHERE end_time IS NOT NULL')
  // Filters come in a handful of shapes: one prepared statement per shape.
  const statements = new Map<string, ReturnType<Db['prepare']>>()
  const statement = (sql: string) => {
    let stmt = statements.get(sql)
    if (!stmt) statements.set(sql, (stmt = db.prepare(sql)))
    return stmt
  }

  const rowParams = (alert: Alert) => ({
    level: alert.level,
    message: alert.message,
    value: alert.value,
    threshold: alert.threshold,
    peak: alert.peak,
    lastSeen: ms(alert.lastSeen, Date.now()),
    acknowledged: alert.acknowledged ? 1 : 0,
    ackTime: alert.acknowledged && alert.ackTime ? ms(alert.ackTime, 0) : null,
    ackUser: alert.acknowledged ? (alert.ackUser ?? null) : null,
    search: searchText(alert),
  })

  return {
    openOccurrences() {
      return new Map(listOpen.all().map((r) => [r.alert_id, r.history_id]))
    },
    open(alert) {
      const startTime = ms(alert.startTime, Date.now())
      const info = insert.run({
        ...rowParams(alert),
        id: alert.id,
        type: alert.type,
        resourceId: alert.resourceId,
        resourceName: alert.resourceName,
        node: alert.node,
        instance: alert.instance,
        startTime,
        resourceType: alert.metadata?.resourceType ?? '',
      })
      return Number(info.lastInsertRowid)
    },
    update(historyId, alert) {
      refresh.run({ ...rowParams(alert), historyId })
    },
    close(historyId, alert, endTime, reason) {
      finish.run({ ...rowParams(alert), historyId, endTime, reason })
    },
    closeOrphan(historyId) {
      orphan.run(historyId)
    },
    addNote: notes.addNote,
    openNotes: notes.openNotes,
    query(filter, page, now) {
      const where = whereOf(filter)
      const total = (
        statement(`SELECT COUNT(*) AS n FROM ${source(filter)} ${where.sql}`).get(where.params) as {
          n: number
        }
      ).n
      const rows = statement(
        `SELECT * FROM ${source(filter)} ${where.sql}
         ORDER BY start_time DESC, history_id DESC LIMIT @limit OFFSET @offset`,
      ).all({ ...where.params, limit: page.limit, offset: page.offset }) as Row[]
      // The page's notes in one lookup (few occurrences have any).
      const noted = notes.notesOf(rows.map((row) => row.history_id))
      return { rows: rows.map((row) => toHistoryAlert(row, now, noted.get(row.history_id))), total }
    },
    summary(filter, bucketMs, now) {
      // One range count per bucket rather than GROUP BY: the groups would go through a sorter,
      // a range count is a walk along the index.
      const where = whereOf({ ...filter, since: undefined, until: undefined })
      const and = where.sql ? where.sql.replace(/^WHERE /, 'AND ') : ''
      const count = statement(
        `SELECT COUNT(*) AS count, TOTAL(level = 'critical') AS critical FROM ${source(filter)}
         WHERE start_time >= @from AND start_time < @to ${and}`,
      )
      const buckets: AlertHistorySummary['buckets'] = []
      let total = 0
      for (let start = filter.since; start < filter.until; start += bucketMs) {
        const end = Math.min(start + bucketMs, filter.until)
        const row = count.get({ ...where.params, from: start, to: end }) as {
          count: number
          critical: number
        }
        buckets.push({
          start,
          end,
          count: row.count,
          critical: row.critical,
          warning: row.count - row.critical,
        })
        total += row.count
      }
      return { total, last24h: countSince.get(now - DAY_MS)!.n, buckets }
    },
    prune(limits, now) {
      let deleted = 0
      const cutoff = now - limits.retentionDays * DAY_MS
      for (;;) {
        const n = pruneOld.run(cutoff, PRUNE_BATCH).changes
        deleted += n
        if (n < PRUNE_BATCH) break
      }
      let excess = countAll.get()!.n - limits.maxRows
      while (excess > 0) {
        const n = pruneOldest.run(Math.min(excess, PRUNE_BATCH)).changes
        deleted += n
        excess -= n
        if (n === 0) break
      }
      return deleted
    },
    clear() {
      return deleteEnded.run().changes
    },
  }
}
