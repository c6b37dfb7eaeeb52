// The real server as `npm run demo` starts it (src/server/main.ts, DEMO_MODE, the simulator in its
// own process), forked on a free loopback port for the server benchmarks (server-loop.ts,
// health-watch.ts): start, /api/health, the process's RSS, stop.
import { fork, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { LoopStats } from '../src/server/loop-stats.ts'
import { freePort } from '../tests/e2e/server-process.ts'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
/** The 100k demo: 10 clusters of 10 nodes; guests per node from the size. */
export const CLUSTERS = 10
export const NODES_PER_CLUSTER = 10

/** A forked demo server. */
export interface DemoServer {
  child: ChildProcess
  port: number
  /** The last 20,000 characters the server wrote. */
  output(): string
  stop(): Promise<void>
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 })

/** GET /api/health: resolves with its latency in ms; rejects on an error or after `timeoutMs`. */
export function getHealth(port: number, timeoutMs = 60_000): Promise<number> {
  const started = performance.now()
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/api/health', agent }, (res) => {
      res.resume()
      res.on('end', () =>
        res.statusCode === 200
          ? resolve(performance.now() - started)
          : reject(new Error(`health ${res.statusCode}`)),
      )
    })
    req.setTimeout(timeoutMs, () => req.destroy(new Error('health timed out')))
    req.on('error', reject)
  })
}

/** The RSS of a process in bytes (from /proc), or null once it is gone. */
export async function readRss(pid: number): Promise<number | null> {
  try {
    // Read off the event loop: reading /proc/<pid>/status waits for the process's memory map
    // lock, which a server growing or returning its heap holds for up to hundreds of ms, and a
    // synchronous read here stalled the timing of the health answer in flight.
    const status = await fs.promises.readFile(`/proc/${pid}/status`, 'utf8')
    const kb = /VmRSS:\s+(\d+)/.exec(status)?.[1]
    return kb ? Number(kb) * 1024 : null
  } catch {
    return null
  }
}

/**
 * Fork the demo server with `guests` guests (10 clusters of 10 nodes) and wait for /api/health.
 * `env` is added to the server's environment (poll interval, debug hooks, simulator knobs).
 */
export async function startDemoServer(
  guests: number,
  env: Record<string, string> = {},
): Promise<DemoServer> {
  const port = await freePort()
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pulse-bench-demo-'))
  let output = ''
  const child = fork(path.join(root, 'src/server/main.ts'), [], {
    cwd: root,
    execArgv: ['--import', 'tsx'],
    env: {
      ...process.env,
      DEMO_MODE: 'true',
      DISABLE_AUTH: 'true',
      PORT: String(port),
      HOST: '127.0.0.1',
      PULSE_DATA_DIR: dataDir,
      DEMO_CLUSTERS: String(CLUSTERS),
      DEMO_NODES_PER_CLUSTER: String(NODES_PER_CLUSTER),
      DEMO_GUESTS_PER_NODE: String(Math.round(guests / (CLUSTERS * NODES_PER_CLUSTER))),
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  })
  child.stdout?.on('data', (d) => (output = (output + String(d)).slice(-20_000)))
  child.stderr?.on('data', (d) => (output = (output + String(d)).slice(-20_000)))
  const server: DemoServer = {
    child,
    port,
    output: () => output,
    async stop() {
      await stopChild(child)
      fs.rmSync(dataDir, { recursive: true, force: true })
    },
  }
  try {
    await waitHealthy(server)
  } catch (err) {
    await server.stop()
    throw err
  }
  return server
}

async function waitHealthy(server: DemoServer): Promise<void> {
  const deadline = Date.now() + 300_000
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null) throw new Error(`server exited early:\n${server.output()}`)
    try {
      await getHealth(server.port, 5_000)
      return
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
  }
  throw new Error(`server did not become healthy:\n${server.output()}`)
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve())
    child.kill('SIGTERM')
    setTimeout(() => child.kill('SIGKILL'), 10_000).unref()
  })
}

/** Ask the server's debug hook (PULSE_DEBUG_LOOP_STATS=1, loop-stats.ts) for `type`. */
export function askLoopStats(child: ChildProcess, type: string): Promise<LoopStats> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${type} answer`)), 60_000)
    const onMessage = (message: unknown) => {
      if ((message as { type?: unknown }).type !== type) return
      clearTimeout(timer)
      child.off('message', onMessage)
      resolve(message as LoopStats)
    }
    child.on('message', onMessage)
    child.send({ type })
  })
}

/** The value at quantile `q` (0..1) of `values`, 0 when empty. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return 0
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0
}
