// The alertHistory view kind through the subscriptions, fetching with Node's real fetch from a
// real HTTP server on 127.0.0.1 that plays GET /api/alerts/history and /summary.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { AlertHistorySummary, HistoryAlert } from '../../../src/shared/model/alerts.ts'
import type {
  AlertHistoryModel,
  AlertHistoryRequest,
} from '../../../src/shared/views/alert-history-types.ts'
import {
  createAlertHistoryKind,
  type AlertHistoryDeps,
} from '../../../src/worker/alert-history-kind.ts'
import { createStateStore } from '../../../src/worker/store.ts'
import { VIEW_KINDS } from '../../../src/worker/view-kinds.ts'
import { createViewSubscriptions } from '../../../src/worker/view-subscriptions.ts'
import { HOUR, NOW, historyRow } from '../shared/views/alert-history-fixtures.ts'

/** Every request the server saw, and answers it can hold back. */
const seen: URL[] = []
let rows: HistoryAlert[] = []
let total = 0
/** Requests whose q is a key here wait until the promise settles. */
const held = new Map<string, Promise<void>>()
let server: http.Server
let baseUrl = ''

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    seen.push(url)
    const answer = () => {
      const q = url.searchParams.get('q')
      const matching = q ? rows.filter((row) => row.message.includes(q)) : rows
      if (url.pathname === '/api/alerts/history/summary') {
        const summary: AlertHistorySummary = {
          total: matching.length,
          last24h: matching.length,
          buckets: [
            { start: NOW - 2 * HOUR, end: NOW - HOUR, count: 1, critical: 1, warning: 0 },
            { start: NOW - HOUR, end: NOW, count: 2, critical: 0, warning: 2 },
          ],
        }
        res.writeHead(200, { 'Content-Type': 'application/json' })
        res.end(JSON.stringify(summary))
        return
      }
      if (url.pathname === '/api/alerts/history') {
        res.writeHead(200, {
          'Content-Type': 'application/json',
          'X-Total-Count': String(q ? matching.length : total),
        })
        res.end(JSON.stringify(matching))
        return
      }
      res.writeHead(404)
      res.end()
    }
    const wait = held.get(url.searchParams.get('q') ?? '')
    if (wait) void wait.then(answer)
    else answer()
  })
  server.listen(0, '127.0.0.1')
  await new Promise<void>((resolve) => server.once('listening', resolve))
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

afterEach(() => {
  seen.length = 0
  held.clear()
})

const REQUEST: AlertHistoryRequest = {
  kind: 'alertHistory',
  range: '7d',
  severity: 'all',
  search: '',
  bucket: null,
  window: { start: 0, count: 50 },
  reload: 0,
}

function setup(deps: AlertHistoryDeps = {}) {
  const store = createStateStore()
  const models: AlertHistoryModel[] = []
  let now = NOW
  const registry = {
    ...VIEW_KINDS,
    alertHistory: createAlertHistoryKind({ baseUrl, timeZone: 'UTC', ...deps }),
  }
  const subs = createViewSubscriptions(registry, { store, now: () => now }, (onModel, model) =>
    onModel(model),
  )
  const latest = () => models.at(-1)!
  const lists = () => seen.filter((url) => url.pathname === '/api/alerts/history')
  return {
    store,
    subs,
    models,
    latest,
    lists,
    setNow: (ms: number) => (now = ms),
    open: (request = REQUEST) => subs.add(1, request, (model) => models.push(model)),
  }
}

function threeRows() {
  rows = [
    historyRow({
      historyId: 3,
      message: 'VM disk at 95%',
      startTime: new Date(NOW - HOUR).toISOString(),
    }),
    historyRow({
      historyId: 2,
      message: 'VM cpu at 91%',
      acknowledged: true,
      startTime: new Date(NOW - 2 * HOUR).toISOString(),
    }),
    historyRow({
      historyId: 1,
      message: 'Node cpu at 88%',
      id: 'node-offline-lab-pve3',
      type: 'connectivity',
      resourceType: 'Unknown',
      endTime: new Date(NOW - 25 * HOUR).toISOString(),
      startTime: new Date(NOW - 26 * HOUR).toISOString(),
      level: 'critical',
    }),
  ]
  total = 4321
}

describe('alert history view kind', () => {
  it('asks the server for 1,000 rows of the range and the chart, and answers a grouped model', async () => {
    threeRows()
    const { open, latest, lists } = setup()
    open()
    expect(latest()).toMatchObject({ kind: 'alertHistory', loading: true, loaded: false, rows: [] })
    await expect.poll(() => latest().loaded).toBe(true)
    const list = lists()[0]!
    expect(Object.fromEntries(list.searchParams)).toEqual({
      limit: '1000',
      since: String(NOW - 7 * 24 * HOUR),
      until: String(NOW),
    })
    const summary = seen.find((url) => url.pathname.endsWith('/summary'))!
    expect(Object.fromEntries(summary.searchParams)).toEqual({
      since: String(NOW - 7 * 24 * HOUR),
      until: String(NOW),
      bucketMs: String(6 * HOUR),
    })
    const model = latest()
    expect(model).toMatchObject({ loading: false, error: null, total: 4321, shown: 3, rowCount: 5 })
    expect(model.buckets.map((b) => [b.label, b.critical, b.warning])).toEqual([
      ['Nov 5 08:30', 1, 0],
      ['Nov 5 09:30', 0, 2],
    ])
    const shape = model.rows.map((row) =>
      row.kind === 'day'
        ? `[${row.label}]`
        : `${row.timestampText} ${row.statusText} ${row.resourceType}`,
    )
    expect(shape).toEqual([
      '[Today]',
      '09:30:00 Active VM',
      '08:30:00 Acknowledged VM',
      '[Yesterday]',
      '08:30:00 Resolved Node',
    ])
  })

  it('sends severity, search and a chosen bucket; the chart keeps the whole range', async () => {
    threeRows()
    const { open, subs, latest, lists } = setup({ searchDelayMs: 0 })
    open()
    await expect.poll(() => latest().loaded).toBe(true)
    const bucket = { start: NOW - HOUR, end: NOW }
    subs.update(1, { ...REQUEST, range: '24h', severity: 'critical', search: ' cpu ', bucket })
    await expect.poll(() => lists().length).toBe(2)
    expect(Object.fromEntries(lists()[1]!.searchParams)).toEqual({
      limit: '1000',
      since: String(bucket.start),
      until: String(bucket.end),
      severity: 'critical',
      q: 'cpu',
    })
    const summary = seen.filter((url) => url.pathname.endsWith('/summary'))[1]!
    expect(Object.fromEntries(summary.searchParams)).toMatchObject({
      since: String(NOW - 24 * HOUR),
      bucketMs: String(HOUR),
      severity: 'critical',
      q: 'cpu',
    })
    await expect.poll(() => latest().shown).toBe(2)
  })

  it('sends the rows in the window only', async () => {
    threeRows()
    const { open, subs, latest } = setup()
    open({ ...REQUEST, window: { start: 1, count: 2 } })
    await expect.poll(() => latest().loaded).toBe(true)
    expect(latest()).toMatchObject({ start: 1, rowCount: 5 })
    expect(latest().rows.map((row) => row.kind)).toEqual(['alert', 'alert'])
    const fetches = seen.length
    subs.update(1, { ...REQUEST, window: { start: 3, count: 20 } })
    expect(latest().rows.map((row) => row.kind)).toEqual(['day', 'alert'])
    // Scrolling is not a new query.
    expect(seen.length).toBe(fetches)
  })

  it('debounces typing into one request and drops an answer a newer request overtook', async () => {
    threeRows()
    const { open, subs, latest, lists } = setup()
    open()
    await expect.poll(() => latest().loaded).toBe(true)
    for (const search of ['d', 'di', 'dis', 'disk']) subs.update(1, { ...REQUEST, search })
    expect(latest().loading).toBe(true)
    await expect.poll(() => latest().loading).toBe(false)
    expect(lists().map((url) => url.searchParams.get('q'))).toEqual([null, 'disk'])
    expect(latest().shown).toBe(1)

    // The 'VM' answer is held by the server; 'Node' is asked after it and answered first.
    let release = () => {}
    held.set('VM', new Promise<void>((resolve) => (release = resolve)))
    subs.update(1, { ...REQUEST, search: 'VM', severity: 'warning' })
    await expect.poll(() => lists().length).toBe(3)
    subs.update(1, { ...REQUEST, search: 'Node', severity: 'warning' })
    await expect.poll(() => latest().loading).toBe(false)
    release()
    expect(
      latest()
        .rows.filter((row) => row.kind === 'alert')
        .map((row) => row.message),
    ).toEqual(['Node cpu at 88%'])
  })

  it('refetches when live alerts change, at most once per interval', async () => {
    threeRows()
    const timers: { run: () => void; ms: number }[] = []
    const { open, store, subs, latest, lists, setNow } = setup({
      setTimer: (run, ms) => timers.push({ run, ms }),
      clearTimer: () => {},
    })
    open()
    await expect.poll(() => latest().loaded).toBe(true)
    const alert = { id: 'a', type: 'cpu', level: 'warning', startTime: new Date(NOW).toISOString() }
    // Right after a fetch: the refetch waits out the interval.
    setNow(NOW + 1_000)
    store.applyFull({ activeAlerts: [alert] })
    subs.flush()
    expect(timers.map((t) => t.ms)).toEqual([4_000])
    // More changes while one is pending add nothing.
    store.applyFull({ activeAlerts: [], recentlyResolved: [alert] })
    subs.flush()
    expect(timers).toHaveLength(1)
    setNow(NOW + 5_000)
    timers[0]!.run()
    await expect.poll(() => lists().length).toBe(2)
    await expect.poll(() => latest().loading).toBe(false)
    // Long after, a change refetches at once.
    setNow(NOW + 60_000)
    store.applyFull({ activeAlerts: [alert] })
    subs.flush()
    await expect.poll(() => lists().length).toBe(3)
    // A flush without alert changes fetches nothing.
    await expect.poll(() => latest().loading).toBe(false)
    subs.flush()
    expect(lists()).toHaveLength(3)
  })

  it('reports a failing server and empties the list on reload', async () => {
    threeRows()
    const { open, subs, latest } = setup({ baseUrl: `${baseUrl}/broken` })
    open()
    await expect.poll(() => latest().error).toBe('Failed to load alert history (HTTP 404)')
    expect(latest().loading).toBe(false)

    const ok = setup()
    ok.open()
    await expect.poll(() => ok.latest().shown).toBe(3)
    rows = []
    total = 0
    ok.subs.update(1, { ...REQUEST, reload: 1 })
    expect(ok.latest()).toMatchObject({ loading: true, shown: 0, rowCount: 0 })
    await expect.poll(() => ok.latest().loading).toBe(false)
    expect(ok.latest()).toMatchObject({ total: 0, shown: 0, loaded: true })
    subs.remove(1)
  })
})
