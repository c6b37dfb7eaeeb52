// Issue 5 acceptance 3: the live state built from the simulators over real HTTPS on loopback holds
// every entity kind of spec 000 §3 with plausible values (through the real app: node API, poller,
// collectors, live state).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { State } from '../../../../src/shared/model/state.ts'
import { startSimulator, type Simulator } from '../../../../src/server/sim/index.ts'
import { startPbsSimulator, type PbsSimulator } from '../../../../src/server/sim/pbs/index.ts'
import { buildTestApp } from '../helpers.ts'

let sim: Simulator
let pbs: PbsSimulator
let ctx: Awaited<ReturnType<typeof buildTestApp>>
let state: State

async function addNode(body: object): Promise<void> {
  const res = await ctx.app.http.inject({ method: 'POST', url: '/api/config/nodes', payload: body })
  if (res.statusCode !== 201) throw new Error(`add node: ${res.statusCode} ${res.body}`)
}

beforeAll(async () => {
  // Two clusters: Ceph runs on the second, the degraded ZFS pool and PBS storage on the first.
  sim = await startSimulator({
    seed: 3,
    clusters: 2,
    nodesPerCluster: 3,
    guestsPerNode: 8,
    tickMs: 0,
    agentTimeoutMs: 200,
  })
  pbs = await startPbsSimulator({ seed: 3, tickMs: 0, guests: sim.guestsOf(sim.clusters[0]!.name) })
  ctx = await buildTestApp({ pollIntervalMs: 3_600_000 })
  for (const cluster of sim.clusters) {
    await addNode({
      type: 'pve',
      name: cluster.name,
      host: cluster.url,
      tokenName: cluster.tokenId,
      tokenValue: cluster.tokenSecret,
      fingerprint: cluster.fingerprint,
      verifySSL: false,
    })
  }
  const server = pbs.servers[0]!
  await addNode({
    type: 'pbs',
    name: server.name,
    host: server.url,
    tokenName: server.tokenId,
    tokenValue: server.tokenSecret,
    fingerprint: server.fingerprint,
    verifySSL: false,
  })
  // A few cycles: guest details, disks, snapshots and PBS content arrive on their own cadences.
  for (let i = 0; i < 8; i++) {
    await ctx.app.poller.pollNow()
    await new Promise((resolve) => setTimeout(resolve, 150))
  }
  const res = await ctx.app.http.inject({ method: 'GET', url: '/api/state?format=internal' })
  state = JSON.parse(res.body) as State
}, 60_000)

afterAll(async () => {
  await ctx?.close()
  await Promise.all([sim?.stop(), pbs?.stop()])
})

describe('the live state from the simulators', () => {
  it('has the nodes of both clusters, online, with versions, cores and cluster names', () => {
    expect(state.nodes).toHaveLength(6)
    for (const node of state.nodes) {
      expect(node.status).toBe('online')
      expect(node.pveVersion).toMatch(/^pve-manager\/\d/)
      expect(node.cpuInfo.cores).toBeGreaterThan(0)
      expect(node.isClusterMember).toBe(true)
      expect(node.memory.total).toBeGreaterThan(0)
    }
  })

  it('has VMs with agent data (filesystems, interfaces, OS) or a reason, and containers with interfaces', () => {
    const running = state.vms.filter((g) => g.status === 'running' && !g.template)
    expect(running.length).toBeGreaterThan(5)
    const withAgent = running.filter((g) => g.disks?.length && g.osName)
    expect(withAgent.length).toBeGreaterThan(0)
    for (const vm of withAgent) {
      expect(vm.disk.total).toBeGreaterThan(0)
      expect(vm.disk.usage).toBeGreaterThanOrEqual(0)
      expect(vm.networkInterfaces?.length).toBeGreaterThan(0)
      expect(
        vm.ipAddresses?.every((ip) => !/^(10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.)/.test(ip)),
      ).toBe(true)
    }
    // Every running VM without disk data says why, with one of the spec's reasons.
    for (const vm of running.filter((g) => g.disk.usage === -1)) {
      expect(vm.diskStatusReason).toMatch(
        /^(no-data|agent-disabled|agent-not-running|agent-timeout|permission-denied|no-filesystems|special-filesystems-only|agent-error)$/,
      )
    }
    const ct = state.containers.filter((g) => g.status === 'running')
    expect(ct.length).toBeGreaterThan(0)
    expect(ct.some((g) => (g.networkInterfaces?.length ?? 0) > 0)).toBe(true)
    expect(ct.every((g) => g.memory.swapTotal !== undefined)).toBe(true)
  })

  it('has storage per node, including a degraded ZFS pool with device errors', () => {
    expect(state.storage.length).toBeGreaterThan(6)
    for (const s of state.storage) {
      expect(s.id).toBe(`${s.instance}-${s.node}-${s.name}`)
      if (s.total > 0) expect(s.usage).toBeCloseTo((s.used / s.total) * 100, 0)
    }
    const degraded = state.storage.find((s) => s.zfsPool && s.zfsPool.state !== 'ONLINE')
    expect(degraded?.zfsPool?.devices.some((d) => d.errors > 0)).toBe(true)
  })

  it('has one Ceph cluster with monitors, OSDs, placement groups and pools', () => {
    expect(state.cephClusters).toHaveLength(1)
    const ceph = state.cephClusters[0]!
    expect(ceph.health).toMatch(/^HEALTH_(OK|WARN|ERR)$/)
    expect(ceph.numMons).toBeGreaterThanOrEqual(1)
    expect(ceph.numOsds).toBeGreaterThan(0)
    expect(ceph.numPGs).toBeGreaterThan(0)
    expect(ceph.totalBytes).toBeGreaterThan(ceph.usedBytes)
    expect(ceph.pools.length).toBeGreaterThan(0)
  })

  it('has physical disks with health, wear and size', () => {
    expect(state.physicalDisks.length).toBeGreaterThanOrEqual(6)
    for (const disk of state.physicalDisks) {
      expect(disk.devPath).toMatch(/^\/dev\//)
      expect(disk.size).toBeGreaterThan(0)
      expect(['PASSED', 'OK', 'FAILED', 'UNKNOWN']).toContain(disk.health)
    }
    expect(state.physicalDisks.some((d) => d.health === 'FAILED')).toBe(true)
  })

  it('has the backup server with datastores and deduplication, and its backups', () => {
    expect(state.pbs).toHaveLength(1)
    const server = state.pbs[0]!
    expect(server.status).toBe('online')
    expect(server.version).not.toBe('')
    expect(server.datastores.length).toBeGreaterThan(0)
    expect(server.datastores.some((d) => (d.deduplicationFactor ?? 0) > 1)).toBe(true)
    expect(state.pbsBackups.length).toBeGreaterThan(10)
    expect(state.pbsBackups.some((b) => b.verified)).toBe(true)
    expect(state.pbsBackups.some((b) => !b.verified)).toBe(true)
    expect(state.pbsBackups.some((b) => b.namespace !== '')).toBe(true)
  })

  it('has PVE backups: storage backups, guest snapshots and vzdump tasks', () => {
    const { storageBackups, guestSnapshots, backupTasks } = state
    expect(storageBackups.length).toBeGreaterThan(0)
    expect(storageBackups.every((b) => b.type !== 'unknown' && b.ctime > 0)).toBe(true)
    expect(storageBackups.some((b) => b.isPBS)).toBe(true)
    expect(guestSnapshots.length).toBeGreaterThan(0)
    expect(guestSnapshots.every((s) => s.name !== 'current')).toBe(true)
    expect(backupTasks.length).toBeGreaterThan(0)
    expect(backupTasks.every((t) => t.type === 'vzdump' && t.startTime > 0)).toBe(true)
  })
})
