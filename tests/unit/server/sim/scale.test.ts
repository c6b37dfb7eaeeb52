import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSimulator } from '../../../../src/server/sim/index.ts'
import type { Simulator } from '../../../../src/server/sim/index.ts'
import { START_MS, getData } from './helpers.ts'

// Correctness at scale only; speed is measured by the benches, never asserted here.
describe('simulator at 100,000 guests', () => {
  let sim: Simulator
  beforeAll(async () => {
    sim = await startSimulator({
      seed: 9,
      clusters: 10,
      nodesPerCluster: 10,
      guestsPerNode: 1000,
      tickMs: 0,
      now: () => START_MS,
    })
  })
  afterAll(async () => {
    await sim.stop()
  })

  it('builds 100,000 guests and lists every one of them in /cluster/resources', async () => {
    expect(sim.guestCount()).toBe(100_000)
    let guests = 0
    const vmids = new Set<string>()
    for (const cluster of sim.clusters) {
      const data = await getData(cluster, '/cluster/resources')
      for (const entry of data) {
        if (entry.type !== 'qemu' && entry.type !== 'lxc') continue
        guests++
        vmids.add(`${cluster.name}/${String(entry.vmid)}`)
      }
    }
    expect(guests).toBe(100_000)
    // vmids are unique per cluster, and the template range 9000-9999 is never used by regular guests.
    expect(vmids.size).toBe(100_000)
  })

  it('answers per-guest endpoints by vmid at this size', async () => {
    const cluster = sim.clusters[7]!
    const guests = await getData(cluster, '/cluster/resources?type=vm')
    const vm = guests.find((g) => g.type === 'qemu' && g.status === 'running' && g.template === 0)!
    const ct = guests.find((g) => g.type === 'lxc' && g.status === 'running')!
    const vmStatus = await getData<Record<string, unknown>>(
      cluster,
      `/nodes/${String(vm.node)}/qemu/${String(vm.vmid)}/status/current`,
    )
    expect(vmStatus).toMatchObject({ vmid: vm.vmid, netin: vm.netin, status: 'running' })
    const ctStatus = await getData<Record<string, unknown>>(
      cluster,
      `/nodes/${String(ct.node)}/lxc/${String(ct.vmid)}/status/current`,
    )
    expect(ctStatus).toMatchObject({ vmid: ct.vmid, disk: ct.disk })
    const snapshots = await getData(
      cluster,
      `/nodes/${String(ct.node)}/lxc/${String(ct.vmid)}/snapshot`,
    )
    expect(snapshots[snapshots.length - 1]).toMatchObject({ name: 'current' })
    const backups = await getData(
      cluster,
      `/nodes/${String(vm.node)}/storage/local/content?content=backup&vmid=${String(vm.vmid)}`,
    )
    expect(backups.every((b) => b.vmid === vm.vmid)).toBe(true)
  })

  it('keeps serving a consistent estate after ticks', async () => {
    sim.tick(START_MS + 10_000)
    sim.tick(START_MS + 20_000)
    const cluster = sim.clusters[9]!
    const data = await getData(cluster, '/cluster/resources?type=vm')
    // A few guests may have been created or destroyed by the two ticks, never many.
    expect(Math.abs(data.length - 10_000)).toBeLessThan(50)
    expect(Math.abs(sim.guestCount() - 100_000)).toBeLessThan(200)
    const regular = data.filter((g) => g.template === 0).map((g) => g.vmid as number)
    expect(regular.some((v) => v >= 9000 && v < 10_000)).toBe(false)
  })
})
