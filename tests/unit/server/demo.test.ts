import { afterEach, describe, expect, it } from 'vitest'
import { createPveClient } from '../../../src/server/collect/pve-client.ts'
import { DEMO_SIM_NICE, startDemo, type DemoSimulators } from '../../../src/server/demo.ts'
import { buildTestApp } from './helpers.ts'
import { ownNice, threadNices } from './nice.ts'

// The simulator runs in a child process; under vitest it needs the TypeScript loader named.
const EXEC_ARGV = ['--import', 'tsx']
const SMALL = {
  seed: 3,
  clusters: 2,
  nodesPerCluster: 2,
  guestsPerNode: 5,
  basePort: 0,
  tickMs: 0,
  pbsInstances: 1,
  alertScenarios: true,
}

let cleanup: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const step of cleanup.reverse()) await step()
  cleanup = []
})

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

describe('startDemo', () => {
  it('serves the estate from a simulator process and registers every endpoint as a node', async () => {
    const { app, close } = await buildTestApp()
    cleanup.push(close)
    const demo: DemoSimulators = await startDemo(SMALL, app, { execArgv: EXEC_ARGV })
    cleanup.push(() => demo.stop())
    expect(demo.pid).not.toBe(process.pid)
    expect(demo.guests).toBe(2 * 2 * 5)
    const nodes = app.nodes.list()
    expect(nodes.map((n) => [n.type, n.name]).sort()).toEqual(
      [
        ['pbs', expect.any(String)],
        ['pve', expect.any(String)],
        ['pve', expect.any(String)],
      ].sort(),
    )
    // The registered URL, token and pinned fingerprint reach the simulator in the other process.
    const pve = app.nodes.endpoints().find((e) => e.type === 'pve')!
    const client = createPveClient({
      host: pve.host,
      auth: pve.auth,
      verifySSL: false,
      fingerprint: pve.fingerprint,
    })
    try {
      const resources = await client.get<Array<{ type: string }>>('/cluster/resources')
      expect(resources.filter((r) => r.type === 'qemu' || r.type === 'lxc')).toHaveLength(10)
    } finally {
      await client.close()
    }
  })

  it.runIf(process.platform === 'linux')(
    'runs every simulator thread below the server',
    async () => {
      const { app, close } = await buildTestApp()
      cleanup.push(close)
      const demo = await startDemo(SMALL, app, { execArgv: EXEC_ARGV })
      cleanup.push(() => demo.stop())
      const threads = threadNices(demo.pid)
      expect(threads.length).toBeGreaterThan(1)
      expect(new Set(threads)).toEqual(new Set([Math.min(19, ownNice() + DEMO_SIM_NICE)]))
    },
  )

  it('stops the simulator process on stop()', async () => {
    const { app, close } = await buildTestApp()
    cleanup.push(close)
    const demo = await startDemo({ ...SMALL, pbsInstances: 0 }, app, { execArgv: EXEC_ARGV })
    expect(processAlive(demo.pid)).toBe(true)
    await demo.stop()
    expect(processAlive(demo.pid)).toBe(false)
    await demo.stop()
  })
})
