// Diagnostics against the demo estate (issue 16 acceptance 4): the real app, the demo's simulator
// process on 127.0.0.1 (PVE clusters and a PBS), live checks over HTTPS with the stored tokens.
import net from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DiagnosticsReport } from '../../../../src/shared/model/diagnostics.ts'
import type { State } from '../../../../src/shared/model/state.ts'
import { startDemo, type DemoSimulators } from '../../../../src/server/demo.ts'
import type { DiagnosticsExport } from '../../../../src/server/diagnostics/diagnostics-export.ts'
import { buildTestApp } from '../helpers.ts'

// The simulator runs in a child process; under vitest it needs the TypeScript loader named.
const EXEC_ARGV = ['--import', 'tsx']
const DEMO = {
  seed: 11,
  clusters: 2,
  nodesPerCluster: 2,
  guestsPerNode: 6,
  basePort: 0,
  tickMs: 0,
  pbsInstances: 1,
  alertScenarios: true,
}

let ctx: Awaited<ReturnType<typeof buildTestApp>>
let demo: DemoSimulators
let closedPort: number

/** A loopback port nothing listens on (bound, then released). */
async function freePort(): Promise<number> {
  const server = net.createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as net.AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

async function waitFor<T>(probe: () => Promise<T | undefined>, what: string): Promise<T> {
  const deadline = Date.now() + 20_000
  while (Date.now() < deadline) {
    const value = await probe()
    if (value !== undefined) return value
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`timed out waiting for ${what}`)
}

const inject = (url: string) => ctx.app.http.inject({ method: 'GET', url })

beforeAll(async () => {
  ctx = await buildTestApp({ pollIntervalMs: 3_600_000 })
  demo = await startDemo(DEMO, ctx.app, { execArgv: EXEC_ARGV })
  closedPort = await freePort()
  ctx.app.nodes.add({
    type: 'pve',
    name: 'unreachable-node',
    host: `https://127.0.0.1:${closedPort}`,
    tokenName: 'diag@pve!probe',
    tokenValue: 'deadbeef-dead-beef-dead-beefdeadbeef',
    verifySSL: false,
  })
  // The export's backups, alerts and guest names come from the live state: wait for a full poll.
  await waitFor(async () => {
    await ctx.app.poller.pollNow()
    const { state } = ctx.app.live.current()
    return state.vms.length + state.containers.length === 24 && state.pbs.length > 0
      ? true
      : undefined
  }, 'the demo estate in the live state')
}, 60_000)

afterAll(async () => {
  await demo?.stop()
  await ctx?.close()
})

describe('GET /api/diagnostics', () => {
  it('reports every PVE node and PBS of the demo live, and the unreachable one as failed', async () => {
    const res = await inject('/api/diagnostics')
    expect(res.statusCode).toBe(200)
    const report = res.json<DiagnosticsReport>()
    const configured = ctx.app.nodes.list()
    expect(report.nodes.map((n) => n.name).sort()).toEqual(
      configured
        .filter((n) => n.type === 'pve')
        .map((n) => n.name)
        .sort(),
    )
    expect(report.pbs.map((n) => n.name)).toEqual(
      configured.filter((n) => n.type === 'pbs').map((n) => n.name),
    )
    for (const node of report.nodes.filter((n) => n.name !== 'unreachable-node')) {
      expect(node).toMatchObject({ connected: true, authMethod: 'api_token' })
      expect(node.details?.version).toMatch(/^\d+\./)
      expect(node.vmDiskCheck?.vmsFound).toBeGreaterThan(0)
      expect(node.vmDiskCheck?.permission).toMatch(/^VM\./)
      expect(node.physicalDisks?.nodesChecked).toBeGreaterThan(0)
      expect(node.backupListing?.status).toBe('ok')
      // Every backup storage of the cluster, shared ones once: the count the Backups tab shows.
      const listed = ctx.app.live
        .current()
        .state.storageBackups.filter((b) => b.instance === node.name).length
      expect(listed).toBeGreaterThan(0)
      expect(node.backupListing?.message).toMatch(
        new RegExp(`^Backups listed on .+ \\(${listed.toLocaleString('en-US')} found\\)$`),
      )
    }
    for (const server of report.pbs) expect(server).toMatchObject({ connected: true })
    const failed = report.nodes.find((n) => n.name === 'unreachable-node')!
    expect(failed.connected).toBe(false)
    expect(failed.error).toMatch(/\S/)
    expect(report.errors.some((e) => e.startsWith('unreachable-node:'))).toBe(true)
    expect(report.recommendations.some((r) => r.startsWith('unreachable-node:'))).toBe(true)
    expect(report.connection).toMatchObject({
      pveNodes: 3,
      pbsNodes: 1,
      vms: ctx.app.live.current().state.vms.length,
    })
    expect(res.body).not.toContain('deadbeef-dead-beef-dead-beefdeadbeef')
  })

  it('refuses an export whose sanitize flag is not true or false, naming the field', async () => {
    const res = await inject('/api/diagnostics/export?sanitize=yes')
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ code: 'FIELD_INVALID' })
    expect(res.json<{ message: string }>().message).toContain('sanitize')
  })
})

describe('GET /api/diagnostics/export', () => {
  const endpoints = () => ctx.app.nodes.endpoints()
  const secrets = () =>
    endpoints().map((e) => (e.auth.kind === 'token' ? e.auth.secret : e.auth.password))

  it('downloads the full export with 10 backups per kind and 20 alerts at most, no secrets', async () => {
    const res = await inject('/api/diagnostics/export?sanitize=false')
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="pulse-diagnostics-/)
    const doc = res.json<DiagnosticsExport>()
    expect(doc.sanitized).toBe(false)
    const { state } = ctx.app.live.current()
    expect(doc.backups.storageBackups).toHaveLength(Math.min(10, state.storageBackups.length))
    expect(doc.backups.pbsBackups).toHaveLength(Math.min(10, state.pbsBackups.length))
    expect(doc.activeAlerts).toHaveLength(Math.min(20, state.activeAlerts.length))
    expect(doc.report.nodes.length).toBe(3)
    for (const secret of secrets()) expect(res.body).not.toContain(secret)
  })

  it("contains none of the demo's IPs, hostnames, token ids, node or guest names when sanitized", async () => {
    const res = await inject('/api/diagnostics/export?sanitize=true')
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-disposition']).toContain('pulse-diagnostics-github-')
    const body = res.body
    const doc = JSON.parse(body) as DiagnosticsExport
    expect(doc.sanitized).toBe(true)
    expect(doc.report.nodes.length).toBe(3)
    const state: State = ctx.app.live.current().state
    const configured = ctx.app.nodes.list()
    const hostnames = configured.map((n) => new URL(n.host).hostname)
    const forbidden = new Set<string>([
      ...hostnames,
      '127.0.0.1',
      ...state.nodes.flatMap((n) => [n.name, new URL(n.host).hostname, n.instance]),
      ...state.pbs.flatMap((p) => [p.name, new URL(p.host).hostname]),
      ...configured.flatMap((n) => [n.name, n.tokenName ?? '']),
      ...state.vms.map((g) => g.name),
      ...state.containers.map((g) => g.name),
      ...secrets(),
    ])
    forbidden.delete('')
    expect(forbidden.size).toBeGreaterThan(30)
    const found = [...forbidden].filter((value) => body.toLowerCase().includes(value.toLowerCase()))
    expect(found).toEqual([])
    // Consistent: the report and the node list name the same host with the same placeholder.
    const first = doc.report.nodes[0]!
    const listed = doc.nodes.find((n) => n.id === first.id)!
    expect(listed.host).toBe(first.host)
    expect(first.host).toMatch(/^https:\/\/ip-\d+:\d+$/)
  })
})
