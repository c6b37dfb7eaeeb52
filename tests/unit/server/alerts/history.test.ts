// The history store through its routes: filters, paging, summary buckets, retention. Rows are
// written with the store's own open/close (what the service does when alerts fire and resolve).
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { App } from '../../../../src/server/app.ts'
import {
  createAlertHistoryRepo,
  type AlertHistoryRepo,
} from '../../../../src/server/store/alert-history.ts'
import type { Alert, AlertLevel, HistoryAlert } from '../../../../src/shared/model/alerts.ts'
import { makeTempDir } from '../temp-dir.ts'
import { buildAppOn, createClock, T0 } from './alert-fixture.ts'

const HOUR = 3_600_000
const DAY = 24 * HOUR
let app: App
let repo: AlertHistoryRepo
let cleanup: () => void
const clock = createClock(T0)

beforeEach(async () => {
  clock.t = T0
  let dir: string
  ;({ dir, cleanup } = makeTempDir())
  app = await buildAppOn(dir, clock.now)
  repo = createAlertHistoryRepo(app.db)
})
afterEach(async () => {
  await app.close()
  cleanup()
})

function alertAt(n: number, start: number, level: AlertLevel, message: string): Alert {
  const iso = new Date(start).toISOString()
  return {
    id: `lab-pve1-${100 + n}-cpu`,
    type: 'cpu',
    level,
    resourceId: `lab-pve1-${100 + n}`,
    resourceName: `vm-${n}`,
    node: 'pve1',
    instance: 'lab',
    message,
    value: 90,
    threshold: 80,
    peak: 95,
    startTime: iso,
    lastSeen: iso,
    acknowledged: false,
    metadata: { resourceType: 'VM' },
  }
}

/** An ended occurrence that started `ago` ms before now and lasted a minute. */
function seed(n: number, ago: number, level: AlertLevel = 'warning', message = 'VM cpu at 90.0%') {
  const alert = alertAt(n, clock.t - ago, level, message)
  repo.close(repo.open(alert), alert, clock.t - ago + 60_000, 'resolved')
}

const history = async (query: string) => {
  const res = await app.http.inject({ method: 'GET', url: `/api/alerts/history?${query}` })
  expect(res.statusCode, res.body).toBe(200)
  return { rows: res.json() as HistoryAlert[], total: Number(res.headers['x-total-count']) }
}

describe('GET /api/alerts/history', () => {
  it('filters by time range, severity, text and resource, newest first', async () => {
    seed(1, 1 * HOUR, 'warning', 'VM cpu at 91.0%')
    seed(2, 2 * HOUR, 'critical', 'VM memory at 97.0%')
    seed(3, 3 * DAY, 'critical', 'VM Memory at 96.0%')
    seed(1, 10 * DAY, 'warning', 'VM cpu at 85.0%')

    const all = await history('')
    expect(all.total).toBe(4)
    expect(all.rows.map((r) => r.resourceName)).toEqual(['vm-1', 'vm-2', 'vm-3', 'vm-1'])

    const week = await history(`since=${clock.t - 7 * DAY}`)
    expect(week.total).toBe(3)
    const until = await history(`until=${new Date(clock.t - 2 * DAY).toISOString()}`)
    expect(until.rows.map((r) => r.resourceName)).toEqual(['vm-3', 'vm-1'])

    const critical = await history('severity=critical')
    expect(critical.rows.map((r) => r.resourceName)).toEqual(['vm-2', 'vm-3'])
    // Case-insensitive, over message, name, node, type and id.
    expect((await history('q=MEMORY')).total).toBe(2)
    expect((await history('q=vm-3')).total).toBe(1)
    expect((await history('q=pve1')).total).toBe(4)
    expect((await history('q=50%25_')).total).toBe(0)
    expect((await history('resourceId=lab-pve1-101')).total).toBe(2)
    const combined = await history(`since=${clock.t - 7 * DAY}&severity=critical&q=memory`)
    expect(combined.rows.map((r) => r.resourceName)).toEqual(['vm-2', 'vm-3'])
  })

  it('pages with limit and offset and counts every match', async () => {
    for (let i = 0; i < 25; i++) seed(i, i * HOUR)
    const page = await history('limit=10&offset=20')
    expect(page.total).toBe(25)
    expect(page.rows.map((r) => r.resourceName)).toEqual([
      'vm-20',
      'vm-21',
      'vm-22',
      'vm-23',
      'vm-24',
    ])
    expect((await history('')).rows).toHaveLength(25)
    expect((await history('limit=3')).rows).toHaveLength(3)
  })

  it('derives status, duration and resource type', async () => {
    seed(1, HOUR)
    const open = alertAt(2, clock.t - 5 * 60_000, 'critical', 'x')
    const id = repo.open(open)
    repo.update(id, {
      ...open,
      acknowledged: true,
      ackUser: 'ops',
      ackTime: new Date(clock.t).toISOString(),
    })
    const { rows } = await history('')
    expect(rows[0]).toMatchObject({
      resourceName: 'vm-2',
      status: 'acknowledged',
      ackUser: 'ops',
      duration: 5 * 60_000,
      resourceType: 'VM',
    })
    expect(rows[0]!.endTime).toBeUndefined()
    expect(rows[1]).toMatchObject({ status: 'resolved', duration: 60_000, endReason: 'resolved' })
  })
})

describe('GET /api/alerts/history/summary', () => {
  it('counts per bucket from since to until, by level, and the last 24 hours', async () => {
    seed(1, 1 * HOUR, 'critical')
    seed(2, 2 * HOUR, 'warning')
    seed(3, 7 * HOUR, 'warning')
    seed(4, 30 * HOUR, 'critical')
    const since = clock.t - 12 * HOUR
    const res = await app.http.inject({
      method: 'GET',
      url: `/api/alerts/history/summary?since=${since}&until=${clock.t}&bucketMs=${6 * HOUR}`,
    })
    expect(res.json()).toEqual({
      total: 3,
      last24h: 3,
      buckets: [
        { start: since, end: since + 6 * HOUR, count: 1, critical: 0, warning: 1 },
        { start: since + 6 * HOUR, end: clock.t, count: 2, critical: 1, warning: 1 },
      ],
    })
    const filtered = await app.http.inject({
      method: 'GET',
      url: `/api/alerts/history/summary?since=${since}&until=${clock.t}&bucketMs=${6 * HOUR}&severity=critical`,
    })
    expect(filtered.json().total).toBe(1)
  })

  it('refuses too many buckets and an empty range', async () => {
    const tiny = await app.http.inject({
      method: 'GET',
      url: `/api/alerts/history/summary?since=0&until=${clock.t}&bucketMs=60000`,
    })
    expect(tiny.statusCode).toBe(400)
    expect(tiny.json().error).toMatch(/^bucketMs: /)
    const empty = await app.http.inject({
      method: 'GET',
      url: `/api/alerts/history/summary?since=${clock.t}&until=${clock.t}`,
    })
    expect(empty.json().error).toMatch(/^since: /)
  })
})

describe('retention', () => {
  it('deletes ended occurrences older than retentionDays, never open ones', () => {
    seed(1, 1 * DAY)
    seed(2, 40 * DAY)
    seed(3, 100 * DAY)
    repo.open(alertAt(4, clock.t - 200 * DAY, 'warning', 'still on'))
    expect(repo.prune({ retentionDays: 30, maxRows: 1000 }, clock.t)).toBe(2)
    const left = repo.query({}, { limit: 10, offset: 0 }, clock.t).rows
    expect(left.map((r) => r.resourceName)).toEqual(['vm-1', 'vm-4'])
  })

  it('deletes the oldest ended occurrences over the row cap', () => {
    for (let i = 0; i < 10; i++) seed(i, i * HOUR)
    expect(repo.prune({ retentionDays: 90, maxRows: 4 }, clock.t)).toBe(6)
    const left = repo.query({}, { limit: 10, offset: 0 }, clock.t)
    expect(left.total).toBe(4)
    expect(left.rows.map((r) => r.resourceName)).toEqual(['vm-0', 'vm-1', 'vm-2', 'vm-3'])
  })

  it('runs on start of the service', () => {
    seed(1, 200 * DAY)
    app.alerts.start()
    expect(repo.query({}, { limit: 10, offset: 0 }, clock.t).total).toBe(0)
  })
})
