// Alert history at 1,000,000 rows in a real SQLite file (the app's schema, WAL): the history
// screen's filtered page and the summary chart's buckets, as GET /api/alerts/history and
// /history/summary run them (the store's own query, total count included).
import os from 'node:os'
import fs from 'node:fs'
import path from 'node:path'
import { openDatabase } from '../src/server/store/db.ts'
import { createAlertHistoryRepo } from '../src/server/store/alert-history.ts'
import { measure, type BenchResult } from './harness.ts'

const DAY = 86_400_000
const NOW = Date.UTC(2025, 9, 1)
const RESOURCES = 100_000
const TYPES = ['cpu', 'memory', 'disk', 'diskRead', 'networkIn', 'powered-off', 'offline'] as const
const KINDS = ['VM', 'Container', 'Node', 'Storage'] as const

/** Deterministic pseudo-random numbers (mulberry32). */
function random(seed: number): () => number {
  let a = seed
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
}

export function fill(dbDir: string, rows: number): void {
  const db = openDatabase(dbDir)
  const insert = db.prepare(
    `INSERT INTO alert_history (alert_id, type, level, resource_id, resource_name, node, instance,
       message, value, threshold, peak, start_time, end_time, last_seen, acknowledged, ack_time,
       ack_user, end_reason, resource_type, search)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  )
  const rand = random(14)
  db.transaction(() => {
    for (let i = 0; i < rows; i++) {
      const r = Math.floor(rand() * RESOURCES)
      const type = TYPES[Math.floor(rand() * TYPES.length)]!
      const level = rand() < 0.3 ? 'critical' : 'warning'
      const node = `pve${r % 1000}`
      const id = `lab-${node}-${100 + r}`
      const name = `vm-${['web', 'db', 'cache', 'build'][r % 4]}-${r}`
      const value = 80 + rand() * 20
      const message =
        type === 'powered-off'
          ? `VM '${name}' is powered off`
          : type === 'offline'
            ? `Node '${node}' is offline`
            : `VM ${type} at ${value.toFixed(1)}%`
      // Occurrences are written as they fire: rows arrive in start-time order, a few seconds of
      // jitter apart (an alert's delay), spread evenly over the 90 days.
      const start = NOW - 90 * DAY + Math.floor(((i + rand()) * 90 * DAY) / rows)
      const end = start + Math.floor(rand() * 3_600_000)
      const acked = rand() < 0.2
      const alertId = `${id}-${type}`
      insert.run(
        alertId,
        type,
        level,
        id,
        name,
        node,
        'lab',
        message,
        value,
        80,
        value,
        start,
        end,
        end,
        acked ? 1 : 0,
        acked ? start + 60_000 : null,
        acked ? 'admin' : null,
        'resolved',
        KINDS[r % KINDS.length]!,
        `${alertId} ${type} ${name} ${node} ${message}`.toLowerCase(),
      )
    }
  })()
  db.close()
}

/** Fill a temporary database and time the history screen's queries. */
export function benchAlertHistory(rows = 1_000_000): BenchResult[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pulse-bench-history-'))
  try {
    const fillStart = performance.now()
    fill(dir, rows)
    console.log(`filled ${rows} history rows in ${Math.round(performance.now() - fillStart)} ms`)
    const db = openDatabase(dir)
    const repo = createAlertHistoryRepo(db)
    const timing = { warmup: 3, iterations: 21 }
    const week = { since: NOW - 7 * DAY, until: NOW }
    let matched = 0
    const results = [
      measure({
        name: 'history: 7 days + critical + "memory", limit 1000 (+ total)',
        size: rows,
        ...timing,
        run: () => {
          matched = repo.query(
            { ...week, severity: 'critical', q: 'memory' },
            { limit: 1000, offset: 0 },
            NOW,
          ).total
        },
      }),
      measure({
        name: 'history: first page, no filter, limit 100 (+ total)',
        size: rows,
        ...timing,
        run: () => void repo.query({}, { limit: 100, offset: 0 }, NOW),
      }),
      measure({
        name: 'history: all time + "db-4" text, limit 1000 (+ total)',
        size: rows,
        ...timing,
        run: () => void repo.query({ q: 'db-4' }, { limit: 1000, offset: 0 }, NOW),
      }),
      measure({
        name: 'summary: 7 days, 6 h buckets (28)',
        size: rows,
        ...timing,
        run: () => void repo.summary(week, 6 * 3_600_000, NOW),
      }),
      measure({
        name: 'summary: 90 days, 72 h buckets (30)',
        size: rows,
        ...timing,
        run: () => void repo.summary({ since: NOW - 90 * DAY, until: NOW }, 72 * 3_600_000, NOW),
      }),
    ]
    console.log(`the filtered 7-day query matches ${matched} rows`)
    db.close()
    return results
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}
