// A real Prometheus scrapes /metrics (issue 28 item 5): Debian's `prometheus` on 127.0.0.1, its
// scrape config sending PULSE_METRICS_TOKEN as a bearer token every second, against the real app
// (authentication on, the collector thread) polling the PVE simulator on loopback. A PromQL query
// for a guest's CPU returns the number /api/state holds for it, which the dashboard shows as a
// percent. Skipped with the reason when the binaries are missing (CI installs them).
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readConfig } from '../../../../src/server/config.ts'
import { startSimulator, type Simulator } from '../../../../src/server/sim/index.ts'
import type { Guest, State } from '../../../../src/shared/model/state.ts'
import {
  prometheusUnavailable,
  startPrometheus,
  type PrometheusServer,
} from '../../../support/prometheus.ts'
import { quickSetup, startAuthServer, type AuthTestServer } from '../auth/auth-helpers.ts'

const SCRAPE_TOKEN = 'prometheus-scrape-token-0123456789'
const DEADLINE_MS = 45_000

/** Wait until `probe` returns a value (not undefined), or fail with `what` at the deadline. */
async function until<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + DEADLINE_MS
  for (;;) {
    const value = await probe()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

describe.skipIf(prometheusUnavailable())('a real Prometheus scraping /metrics', () => {
  let sim: Simulator
  let server: AuthTestServer
  let prometheus: PrometheusServer | undefined
  let apiToken: string

  beforeAll(async () => {
    sim = await startSimulator({ clusters: 1, nodesPerCluster: 1, guestsPerNode: 6, tickMs: 0 })
    const metricsToken = readConfig(
      { PULSE_METRICS_TOKEN: SCRAPE_TOKEN, PULSE_DATA_DIR: path.join('/tmp', 'unused') },
      process.cwd(),
      '0.0.0-test',
    ).metricsToken
    server = await startAuthServer({ metricsToken })
    apiToken = (await quickSetup(server)).apiToken
    const cluster = sim.clusters[0]!
    const added = await server.call('POST', '/api/config/nodes', {
      token: apiToken,
      body: {
        type: 'pve',
        name: cluster.name,
        host: cluster.url,
        tokenName: cluster.tokenId,
        tokenValue: cluster.tokenSecret,
        fingerprint: cluster.fingerprint,
      },
    })
    expect(added.status).toBe(201)
  }, 60_000)

  afterAll(async () => {
    await prometheus?.dispose()
    await server?.close()
    await sim?.stop()
  })

  it("returns a guest's CPU through PromQL as /api/state holds it", async () => {
    // The node's first poll (adding it polls at once; the timer is not started, so it stays).
    const state = await until('the first poll', async () => {
      const res = await server.call('GET', '/api/state?format=internal', { token: apiToken })
      const body = res.json as State
      return body.vms.length + body.containers.length > 0 ? body : undefined
    })
    const guest: Guest | undefined = [...state.vms, ...state.containers].find(
      (g) => g.status === 'running' && g.cpu > 0,
    )
    expect(guest, 'a running guest with some CPU').toBeDefined()
    const id = `${guest!.type}/${guest!.id}`

    const port = (server.ctx.app.http.server.address() as { port: number }).port
    prometheus = await startPrometheus({
      target: `127.0.0.1:${port}`,
      metricsPath: '/metrics',
      bearerToken: SCRAPE_TOKEN,
    })
    const p = prometheus
    const value = await until(`pve_cpu_usage_ratio of ${id} in Prometheus`, async () => {
      const [sample] = await p.query(`pve_cpu_usage_ratio{id="${id}"}`)
      return sample?.value[1]
    })
    expect(Number(value)).toBe(guest!.cpu)

    // The scrape itself is healthy, and the poll figures of the endpoint came along.
    const [up] = await p.query('up{job="pulse"}')
    expect(up?.value[1]).toBe('1')
    const cluster = sim.clusters[0]!.name
    const [endpoint] = await p.query(`pulse_endpoint_up{endpoint="${cluster}",type="pve"}`)
    expect(endpoint?.value[1]).toBe('1')
    const [polls] = await p.query(`pulse_polls_total{endpoint="${cluster}"}`)
    expect(Number(polls?.value[1])).toBeGreaterThanOrEqual(1)
    // The _info series joins names onto values, as the exporter's dashboards do.
    const joined = await p.query(
      `pve_cpu_usage_ratio{id="${id}"} * on(id) group_left(name) pve_guest_info`,
    )
    expect(joined[0]?.metric.name).toBe(guest!.name)
  }, 90_000)
})
