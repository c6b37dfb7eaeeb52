// The worker's history fetch (issue 25) with Node's real fetch against a real HTTP server on
// 127.0.0.1 that plays GET /api/history/{id}: the URL it asks, typed arrays with NaN for null,
// downsampling to the width, the server's error message, malformed answers, the short cache.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import type { HistoryAnswer } from '../../../src/shared/model/history.ts'
import { createHistoryFetch } from '../../../src/worker/history-fetch.ts'

const seen: URL[] = []
const inits: { cookie?: string; xrw?: string }[] = []
let reply: { status: number; body: unknown } = { status: 200, body: {} }
let server: http.Server
let baseUrl = ''

beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push(new URL(req.url ?? '/', 'http://127.0.0.1'))
    inits.push({ xrw: req.headers['x-requested-with'] as string | undefined })
    res.writeHead(reply.status, { 'content-type': 'application/json' })
    res.end(typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))
beforeEach(() => {
  seen.length = 0
  inits.length = 0
})

const T0 = 1_700_000_000
function answer(points: number): HistoryAnswer {
  const time = Array.from({ length: points }, (_, i) => T0 + i * 60)
  return {
    resourceId: 'pve1/qemu/100',
    range: '24h',
    stepSeconds: 60,
    source: 'proxmox',
    series: {
      cpu: {
        time,
        avg: time.map((_, i) => (i === 3 ? null : i === 500 ? 97 : 10)),
        max: time.map((_, i) => (i === 3 ? null : 20)),
      },
      memory: { time, avg: time.map(() => 40) },
    },
  }
}

function make(now = () => 1_000_000) {
  const warnings: string[] = []
  const fetchChart = createHistoryFetch({
    baseUrl,
    now,
    warn: (message) => warnings.push(message),
  })
  return { fetchChart, warnings }
}

describe('createHistoryFetch', () => {
  test('asks GET /api/history/{encoded id} with range and metrics, answers typed arrays with NaN gaps', async () => {
    reply = { status: 200, body: answer(10) }
    const { fetchChart } = make()
    const data = await fetchChart({
      resourceId: 'pve1/qemu/100',
      range: '24h',
      metrics: ['cpu', 'memory'],
      width: 600,
    })
    expect(seen[0]!.pathname).toBe('/api/history/pve1%2Fqemu%2F100')
    expect(seen[0]!.searchParams.get('range')).toBe('24h')
    expect(seen[0]!.searchParams.get('metrics')).toBe('cpu,memory')
    expect(inits[0]!.xrw).toBe('XMLHttpRequest')
    expect(data.stepSeconds).toBe(60)
    expect(data.source).toBe('proxmox')
    const cpu = data.series.cpu!
    expect(cpu.time).toBeInstanceOf(Float64Array)
    expect(cpu.avg[3]).toBeNaN()
    expect(cpu.max![3]).toBeNaN()
    expect(cpu.avg[2]).toBe(10)
    expect(data.series.memory!.max).toBeUndefined()
  })

  test('downsamples each series to about the width, keeping the peak', async () => {
    reply = { status: 200, body: answer(1_440) }
    const { fetchChart } = make()
    const data = await fetchChart({ resourceId: 'pve1/qemu/100', range: '24h', width: 300 })
    expect(seen[0]!.searchParams.has('metrics')).toBe(false)
    expect(data.series.cpu!.time.length).toBeLessThanOrEqual(300)
    expect(Math.max(...data.series.cpu!.avg.filter((v) => !Number.isNaN(v)))).toBe(97)
  })

  test('the server’s error message becomes the error', async () => {
    reply = { status: 404, body: { code: 'NOT_FOUND', message: 'resourceId: no such resource.' } }
    const { fetchChart } = make()
    await expect(fetchChart({ resourceId: 'x', range: '1h', width: 300 })).rejects.toThrow(
      'resourceId: no such resource.',
    )
    reply = { status: 502, body: 'not json' }
    await expect(fetchChart({ resourceId: 'y', range: '1h', width: 300 })).rejects.toThrow(
      'HTTP 502',
    )
  })

  test('a malformed answer is an error, and logged', async () => {
    const bad = answer(5)
    ;(bad.series.cpu as { avg: unknown[] }).avg = ['high', 1, 2, 3, 4]
    reply = { status: 200, body: bad }
    const { fetchChart, warnings } = make()
    await expect(fetchChart({ resourceId: 'z', range: '1h', width: 300 })).rejects.toThrow(
      'unexpected answer',
    )
    expect(warnings.join('\n')).toContain('cpu')
  })

  test('the same id, range and metrics within 15 s are answered from the cache', async () => {
    reply = { status: 200, body: answer(10) }
    let now = 1_000_000
    const { fetchChart } = make(() => now)
    const request = { resourceId: 'pve1/qemu/100', range: '1h', width: 300 } as const
    await fetchChart(request)
    await fetchChart({ ...request, width: 200 })
    expect(seen).toHaveLength(1)
    await fetchChart({ ...request, range: '6h' })
    expect(seen).toHaveLength(2)
    now += 15_001
    await fetchChart(request)
    expect(seen).toHaveLength(3)
  })
})
