// Applying live cycles in real Chromium, without the UI (issue 27, target 4): records the frames
// a delta-mode-2 client receives from the demo server (first load, then BENCH_APPLY_CYCLES live
// cycles), then replays them into the real worker code (worker-apply-entry.ts, bundled by esbuild)
// in a dedicated Web Worker of /usr/bin/chromium, with a guest view subscribed, and reports the
// worker's own `pulse:apply` measures per frame type (median, N). BENCH_APPLY_PROFILE=1 adds a CDP
// sampling profile of the worker over the live cycles (self time per function).
//
//   npx tsx bench/browser/worker-apply.ts            BENCH_APPLY_SIZE (10000), BENCH_APPLY_CYCLES (12)
//   BENCH_APPLY_CAPTURE=/tmp/dir                     keep the recording there and reuse it next time
//
// Not a test: nothing here asserts a time. Everything runs on 127.0.0.1.
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { chromium, type CDPSession, type Page } from '@playwright/test'
import WebSocket from 'ws'
import { createServerProcess } from '../../tests/e2e/server-process.ts'
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../tests/chromium.ts'
import { replayFrames, type ReplayFrame, type ReplayMeasure } from './apply-replay.ts'
import { liveDemoEnv, quantile, round } from './live-metrics.ts'

const env = (name: string, fallback: number) => {
  const n = Number(process.env[name])
  return Number.isFinite(n) && n > 0 ? n : fallback
}
const SIZE = env('BENCH_APPLY_SIZE', 10_000)
const CYCLES = env('BENCH_APPLY_CYCLES', 12)
const POLL_MS = env('BENCH_APPLY_POLL_MS', SIZE >= 100_000 ? 10_000 : 3000)
const WARM_CYCLES = env('BENCH_APPLY_WARM_CYCLES', 6)
const GAP_MS = env('BENCH_APPLY_GAP_MS', 400)
const PROFILE = process.env.BENCH_APPLY_PROFILE === '1'
const HERE = fileURLToPath(new URL('.', import.meta.url))

interface Recording {
  frames: ReplayFrame[]
  binaries: Buffer[]
}

/** Waits until the server has published `cycles` live cycles (its first ones are not steady). */
async function warmUp(port: number, cycles: number): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws?deltas=2`)
    let seen = 0
    ws.on('message', (data: Buffer, isBinary) => {
      if (isBinary || !data.subarray(0, 20).toString().includes('"delta"')) return
      if (++seen >= cycles) {
        ws.close()
        resolve()
      }
    })
    ws.on('error', reject)
  })
}

/** Records a delta-mode-2 client's frames: the first load, then `cycles` live cycles. */
async function record(size: number, cycles: number): Promise<Recording> {
  const server = await createServerProcess(liveDemoEnv(size, POLL_MS))
  try {
    await server.start()
    await warmUp(server.port, WARM_CYCLES)
    const frames: ReplayFrame[] = []
    const binaries: Buffer[] = []
    await new Promise<void>((resolve, reject) => {
      const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws?deltas=2`)
      let loaded = false
      let seen = 0
      ws.on('message', (data: Buffer, isBinary) => {
        if (isBinary) {
          binaries.push(Buffer.from(data))
          frames.push({ binary: binaries.length - 1 })
          return
        }
        const text = data.toString('utf8')
        const type = /^\{"type":"(\w+)"/.exec(text)?.[1]
        if (type === 'snapshotEnd') loaded = true
        const cycle = loaded && type === 'delta'
        if (cycle && ++seen > cycles) {
          ws.close()
          resolve()
          return
        }
        frames.push(cycle ? { text, cycle } : { text })
      })
      ws.on('error', reject)
      setTimeout(() => reject(new Error('recording timed out')), 30 * 60_000).unref()
    })
    return { frames, binaries }
  } finally {
    await server.stop()
    server.cleanup()
  }
}

function loadOrRecord(): Promise<Recording> {
  const dir = process.env.BENCH_APPLY_CAPTURE
  if (dir && fs.existsSync(path.join(dir, 'frames.json'))) {
    const frames = JSON.parse(
      fs.readFileSync(path.join(dir, 'frames.json'), 'utf8'),
    ) as ReplayFrame[]
    const count = frames.filter((f) => f.binary !== undefined).length
    const binaries = Array.from({ length: count }, (_, i) =>
      fs.readFileSync(path.join(dir, `${i}.bin`)),
    )
    return Promise.resolve({ frames, binaries })
  }
  return record(SIZE, CYCLES).then((recording) => {
    if (dir) {
      fs.mkdirSync(dir, { recursive: true })
      fs.writeFileSync(path.join(dir, 'frames.json'), JSON.stringify(recording.frames))
      recording.binaries.forEach((b, i) => fs.writeFileSync(path.join(dir, `${i}.bin`), b))
    }
    return recording
  })
}

/** Serves the page, the bundled worker and the recording on an ephemeral loopback port. */
async function serve(recording: Recording, workerJs: string): Promise<http.Server> {
  const page = `<!doctype html><script type="module">
    const [frames, ...binaries] = await Promise.all([
      fetch('/frames.json').then((r) => r.json()),
      ...Array.from({ length: ${recording.binaries.length} }, (_, i) =>
        fetch('/bin/' + i).then((r) => r.arrayBuffer())),
    ])
    const worker = new Worker('/worker.js')
    window.__go = () => worker.postMessage({ kind: 'go' })
    window.__result = new Promise((resolve) => {
      let modelBytes = 0
      worker.onmessage = ({ data }) => {
        if (data.kind === 'ready') worker.postMessage({ kind: 'start', frames, binaries, gapMs: ${GAP_MS} }, binaries)
        if (data.kind === 'model') modelBytes += JSON.stringify(data.model).length
        if (data.kind === 'loaded') window.__loaded = true
        if (data.kind === 'done') resolve({ ...data, modelBytes })
      }
    })
  </script>`
  const framesJson = JSON.stringify(recording.frames)
  const server = http.createServer((req, res) => {
    const url = req.url ?? '/'
    const send = (type: string, body: string | Buffer) => {
      res.writeHead(200, { 'content-type': type })
      res.end(body)
    }
    if (url === '/') send('text/html', page)
    else if (url === '/worker.js') send('text/javascript', workerJs)
    else if (url === '/frames.json') send('application/json', framesJson)
    else if (url.startsWith('/bin/'))
      send('application/octet-stream', recording.binaries[Number(url.slice(5))]!)
    else res.writeHead(404).end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return server
}

/** Median, p95, max and N per measure name and frame type. */
function summarise(measures: readonly ReplayMeasure[]) {
  const groups = new Map<string, number[]>()
  for (const m of measures) {
    const key = `${m.name} ${m.type}`
    groups.set(key, [...(groups.get(key) ?? []), m.ms])
  }
  return Object.fromEntries(
    [...groups].map(([key, list]) => [
      key,
      {
        count: list.length,
        medianMs: round(quantile(list, 0.5), 2),
        p95Ms: round(quantile(list, 0.95), 2),
        maxMs: round(Math.max(...list), 2),
        all: list.map((ms) => round(ms, 1)),
      },
    ]),
  )
}

type Result = { measures: ReplayMeasure[]; models: number; cycles: number; modelBytes?: number }

/** The same replay in this Node process (the reference the browser is compared with). */
async function replayInNode(recording: Recording): Promise<Result> {
  const binaries = recording.binaries.map((b) => new Uint8Array(b).slice().buffer)
  return replayFrames({ frames: recording.frames, binaries, gapMs: GAP_MS })
}

/** The replay in a dedicated worker of Chromium. */
async function replayInChromium(recording: Recording) {
  const bundled = await build({
    entryPoints: [path.join(HERE, 'worker-apply-entry.ts')],
    bundle: true,
    format: 'iife',
    write: false,
    target: 'es2022',
    logLevel: 'warning',
  })
  const server = await serve(recording, bundled.outputFiles[0]!.text)
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS })
  try {
    const page = await browser.newPage()
    const cdp = await browser.newBrowserCDPSession()
    const { port } = server.address() as AddressInfo
    await page.goto(`http://127.0.0.1:${port}/`)
    await page.waitForFunction(() => (window as unknown as { __loaded?: boolean }).__loaded, null, {
      timeout: 20 * 60_000,
    })
    const stop = PROFILE ? await profileWorker(cdp, page) : null
    await page.evaluate(() => (window as unknown as { __go: () => void }).__go())
    const result = (await page.evaluate(
      () => (window as unknown as { __result: Promise<unknown> }).__result,
    )) as Result
    return { result, chromium: browser.version(), profile: stop ? await stop() : null }
  } finally {
    await browser.close()
    server.close()
  }
}

async function main() {
  const recording = await loadOrRecord()
  const where = process.env.BENCH_APPLY_WHERE ?? 'node,chromium'
  const print = (label: string, result: Result) => {
    console.log(
      `${label}: ${result.cycles} cycles, ${result.models} models pushed${result.modelBytes ? ` (${result.modelBytes} bytes as JSON)` : ''}`,
    )
    for (const [key, v] of Object.entries(summarise(result.measures)))
      if (key.startsWith('pulse:apply') || key === 'pulse:parse delta')
        console.log(
          `  ${key.padEnd(26)} median ${v.medianMs} ms  p95 ${v.p95Ms}  max ${v.maxMs}  N ${v.count}  [${v.all.join(', ')}]`,
        )
  }
  if (where.includes('node')) print(`Node ${process.version}`, await replayInNode(recording))
  if (where.includes('chromium')) {
    const { result, chromium: version, profile } = await replayInChromium(recording)
    print(`Chromium ${version}`, result)
    if (profile) console.log(JSON.stringify(profile, null, 1))
  }
}

/** Starts a sampling profile of the worker; returns a function that stops it and summarises. */
async function profileWorker(cdp: CDPSession, page: Page) {
  const deadline = Date.now() + 60_000
  let targetId: string | undefined
  while (!targetId && Date.now() < deadline) {
    const { targetInfos } = await cdp.send('Target.getTargets')
    targetId = targetInfos.find((t) => t.type === 'worker')?.targetId
    if (!targetId) await page.waitForTimeout(50)
  }
  if (!targetId) return null
  const { sessionId } = await cdp.send('Target.attachToTarget', { targetId, flatten: false })
  let id = 0
  const pending = new Map<number, (r: unknown) => void>()
  cdp.on('Target.receivedMessageFromTarget', (e) => {
    const msg = JSON.parse(e.message) as { id?: number; result?: unknown }
    if (msg.id !== undefined) pending.get(msg.id)?.(msg.result)
  })
  const call = async <T>(method: string, params: Record<string, unknown> = {}) => {
    const n = ++id
    const reply = new Promise<unknown>((resolve) => pending.set(n, resolve))
    await cdp.send('Target.sendMessageToTarget', {
      sessionId,
      message: JSON.stringify({ id: n, method, params }),
    })
    return (await reply) as T
  }
  await call('Profiler.enable')
  await call('Profiler.setSamplingInterval', { interval: 200 })
  await call('Profiler.start')
  return async () => {
    const { profile } = await call<{
      profile: {
        nodes: Array<{ id: number; callFrame: { functionName: string; lineNumber: number } }>
        samples: number[]
        timeDeltas: number[]
      }
    }>('Profiler.stop')
    const byId = new Map(profile.nodes.map((n) => [n.id, n]))
    const self = new Map<string, number>()
    let total = 0
    profile.samples.forEach((s, i) => {
      const node = byId.get(s)!
      const us = profile.timeDeltas[i + 1] ?? 0
      if (node.callFrame.functionName === '(idle)') return
      total += us
      const key = `${node.callFrame.functionName || '(anonymous)'} :${node.callFrame.lineNumber + 1}`
      self.set(key, (self.get(key) ?? 0) + us)
    })
    return {
      busyMs: Math.round(total / 1000),
      top: [...self]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 25)
        .map(([fn, us]) => `${(us / 1000).toFixed(1)} ms ${fn}`),
    }
  }
}

await main()
