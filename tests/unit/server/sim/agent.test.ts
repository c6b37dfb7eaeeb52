import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSimulator } from '../../../../src/server/sim/index.ts'
import type { SimCluster, Simulator } from '../../../../src/server/sim/index.ts'
import { START_MS, callApi, findAddresses, getData, isSafeAddress } from './helpers.ts'

type Entry = Record<string, unknown>

// A short agent timeout keeps the hanging agents quick; only the answer is asserted, never timing.
const OPTIONS = {
  clusters: 2,
  nodesPerCluster: 3,
  guestsPerNode: 120,
  tickMs: 0,
  agentTimeoutMs: 40,
  now: () => START_MS,
}

/** What a VM's agent said to get-osinfo, as one word per VM. */
async function classify(cluster: SimCluster, vms: Entry[]): Promise<string[]> {
  return Promise.all(
    vms.map(async (g) => {
      const reply = await callApi(
        cluster,
        `/nodes/${String(g.node)}/qemu/${String(g.vmid)}/agent/get-osinfo`,
      )
      if (reply.status === 200) return 'ok'
      if (reply.status === 403) return 'forbidden'
      if (reply.statusText === 'QEMU guest agent is not running') return 'not-running'
      if (reply.statusText === 'No QEMU guest agent configured') return 'none'
      if (reply.statusText.endsWith("qmp command 'guest-get-osinfo' failed - got timeout"))
        return 'timeout'
      if (reply.statusText === `VM ${String(g.vmid)} is not running`) return 'stopped'
      return `${reply.status} ${reply.statusText}`
    }),
  )
}

const share = (words: string[], word: string): number =>
  words.filter((w) => w === word).length / words.length

describe('simulated QEMU guest agent', () => {
  let sim: Simulator
  let alpha: SimCluster
  let bravo: SimCluster
  let alphaVms: Entry[]
  let alphaWords: string[]

  beforeAll(async () => {
    sim = await startSimulator({ seed: 21, ...OPTIONS })
    alpha = sim.clusters[0]!
    bravo = sim.clusters[1]!
    alphaVms = (await getData(alpha, '/cluster/resources?type=vm')).filter(
      (g) => g.type === 'qemu' && g.status === 'running',
    )
    alphaWords = await classify(alpha, alphaVms)
  })
  afterAll(async () => {
    await sim.stop()
  })

  it('gives running VMs the realistic mix of agent behaviour on a PVE 8 cluster', () => {
    expect(alphaVms.length).toBeGreaterThan(150)
    expect(share(alphaWords, 'ok')).toBeGreaterThan(0.62)
    expect(share(alphaWords, 'ok')).toBeLessThan(0.88)
    expect(share(alphaWords, 'not-running')).toBeGreaterThan(0.05)
    expect(share(alphaWords, 'not-running')).toBeLessThan(0.2)
    expect(share(alphaWords, 'none')).toBeGreaterThan(0.03)
    expect(share(alphaWords, 'none')).toBeLessThan(0.15)
    expect(share(alphaWords, 'timeout')).toBeGreaterThan(0.005)
    expect(share(alphaWords, 'timeout')).toBeLessThan(0.1)
    // PVE 8 has no VM.GuestAgent.Audit: no permission failures there.
    expect(alphaWords.filter((w) => !['ok', 'not-running', 'none', 'timeout'].includes(w))).toEqual(
      [],
    )
  })

  it('flags agent: 1 in status/current exactly when an agent is configured', async () => {
    for (const [i, g] of alphaVms.entries()) {
      const status = await getData<Entry>(
        alpha,
        `/nodes/${String(g.node)}/qemu/${String(g.vmid)}/status/current`,
      )
      expect('agent' in status, String(g.vmid)).toBe(alphaWords[i] !== 'none')
    }
  })

  it('keeps every VM on the same agent behaviour for a seed, and changes the mix with the seed', async () => {
    const again = await startSimulator({ seed: 21, ...OPTIONS })
    const other = await startSimulator({ seed: 22, ...OPTIONS })
    try {
      expect(await classify(again.clusters[0]!, alphaVms)).toEqual(alphaWords)
      const otherVms = (await getData(other.clusters[0]!, '/cluster/resources?type=vm')).filter(
        (g) => g.type === 'qemu' && g.status === 'running',
      )
      const otherWords = await classify(other.clusters[0]!, otherVms)
      expect(otherWords.join()).not.toBe(alphaWords.join())
    } finally {
      await again.stop()
      await other.stop()
    }
  })

  it('refuses about one VM in twenty on PVE 9 with the VM.GuestAgent.Audit permission error', async () => {
    const vms = (await getData(bravo, '/cluster/resources?type=vm')).filter(
      (g) => g.type === 'qemu',
    )
    const words = await classify(bravo, vms)
    expect(share(words, 'forbidden')).toBeGreaterThan(0.01)
    expect(share(words, 'forbidden')).toBeLessThan(0.12)
    const denied = vms[words.indexOf('forbidden')]!
    const reply = await callApi(
      bravo,
      `/nodes/${String(denied.node)}/qemu/${String(denied.vmid)}/agent/get-fsinfo`,
    )
    expect(reply.status).toBe(403)
    expect(reply.statusText).toBe(
      `Permission check failed (/vms/${String(denied.vmid)}, VM.GuestAgent.Audit)`,
    )
    expect(reply.body).toEqual({ data: null })
  })

  it("answers 500 'VM <id> is not running' for a stopped VM with an agent configured", async () => {
    const stopped = (await getData(alpha, '/cluster/resources?type=vm')).filter(
      (g) => g.type === 'qemu' && g.status === 'stopped',
    )
    const words = await classify(alpha, stopped)
    expect(words).toContain('stopped')
    expect(words.every((w) => w === 'stopped' || w === 'none')).toBe(true)
  })

  it('times a hanging agent out with a 500 naming the QMP command', async () => {
    const g = alphaVms[alphaWords.indexOf('timeout')]!
    const reply = await callApi(
      alpha,
      `/nodes/${String(g.node)}/qemu/${String(g.vmid)}/agent/network-get-interfaces`,
    )
    expect(reply.status).toBe(500)
    expect(reply.statusText).toBe(
      `VM ${String(g.vmid)} qmp command 'guest-network-get-interfaces' failed - got timeout`,
    )
    expect(reply.body).toEqual({ data: null })
  })

  it('wraps agent answers as data.result: Linux filesystems include pseudo filesystems and /boot/efi', async () => {
    const answering = alphaVms.filter((_g, i) => alphaWords[i] === 'ok')
    const all: Entry[] = []
    for (const g of answering) {
      const reply = await callApi(
        alpha,
        `/nodes/${String(g.node)}/qemu/${String(g.vmid)}/agent/get-fsinfo`,
      )
      expect(reply.status).toBe(200)
      const result = (reply.body as { data: { result: Entry[] } }).data.result
      expect(Array.isArray(result)).toBe(true)
      all.push(...result)
    }
    const types = new Set(all.map((f) => f.type))
    for (const type of ['ext4', 'vfat', 'NTFS', 'squashfs', 'overlay'])
      expect(types, type).toContain(type)
    const root = all.find((f) => f.mountpoint === '/')!
    expect(root['used-bytes'] as number).toBeLessThan(root['total-bytes'] as number)
    expect((root.disk as Entry[])[0]).toMatchObject({ 'bus-type': 'scsi', serial: 'drive-scsi0' })
    expect(all.some((f) => f.mountpoint === '/boot/efi')).toBe(true)
    expect(
      all.some((f) => f.mountpoint === 'C:\\' && String(f.name).startsWith('\\\\?\\Volume{')),
    ).toBe(true)
    // Windows' "System Reserved" volumes report no sizes at all.
    const reserved = all.filter((f) => f.mountpoint === 'System Reserved')
    expect(reserved.length).toBeGreaterThan(0)
    expect(reserved.every((f) => !('total-bytes' in f))).toBe(true)
  })

  it('reports interfaces with loopback or documentation addresses and counters that grow with the guest', async () => {
    const g = alphaVms.find((_g, i) => alphaWords[i] === 'ok')!
    const path = `/nodes/${String(g.node)}/qemu/${String(g.vmid)}/agent/network-get-interfaces`
    const before = (await getData<{ result: Entry[] }>(alpha, path)).result
    const names = before.map((i) => i.name)
    expect(names.some((n) => n === 'lo' || n === 'Loopback Pseudo-Interface 1')).toBe(true)
    const eth = before.find((i) => i.name !== 'lo' && !String(i.name).startsWith('Loopback'))!
    expect(eth['hardware-address']).toMatch(/^bc:24:11(:[0-9a-f]{2}){3}$/)
    const stats = eth.statistics as Entry
    expect(stats['rx-bytes']).toBe(g.netin)
    expect(stats['tx-bytes']).toBe(g.netout)

    const everything: unknown[] = []
    for (const vm of alphaVms.filter((_v, i) => alphaWords[i] === 'ok')) {
      everything.push(
        await getData(
          alpha,
          `/nodes/${String(vm.node)}/qemu/${String(vm.vmid)}/agent/network-get-interfaces`,
        ),
      )
    }
    const addresses = findAddresses(everything)
    expect(addresses.length).toBeGreaterThan(alphaVms.length)
    for (const address of addresses) expect(isSafeAddress(address), address).toBe(true)
    expect(addresses.some((a) => a.startsWith('2001:db8:'))).toBe(true)

    sim.tick(START_MS + 10_000)
    const after = (await getData<{ result: Entry[] }>(alpha, path)).result
    const ethAfter = after.find((i) => i.name === eth.name)!
    expect((ethAfter.statistics as Entry)['rx-bytes'] as number).toBeGreaterThan(
      stats['rx-bytes'] as number,
    )
  })

  it('reports the guest OS in get-osinfo, Linux and Windows', async () => {
    const answering = alphaVms.filter((_g, i) => alphaWords[i] === 'ok')
    const infos: Entry[] = []
    for (const g of answering.slice(0, 80)) {
      infos.push(
        (
          await getData<{ result: Entry }>(
            alpha,
            `/nodes/${String(g.node)}/qemu/${String(g.vmid)}/agent/get-osinfo`,
          )
        ).result,
      )
    }
    const ids = new Set(infos.map((i) => i.id))
    expect(ids).toContain('debian')
    expect(ids).toContain('mswindows')
    for (const info of infos) {
      expect(info.machine).toBe('x86_64')
      expect(typeof info['pretty-name']).toBe('string')
      expect(typeof info['kernel-release']).toBe('string')
      if (info.id === 'mswindows')
        expect(info).toMatchObject({ 'kernel-version': '10.0', variant: 'server' })
    }
  })

  it('answers 500 for a container or a VM on another node, and 501 for other agent commands', async () => {
    const ct = (await getData(alpha, '/cluster/resources?type=vm')).find((g) => g.type === 'lxc')!
    const reply = await callApi(
      alpha,
      `/nodes/${String(ct.node)}/qemu/${String(ct.vmid)}/agent/get-osinfo`,
    )
    expect(reply.status).toBe(500)
    expect(reply.statusText).toMatch(
      /^Configuration file 'nodes\/.+\/qemu-server\/\d+\.conf' does not exist$/,
    )
    const vm = alphaVms[0]!
    const other = await callApi(
      alpha,
      `/nodes/${String(vm.node)}/qemu/${String(vm.vmid)}/agent/exec`,
    )
    expect(other.status).toBe(501)
  })
})
