// runDiagnostics checks endpoints at once: two loopback servers that accept a connection and say
// nothing both see their client before either check ends (no timing asserted: the test releases
// them itself once both are seen), and both end as Failed with an error.
import net from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import type { NodeConfigView } from '../../../../src/shared/model/node-config.ts'
import { createEmptyState } from '../../../../src/shared/model/state.ts'
import type { MonitoredEndpoint } from '../../../../src/server/collect/collected-state.ts'
import { runDiagnostics } from '../../../../src/server/diagnostics/run-diagnostics.ts'

interface Silent {
  port: number
  connected: Promise<void>
  /** Drop every connection and stop listening. */
  close(): Promise<void>
}

/** Accepts TCP connections and never answers. */
async function silentServer(): Promise<Silent> {
  const sockets = new Set<net.Socket>()
  let seen: () => void = () => {}
  const connected = new Promise<void>((resolve) => (seen = resolve))
  const server = net.createServer((socket) => {
    sockets.add(socket)
    seen()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    port: (server.address() as net.AddressInfo).port,
    connected,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
}

let servers: Silent[] = []
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()))
  servers = []
})

const view = (id: string, type: 'pve' | 'pbs', port: number): NodeConfigView => ({
  id,
  type,
  name: `${type}-${id}`,
  host: `https://127.0.0.1:${port}`,
  hasPassword: false,
  hasToken: true,
  verifySSL: false,
  status: 'error',
  monitorVMs: true,
  monitorContainers: true,
  monitorStorage: true,
  monitorBackups: true,
  monitorDatastores: true,
  monitorSyncJobs: true,
  monitorVerifyJobs: true,
  monitorPruneJobs: true,
  monitorGarbageJobs: true,
})

const endpoint = (v: NodeConfigView): MonitoredEndpoint => ({
  id: v.id,
  name: v.name,
  type: v.type,
  host: v.host,
  auth: { kind: 'token', tokenId: 'diag@pve!t', secret: 'secret-value-1234' },
  verifySSL: false,
})

describe('runDiagnostics', () => {
  it('checks every endpoint at once and reports the silent ones as failed', async () => {
    servers = [await silentServer(), await silentServer()]
    const nodes = [view('a', 'pve', servers[0]!.port), view('b', 'pbs', servers[1]!.port)]
    const noCreds = { ...view('c', 'pve', 1), hasToken: false }
    const run = runDiagnostics({
      version: '1.0.0',
      port: 7655,
      startedAt: 0,
      now: () => 5_000,
      nodes: () => [...nodes, noCreds],
      endpoints: () => nodes.map(endpoint),
      state: () => createEmptyState(0, '1.0.0'),
      websocketClients: () => 0,
      // Long enough that only the test's release ends the checks.
      checks: { requestMs: 120_000, deadlineMs: 120_000 },
    })
    await Promise.all(servers.map((s) => s.connected))
    await Promise.all(servers.map((s) => s.close()))
    const report = await run
    expect(report.nodes.map((n) => [n.name, n.connected, n.authMethod])).toEqual([
      ['pve-a', false, 'api_token'],
      ['pve-c', false, 'none'],
    ])
    expect(report.pbs.map((n) => [n.name, n.connected])).toEqual([['pbs-b', false]])
    for (const n of [...report.nodes, ...report.pbs]) expect(n.error).toMatch(/\S/)
    expect(report.connection).toMatchObject({ port: 7655, pveNodes: 2, pbsNodes: 1 })
    expect(report.uptime).toBe(5)
    expect(JSON.stringify(report)).not.toContain('secret-value-1234')
  })

  it('gives up on an endpoint that never answers at its deadline, with a timeout error', async () => {
    servers = [await silentServer()]
    const node = view('a', 'pve', servers[0]!.port)
    const report = await runDiagnostics({
      version: '1.0.0',
      port: 7655,
      startedAt: 0,
      now: () => 0,
      nodes: () => [node],
      endpoints: () => [endpoint(node)],
      state: () => createEmptyState(0, '1.0.0'),
      websocketClients: () => 0,
      checks: { requestMs: 200, deadlineMs: 300 },
    })
    expect(report.nodes[0]).toMatchObject({ connected: false })
    expect(report.nodes[0]!.error).toMatch(/timed out/)
    expect(report.recommendations[0]).toMatch(/^pve-a: check the host/)
  })
})
