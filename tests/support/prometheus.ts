// A real Prometheus for tests: Debian's binary (/usr/bin/prometheus, installed by .ci/run with
// promtool from the same package), listening on 127.0.0.1 on a free port, its TSDB in a temporary
// directory, scraping one target on loopback every second. PROMETHEUS_BIN / PROMTOOL_BIN override.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'

export const PROMETHEUS_BIN = process.env.PROMETHEUS_BIN ?? '/usr/bin/prometheus'
export const PROMTOOL_BIN = process.env.PROMTOOL_BIN ?? '/usr/bin/promtool'

/**
 * Why the Prometheus tests cannot run, or null when they can. In CI a missing binary is an error
 * (the suite must not silently pass), elsewhere the suite is skipped with this reason printed.
 */
export function prometheusUnavailable(): string | null {
  const missing = [PROMETHEUS_BIN, PROMTOOL_BIN].filter((bin) => !fs.existsSync(bin))
  if (missing.length === 0) return null
  const why = `${missing.join(' and ')} not found (apt-get install prometheus)`
  if (process.env.CI === 'true') throw new Error(`${why}; CI must run the Prometheus tests`)
  console.warn(`Skipping Prometheus tests: ${why}`)
  return why
}

/** `promtool check metrics` over `text` (on stdin): its exit status and what it printed. */
export function promtoolCheckMetrics(text: string | Buffer): {
  status: number | null
  output: string
} {
  const run = spawnSync(PROMTOOL_BIN, ['check', 'metrics'], { input: text, timeout: 60_000 })
  return { status: run.status, output: `${run.stdout ?? ''}${run.stderr ?? ''}` }
}

export interface PrometheusServer {
  /** http://127.0.0.1:<port> */
  url: string
  /** GET /api/v1/query: the result vector of an instant query. */
  query(promql: string): Promise<Array<{ metric: Record<string, string>; value: [number, string] }>>
  /** Stop the process and remove its directory. */
  dispose(): Promise<void>
}

export interface ScrapeTarget {
  /** host:port on 127.0.0.1 */
  target: string
  metricsPath: string
  /** Sent as `Authorization: Bearer <token>`. */
  bearerToken: string
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0))
    })
  })
}

/** Start Prometheus scraping `scrape` every second; resolves once it reports ready. */
export async function startPrometheus(scrape: ScrapeTarget): Promise<PrometheusServer> {
  if (!scrape.target.startsWith('127.0.0.1:')) throw new Error('tests scrape loopback only')
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'pulse-prometheus-'))
  const port = await freePort()
  const configFile = path.join(root, 'prometheus.yml')
  // JSON is YAML: no quoting rules to get wrong for the token.
  const config = {
    global: { scrape_interval: '1s', scrape_timeout: '1s', evaluation_interval: '1m' },
    scrape_configs: [
      {
        job_name: 'pulse',
        metrics_path: scrape.metricsPath,
        authorization: { type: 'Bearer', credentials: scrape.bearerToken },
        static_configs: [{ targets: [scrape.target] }],
      },
    ],
  }
  fs.writeFileSync(configFile, JSON.stringify(config, null, 2), { mode: 0o600 })
  const url = `http://127.0.0.1:${port}`
  let log = ''
  const child: ChildProcess = spawn(
    PROMETHEUS_BIN,
    [
      `--config.file=${configFile}`,
      `--storage.tsdb.path=${path.join(root, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=warn',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  )
  child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()))
  const dispose = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.kill('SIGTERM')
      await exited
    }
    fs.rmSync(root, { recursive: true, force: true })
  }

  const deadline = Date.now() + 30_000
  for (;;) {
    if (child.exitCode !== null) {
      await dispose()
      throw new Error(`prometheus exited: ${log}`)
    }
    const ready = await fetch(`${url}/-/ready`).then(
      (res) => res.ok,
      () => false,
    )
    if (ready) break
    if (Date.now() > deadline) {
      await dispose()
      throw new Error(`prometheus did not get ready: ${log}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }

  return {
    url,
    async query(promql) {
      const res = await fetch(`${url}/api/v1/query?query=${encodeURIComponent(promql)}`)
      const body = (await res.json()) as {
        status: string
        error?: string
        data?: {
          resultType: string
          result: Array<{ metric: Record<string, string>; value: [number, string] }>
        }
      }
      if (body.status !== 'success') throw new Error(`query ${promql}: ${body.error ?? res.status}`)
      return body.data?.result ?? []
    },
    dispose,
  }
}
