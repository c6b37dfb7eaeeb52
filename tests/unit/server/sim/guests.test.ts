import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSimulator } from '../../../../src/server/sim/index.ts'
import type { SimCluster, Simulator } from '../../../../src/server/sim/index.ts'
import { START_MS, callApi, findAddresses, getData, isSafeAddress } from './helpers.ts'

type Entry = Record<string, unknown>

describe('simulated guest endpoints', () => {
  let sim: Simulator
  let alpha: SimCluster
  let bravo: SimCluster
  let resources: Entry[]

  beforeAll(async () => {
    sim = await startSimulator({
      seed: 3,
      clusters: 2,
      nodesPerCluster: 3,
      guestsPerNode: 40,
      tickMs: 0,
      agentTimeoutMs: 50,
      now: () => START_MS,
    })
    alpha = sim.clusters[0]!
    bravo = sim.clusters[1]!
    resources = await getData(alpha, '/cluster/resources?type=vm')
  })
  afterAll(async () => {
    await sim.stop()
  })

  const pick = (type: string, status: string, node?: string): Entry =>
    resources.find(
      (g) =>
        g.type === type &&
        g.status === status &&
        g.template === 0 &&
        (node === undefined || g.node === node),
    )!

  it('lists the QEMU guests of a node with the same numbers as /cluster/resources', async () => {
    const list = await getData(alpha, '/nodes/alpha-pve1/qemu')
    const expected = resources.filter((g) => g.node === 'alpha-pve1' && g.type === 'qemu')
    expect(list.map((g) => g.vmid).sort()).toEqual(expected.map((g) => g.vmid).sort())
    for (const g of list) {
      const r = expected.find((e) => e.vmid === g.vmid)!
      expect(g).toMatchObject({
        name: r.name,
        status: r.status,
        mem: r.mem,
        netin: r.netin,
        cpus: r.maxcpu,
      })
      expect(g.disk).toBe(0)
      expect('id' in g || 'node' in g || 'type' in g).toBe(false)
      // `template` only appears on templates; `pid` only on running VMs.
      if ('template' in g) expect(g.template).toBe(1)
      expect('pid' in g).toBe(g.status === 'running')
    }
  })

  it('adds QMP details to running VMs only with full=1', async () => {
    const plain = await getData(alpha, '/nodes/alpha-pve1/qemu')
    const full = await getData(alpha, '/nodes/alpha-pve1/qemu?full=1')
    const running = full.find((g) => g.status === 'running')!
    expect(running).toMatchObject({ qmpstatus: 'running' })
    expect(running.nics).toBeTypeOf('object')
    expect(plain.some((g) => 'qmpstatus' in g || 'blockstat' in g)).toBe(false)
    expect((await callApi(alpha, '/nodes/alpha-pve1/qemu?full=maybe')).status).toBe(400)
  })

  it('lists containers with string vmids, swap and maxswap, as pve-container does', async () => {
    const list = await getData(alpha, '/nodes/alpha-pve2/lxc')
    expect(list.length).toBeGreaterThan(0)
    for (const c of list) {
      expect(typeof c.vmid).toBe('string')
      expect(c.type).toBe('lxc')
      expect(typeof c.swap).toBe('number')
      expect(c.maxswap as number).toBeGreaterThan(0)
    }
  })

  it('adds memhost and pressure figures to PVE 9 QEMU lists only', async () => {
    const pve8 = await getData(alpha, '/nodes/alpha-pve1/qemu')
    const pve9 = await getData(bravo, '/nodes/bravo-pve1/qemu')
    expect(pve8.some((g) => 'memhost' in g)).toBe(false)
    expect(pve9.every((g) => 'memhost' in g)).toBe(true)
    expect(pve9.filter((g) => g.status === 'running').every((g) => 'pressurecpusome' in g)).toBe(
      true,
    )
  })

  it('renders a running VM status/current with ha, blockstat, nics and a balloon driver when it has one', async () => {
    const vms = resources.filter((g) => g.type === 'qemu' && g.status === 'running')
    const statuses = await Promise.all(
      vms.map((g) =>
        getData<Entry>(alpha, `/nodes/${String(g.node)}/qemu/${String(g.vmid)}/status/current`),
      ),
    )
    for (const [i, s] of statuses.entries()) {
      const g = vms[i]!
      expect(s).toMatchObject({
        vmid: g.vmid,
        status: 'running',
        qmpstatus: 'running',
        mem: g.mem,
        netin: g.netin,
      })
      expect(s.ha).toMatchObject({ managed: g.hastate === undefined ? 0 : 1 })
      const nics = s.nics as Record<string, Entry>
      expect(nics[`tap${String(g.vmid)}i0`]).toEqual({ netin: g.netin, netout: g.netout })
      const scsi0 = (s.blockstat as Record<string, Entry>).scsi0!
      expect(scsi0.rd_bytes as number).toBeLessThanOrEqual(g.diskread as number)
      if ('ballooninfo' in s) {
        const info = s.ballooninfo as Entry
        expect(s.freemem).toBe(info.free_mem)
        expect(info.total_mem as number).toBeLessThanOrEqual(info.max_mem as number)
      }
      if ('agent' in s) expect(s.agent).toBe(1)
    }
    // Most VMs have a balloon driver and an agent configured; some have neither.
    expect(statuses.filter((s) => 'ballooninfo' in s).length).toBeGreaterThan(statuses.length / 2)
    expect(statuses.some((s) => !('ballooninfo' in s))).toBe(true)
    expect(statuses.some((s) => !('agent' in s))).toBe(true)
  })

  it('renders a stopped VM as qmpstatus stopped with zeroed gauges', async () => {
    const g = pick('qemu', 'stopped')
    const s = await getData<Entry>(
      alpha,
      `/nodes/${String(g.node)}/qemu/${String(g.vmid)}/status/current`,
    )
    expect(s).toMatchObject({ status: 'stopped', qmpstatus: 'stopped', cpu: 0, mem: 0, uptime: 0 })
    expect('ballooninfo' in s || 'pid' in s || 'nics' in s).toBe(false)
  })

  it('renders container status/current with a numeric vmid, swap, maxswap and ha', async () => {
    const g = pick('lxc', 'running')
    const s = await getData<Entry>(
      alpha,
      `/nodes/${String(g.node)}/lxc/${String(g.vmid)}/status/current`,
    )
    expect(s).toMatchObject({
      vmid: g.vmid,
      type: 'lxc',
      status: 'running',
      disk: g.disk,
      mem: g.mem,
    })
    expect(typeof s.swap).toBe('number')
    expect(typeof s.maxswap).toBe('number')
    expect(s.ha).toBeTypeOf('object')
  })

  it("fails a guest asked for on the wrong node like PVE's missing config file", async () => {
    const g = pick('qemu', 'running', 'alpha-pve1')
    const wrong = await callApi(alpha, `/nodes/alpha-pve2/qemu/${String(g.vmid)}/status/current`)
    expect(wrong.status).toBe(500)
    expect(wrong.statusText).toBe(
      `Configuration file 'nodes/alpha-pve2/qemu-server/${String(g.vmid)}.conf' does not exist`,
    )
    expect(wrong.body).toEqual({ data: null })
    const asLxc = await callApi(alpha, `/nodes/alpha-pve1/lxc/${String(g.vmid)}/status/current`)
    expect(asLxc.statusText).toBe(
      `Configuration file 'nodes/alpha-pve1/lxc/${String(g.vmid)}.conf' does not exist`,
    )
    const bad = await callApi(alpha, '/nodes/alpha-pve1/qemu/abc/status/current')
    expect(bad.status).toBe(400)
  })

  it('answers 595 for the guests of an offline node and serves them again once it is back', async () => {
    const g = pick('lxc', 'running', 'alpha-pve3')
    const path = `/nodes/alpha-pve3/lxc/${String(g.vmid)}/status/current`
    sim.setNodeOnline('alpha', 'alpha-pve3', false)
    try {
      for (const p of [
        path,
        '/nodes/alpha-pve3/qemu',
        `/nodes/alpha-pve3/lxc/${String(g.vmid)}/snapshot`,
      ]) {
        const reply = await callApi(alpha, p)
        expect(reply.status).toBe(595)
        expect(reply.statusText).toBe('Connection refused')
      }
    } finally {
      sim.setNodeOnline('alpha', 'alpha-pve3', true)
    }
    expect((await callApi(alpha, path)).status).toBe(200)
  })

  it("lists snapshots in order with parents, vmstate for QEMU only, and PVE's current entry last", async () => {
    const withSnapshots: Entry[][] = []
    for (const g of resources.filter((r) => r.template === 0)) {
      const list = await getData(
        alpha,
        `/nodes/${String(g.node)}/${String(g.type)}/${String(g.vmid)}/snapshot`,
      )
      const current = list[list.length - 1]!
      expect(current).toMatchObject({
        name: 'current',
        description: 'You are here!',
        running: g.status === 'running' ? 1 : 0,
      })
      expect(current.digest).toMatch(/^[0-9a-f]{40}$/)
      if (list.length > 1) {
        withSnapshots.push(list)
        const snaps = list.slice(0, -1)
        expect(current.parent).toBe(snaps[snaps.length - 1]!.name)
        for (const [i, s] of snaps.entries()) {
          expect(typeof s.snaptime).toBe('number')
          expect(typeof s.description).toBe('string')
          expect('vmstate' in s).toBe(g.type === 'qemu')
          if (i === 0) expect('parent' in s).toBe(false)
          else expect(s.parent).toBe(snaps[i - 1]!.name)
          if (i > 0)
            expect(s.snaptime as number).toBeGreaterThanOrEqual(snaps[i - 1]!.snaptime as number)
        }
      } else expect('parent' in current).toBe(false)
    }
    // A minority of guests carry 1-3 snapshots.
    const share = withSnapshots.length / resources.filter((r) => r.template === 0).length
    expect(share).toBeGreaterThan(0.05)
    expect(share).toBeLessThan(0.5)
    expect(withSnapshots.every((l) => l.length >= 2 && l.length <= 4)).toBe(true)
  })

  it('renders container interfaces in the PVE 8 shape and the PVE 9 shape, with loopback addresses only', async () => {
    const a = pick('lxc', 'running')
    const v8 = await getData(alpha, `/nodes/${String(a.node)}/lxc/${String(a.vmid)}/interfaces`)
    expect(v8.map((i) => i.name)).toEqual(['lo', 'eth0'])
    expect(v8[0]).toEqual({
      name: 'lo',
      hwaddr: '00:00:00:00:00:00',
      inet: '127.0.0.1/8',
      inet6: '::1/128',
    })
    expect(v8[1]!.hwaddr).toMatch(/^bc:24:11(:[0-9a-f]{2}){3}$/)
    expect(v8[1]!.inet).toMatch(/^127\.\d+\.\d+\.\d+\/\d+$/)
    expect('ip-addresses' in v8[1]!).toBe(false)

    const bravoGuests = await getData(bravo, '/cluster/resources?type=vm')
    const b = bravoGuests.find((g) => g.type === 'lxc' && g.status === 'running')!
    const v9 = await getData(bravo, `/nodes/${String(b.node)}/lxc/${String(b.vmid)}/interfaces`)
    const eth0 = v9[1]!
    expect(eth0['hardware-address']).toBe(eth0.hwaddr)
    const addresses = eth0['ip-addresses'] as Entry[]
    expect(addresses[0]).toMatchObject({ 'ip-address-type': 'ipv4', prefix: 24 })
    for (const address of findAddresses([v8, v9]))
      expect(isSafeAddress(address), address).toBe(true)
  })

  it('answers null interfaces for a stopped container', async () => {
    const g = pick('lxc', 'stopped')
    const reply = await callApi(alpha, `/nodes/${String(g.node)}/lxc/${String(g.vmid)}/interfaces`)
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual({ data: null })
  })
})
