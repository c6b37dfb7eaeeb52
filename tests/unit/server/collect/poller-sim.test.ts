// The poller against the real simulator (src/server/sim): guest details and agent data, backup
// jobs and task logs (issue 26), a node going down, and failover to another member when the configured member's API stops answering. The simulator renders status/current, LXC interfaces and the guest agent with
// per-guest behaviour (answering, slow, not running, not configured, hanging).
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import type { Guest } from '../../../../src/shared/model/state.ts'
import {
  createPoller,
  type CollectedState,
  type Poller,
} from '../../../../src/server/collect/poller.ts'
import { isLinkLocal, isLoopback } from '../../../../src/server/collect/pve-guest-details.ts'
import { startSimulator, type Simulator } from '../../../../src/server/sim/index.ts'
import { simEndpoint } from '../sim-endpoint.ts'

const REASONS = new Set([
  'agent-not-running',
  'agent-timeout',
  'permission-denied',
  'agent-disabled',
  'no-filesystems',
  'special-filesystems-only',
  'agent-error',
])

let sim: Simulator
const pollers: Poller[] = []

beforeAll(async () => {
  // Slow agents answer after 0.5 s, hanging ones hold the call 2 s: past our 1 s agent budget.
  sim = await startSimulator({
    seed: 7,
    clusters: 1,
    nodesPerCluster: 3,
    guestsPerNode: 20,
    tickMs: 0,
    agentTimeoutMs: 2_000,
  })
})

afterAll(async () => {
  await sim.stop()
})

afterEach(async () => {
  await Promise.all(pollers.splice(0).map((p) => p.stop()))
})

function setup() {
  const cluster = sim.clusters[0]!
  const states: CollectedState[] = []
  // A short agent budget: the simulator's hanging agents then cost the test one second each.
  const poller = createPoller({
    onState: (s) => states.push(s),
    guestDetails: { timeoutMs: 1_000 },
  })
  pollers.push(poller)
  poller.setEndpoints([simEndpoint(cluster)])
  return { poller, cluster, last: () => states.at(-1)! }
}

const runningVms = (state: CollectedState): Guest[] =>
  state.vms.filter((g) => g.status === 'running' && !g.template)

describe('poller against the simulator', () => {
  it('lands agent data within a few cycles and explains every VM without it', async () => {
    const t = setup()
    await vi.waitFor(
      async () => {
        sim.tick()
        await t.poller.pollNow()
        const vms = runningVms(t.last())
        expect(vms.length).toBeGreaterThan(0)
        // Every running VM has filesystems or a reason other than "nothing asked yet".
        expect(vms.filter((g) => !g.disks && g.diskStatusReason === 'no-data')).toEqual([])
      },
      { timeout: 25_000, interval: 50 },
    )
    const state = t.last()
    const vms = runningVms(state)
    const withDisks = vms.filter((g) => g.disks && g.disks.length > 0)
    expect(withDisks.length).toBeGreaterThan(0)
    for (const vm of withDisks) {
      expect(vm.disk.usage).toBeGreaterThanOrEqual(0)
      expect(vm.diskStatusReason).toBeUndefined()
      // Pseudo filesystems never count: no snap loops, overlays or the EFI partition.
      for (const disk of vm.disks!) {
        expect(['squashfs', 'overlay', 'tmpfs']).not.toContain(disk.type)
        expect(disk.mountpoint).not.toBe('/boot/efi')
        expect(disk.mountpoint).not.toBe('System Reserved')
      }
      expect(vm.disk.total).toBe(vm.disks!.reduce((sum, d) => sum + d.total, 0))
      for (const ip of vm.ipAddresses ?? []) {
        expect(isLoopback(ip) || isLinkLocal(ip)).toBe(false)
      }
      expect(vm.networkInterfaces?.some((n) => n.name === 'lo')).toBe(false)
    }
    expect(withDisks.some((g) => g.osName)).toBe(true)
    for (const vm of vms.filter((g) => !g.disks)) {
      expect(vm.disk.usage).toBe(-1)
      expect(REASONS).toContain(vm.diskStatusReason)
    }
    const containers = state.containers.filter((g) => g.status === 'running')
    expect(containers.length).toBeGreaterThan(0)
    expect(containers.every((g) => g.memory.swapTotal !== undefined)).toBe(true)
    expect(containers.some((g) => (g.networkInterfaces ?? []).length > 0)).toBe(true)

    // The slow collectors (storage, backups) have had their first read by now.
    expect(state.backupsCollected).toBe(true)
    expect(state.storage.length).toBeGreaterThan(0)

    const perf = state.performance
    expect(Object.keys(perf.apiCallDuration)).toContain('cluster/resources')
    expect(perf.cacheHits).toBeGreaterThan(0)
    expect(perf.cacheMisses).toBeGreaterThan(0)
  })

  it('shows the guests of a node that went down as inactive, without agent data', async () => {
    const t = setup()
    for (let i = 0; i < 3; i++) {
      sim.tick()
      await t.poller.pollNow()
    }
    // A node that runs VMs now: the simulator's random events (a guest stopped, a node rebooted)
    // follow the real clock, so on a slow machine any fixed node may have none at this moment.
    const down = t.cluster.nodeNames.find((n) =>
      t.last().vms.some((g) => g.node === n && g.status === 'running'),
    )
    const before = t.last().vms.filter((g) => g.node === down && g.status === 'running')
    expect(before.length).toBeGreaterThan(0)

    sim.setNodeOnline(t.cluster.name, down!, false)
    sim.tick()
    await t.poller.pollNow()
    const state = t.last()
    expect(state.nodes.find((n) => n.name === down)).toMatchObject({ status: 'offline' })
    expect(state.connectionHealth[t.cluster.name]).toBe(true)
    for (const old of before) {
      const guest = state.vms.find((g) => g.vmid === old.vmid)!
      expect(guest.status).not.toBe('running')
      expect(guest).toMatchObject({ cpu: 0, uptime: 0, networkIn: 0, networkOut: 0 })
      expect(guest.disks).toBeUndefined()
      expect(guest.ipAddresses).toBeUndefined()
      expect(guest.osName).toBeUndefined()
    }
    // The other node keeps its live guests.
    expect(runningVms(state).some((g) => g.node !== down)).toBe(true)

    sim.setNodeOnline(t.cluster.name, down!, true)
    await vi.waitFor(
      async () => {
        sim.tick()
        await t.poller.pollNow()
        const back = runningVms(t.last()).filter((g) => g.node === down)
        expect(back.length).toBeGreaterThan(0)
        expect(t.last().nodes.find((n) => n.name === down)?.status).toBe('online')
      },
      { timeout: 25_000, interval: 50 },
    )
  })

  it('fails over to another member within one cycle and returns to the configured host', async () => {
    const t = setup()
    const [first] = t.cluster.nodeNames
    // The simulator's random outages (started by the ticks of the tests before) may still hold a
    // member down: bring every member back, and tick no more, before reading the membership.
    for (const name of t.cluster.nodeNames) sim.setNodeOnline(t.cluster.name, name, true)
    await t.poller.pollNow()
    const before = t.poller.endpointInfo('sim-0')!
    expect(before).toMatchObject({ activeUrl: t.cluster.url, isCluster: true })
    // The configured member is shown at the configured URL, the others at their own address.
    expect(before.members.map((m) => m.Host)).toEqual([
      t.cluster.url,
      ...t.cluster.endpoints.slice(1).map((e) => e.url),
    ])
    expect(before.members.every((m) => m.Online)).toBe(true)

    await sim.setEndpointReachable(t.cluster.name, first!, false)
    try {
      sim.tick()
      await t.poller.pollNow()
      const state = t.last()
      expect(state.connectionHealth[t.cluster.name]).toBe(true)
      const active = t.poller.endpointInfo('sim-0')!.activeUrl
      expect(t.cluster.endpoints.slice(1).map((e) => e.url)).toContain(active)
      // Only the first member's API is down: its node and guests are still live.
      expect(state.nodes.map((n) => n.status)).toEqual(['online', 'online', 'online'])
      expect(runningVms(state).some((g) => g.node === first)).toBe(true)
    } finally {
      await sim.setEndpointReachable(t.cluster.name, first!, true)
    }
    await vi.waitFor(
      async () => {
        sim.tick()
        await t.poller.pollNow()
        expect(t.poller.endpointInfo('sim-0')?.activeUrl).toBe(t.cluster.url)
      },
      { timeout: 15_000, interval: 50 },
    )
    expect(t.last().connectionHealth[t.cluster.name]).toBe(true)
  })

  it('collects backup jobs, coverage and a failed task with its guests and log tail', async () => {
    const t = setup()
    await vi.waitFor(
      async () => {
        await t.poller.pollNow()
        const state = t.last()
        expect(state.backupJobs.length).toBeGreaterThan(0)
        expect(state.backupCoverage).toHaveLength(1)
        expect(state.backupTasks.some((x) => x.status === 'job errors' && x.logTail)).toBe(true)
      },
      { timeout: 25_000, interval: 50 },
    )
    const state = t.last()
    const nightly = state.backupJobs[0]!
    expect(nightly).toMatchObject({ instance: t.cluster.name, all: true, enabled: true })
    expect(state.backupJobs.some((j) => !j.enabled)).toBe(true)
    const failed = state.backupTasks.find((x) => x.status === 'job errors' && x.logTail)!
    expect(failed.jobId).toBe(nightly.jobId)
    expect(failed.storage).toBe(nightly.storage)
    expect(failed.guests?.some((g) => !g.ok && g.error)).toBe(true)
    expect(failed.logTail?.at(-1)).toBe('TASK ERROR: job errors')
    expect(nightly.lastRun?.upid).toMatch(/^UPID:/)
    // The demo's rule alerts on a production guest in no job: the simulator has one.
    const uncovered = new Set(state.backupCoverage[0]!.notBackedUp.map((g) => g.vmid))
    const guests = [...state.vms, ...state.containers]
    expect(guests.some((g) => uncovered.has(g.vmid) && (g.tags ?? []).includes('production'))).toBe(
      true,
    )
  })
})
