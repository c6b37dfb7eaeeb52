// The trend column's fetch (issue 25) with Node's real fetch against a real HTTP server on
// 127.0.0.1 that plays the batch GET /api/history: batches of at most HISTORY_BATCH_MAX ids,
// typed arrays with NaN gaps, downsampling to the sparkline's width, bad items dropped.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { HISTORY_BATCH_MAX, type HistoryAnswer } from '../../../src/shared/model/history.ts'
import { createTrendsFetch } from '../../../src/worker/history-trends.ts'

const seen: URL[] = []
let server: http.Server
let baseUrl = ''
let broken = false

const T0 = 1_700_000_000
function item(id: string, points: number): HistoryAnswer {
  const time = Array.from({ length: points }, (_, i) => T0 + i * 10)
  return {
    resourceId: id,
    range: '1h',
    stepSeconds: 10,
    source: 'pulse',
    series: {
      cpu: { time, avg: time.map((_, i) => (i === 2 ? null : i === 200 ? 99 : 5)) },
    },
  }
}

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    seen.push(url)
    const ids = url.searchParams.getAll('id').filter((id) => !id.startsWith('unknown'))
    const items: unknown[] = ids.map((id) => item(id, 360))
    if (broken) items.push({ resourceId: 'bad', range: '1h' })
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(JSON.stringify({ range: '1h', items }))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))
beforeEach(() => {
  seen.length = 0
  broken = false
})

describe('createTrendsFetch', () => {
  test('asks the batch URL with every id, range 1h and the metric; NaN marks a gap', async () => {
    const fetchTrends = createTrendsFetch({ baseUrl })
    const data = await fetchTrends({
      ids: ['pve1/qemu/100', 'unknown-1'],
      metric: 'cpu',
      width: 400,
    })
    expect(seen).toHaveLength(1)
    expect(seen[0]!.pathname).toBe('/api/history')
    expect(seen[0]!.searchParams.getAll('id')).toEqual(['pve1/qemu/100', 'unknown-1'])
    expect(seen[0]!.searchParams.get('range')).toBe('1h')
    expect(seen[0]!.searchParams.get('metrics')).toBe('cpu')
    expect(Object.keys(data)).toEqual(['pve1/qemu/100'])
    const cpu = data['pve1/qemu/100']!
    expect(cpu.avg).toBeInstanceOf(Float64Array)
    expect(cpu.avg[2]).toBeNaN()
    expect(cpu.avg[3]).toBe(5)
  })

  test('splits more than HISTORY_BATCH_MAX ids into batches', async () => {
    const fetchTrends = createTrendsFetch({ baseUrl })
    const ids = Array.from({ length: HISTORY_BATCH_MAX + 50 }, (_, i) => `pve1/qemu/${i}`)
    const data = await fetchTrends({ ids, metric: 'cpu', width: 400 })
    expect(seen.map((u) => u.searchParams.getAll('id').length).sort((a, b) => b - a)).toEqual([
      HISTORY_BATCH_MAX,
      50,
    ])
    expect(Object.keys(data)).toHaveLength(ids.length)
  })

  test('downsamples to the sparkline width and keeps the peak', async () => {
    const fetchTrends = createTrendsFetch({ baseUrl })
    const data = await fetchTrends({ ids: ['a'], metric: 'cpu', width: 60 })
    const avg = data['a']!.avg
    expect(avg.length).toBeLessThanOrEqual(60)
    expect(Math.max(...avg.filter((v) => !Number.isNaN(v)))).toBe(99)
  })

  test('a malformed item is dropped and logged; the others stay', async () => {
    broken = true
    const warnings: string[] = []
    const fetchTrends = createTrendsFetch({ baseUrl, warn: (m) => warnings.push(m) })
    const data = await fetchTrends({ ids: ['a'], metric: 'cpu', width: 60 })
    expect(Object.keys(data)).toEqual(['a'])
    expect(warnings).toHaveLength(1)
  })
})
