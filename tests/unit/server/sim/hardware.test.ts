import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSimulator } from '../../../../src/server/sim/index.ts'
import type { SimCluster, Simulator } from '../../../../src/server/sim/index.ts'
import { START_MS, callApi, getData } from './helpers.ts'

type Entry = Record<string, unknown>

interface NodeDisks {
  cluster: SimCluster
  node: string
  disks: Entry[]
}

describe('simulated physical disks and ZFS', () => {
  let sim: Simulator
  let estate: NodeDisks[]

  beforeAll(async () => {
    sim = await startSimulator({
      seed: 3,
      clusters: 3,
      nodesPerCluster: 3,
      guestsPerNode: 10,
      tickMs: 0,
      now: () => START_MS,
    })
    estate = []
    for (const cluster of sim.clusters) {
      for (const node of cluster.nodeNames) {
        estate.push({ cluster, node, disks: await getData(cluster, `/nodes/${node}/disks/list`) })
      }
    }
  })
  afterAll(async () => {
    await sim.stop()
  })

  const allDisks = (): Entry[] => estate.flatMap((n) => n.disks)

  it("lists 2-6 disks per node with PVE's fields and quirks", () => {
    for (const { disks } of estate) {
      expect(disks.length).toBeGreaterThanOrEqual(2)
      expect(disks.length).toBeLessThanOrEqual(6)
      for (const d of disks) {
        expect(['nvme', 'ssd', 'hdd', 'usb']).toContain(d.type)
        expect(['PASSED', 'OK', 'FAILED', 'UNKNOWN']).toContain(d.health)
        expect(String(d.devpath)).toMatch(/^\/dev\/(nvme\d+n1|sd[a-z])$/)
        expect(String(d.by_id_link)).toMatch(/^\/dev\/disk\/by-id\//)
        expect(typeof d.size).toBe('number')
        if (d.type === 'hdd' || d.type === 'usb') expect(d.wearout).toBe('N/A')
        else expect(typeof d.wearout).toBe('number')
        if (d.type === 'hdd') expect(Number(d.rpm)).toBeGreaterThan(0)
        // OSD ids are strings, the "no OSD" -1 is a number, and osdid-list is null then.
        if (d.osdid === -1) expect(d['osdid-list']).toBeNull()
        else expect(d['osdid-list']).toEqual([d.osdid])
      }
    }
    const disks = allDisks()
    expect(disks.some((d) => typeof d.rpm === 'string')).toBe(true)
    expect(disks.some((d) => d.type === 'nvme')).toBe(true)
    expect(disks.some((d) => d.type === 'hdd')).toBe(true)
  })

  it('has exactly one worn-out SSD (wearout below 10) and exactly one failed disk in the estate', () => {
    const worn = allDisks().filter((d) => typeof d.wearout === 'number' && d.wearout < 10)
    expect(worn).toHaveLength(1)
    expect(['ssd', 'nvme']).toContain(worn[0]!.type)
    const failed = allDisks().filter((d) => d.health === 'FAILED')
    expect(failed).toHaveLength(1)
  })

  it('answers SMART data: ATA attributes with a temperature, NVMe text with a Temperature line', async () => {
    let ata = 0
    let nvme = 0
    for (const { cluster, node, disks } of estate) {
      for (const d of disks) {
        const smart = await getData<Entry>(
          cluster,
          `/nodes/${node}/disks/smart?disk=${String(d.devpath)}`,
        )
        expect(smart.health).toBe(d.health)
        if (d.type === 'nvme') {
          nvme++
          expect(smart.type).toBe('text')
          expect(String(smart.text)).toMatch(/\nTemperature:\s+\d+ Celsius\n/)
          expect(smart.wearout).toBe(d.wearout)
        } else if (smart.type === 'ata') {
          ata++
          const attributes = smart.attributes as Entry[]
          const temp = attributes.find((a) => a.id === '194')!
          expect(temp.name).toBe('Temperature_Celsius')
          expect(String(temp.raw)).toMatch(/^\d+ \(Min\/Max \d+\/\d+\)$/)
          expect(attributes.find((a) => a.id === '  5')).toBeDefined()
          if (d.health === 'FAILED')
            expect(attributes.some((a) => a.fail === 'FAILING_NOW')).toBe(true)
        } else if (smart.type === 'text') {
          expect(String(smart.text)).toMatch(/Current Drive Temperature:\s+\d+ C/)
          expect(d.health).toBe('OK')
        }
      }
    }
    expect(ata).toBeGreaterThan(0)
    expect(nvme).toBeGreaterThan(0)
    const { cluster, node } = estate[0]!
    const missing = await callApi(cluster, `/nodes/${node}/disks/smart`)
    expect(missing.status).toBe(400)
    expect((missing.body as { errors: Entry }).errors.disk).toBe(
      'property is missing and it is not optional',
    )
    const unknown = await callApi(cluster, `/nodes/${node}/disks/smart?disk=/dev/sdz`)
    expect(unknown.status).toBe(500)
    expect(unknown.statusText).toBe('not a valid block device')
  })

  it('lists ZFS pools on ZFS nodes only, each backing a zfspool storage of the same name', async () => {
    let zfsNodes = 0
    for (const { cluster, node } of estate) {
      const pools = await getData(cluster, `/nodes/${node}/disks/zfs`)
      const storages = await getData(cluster, `/nodes/${node}/storage`)
      const zfspool = storages.filter((s) => s.type === 'zfspool')
      if (pools.length === 0) {
        expect(zfspool).toEqual([])
        continue
      }
      zfsNodes++
      for (const p of pools) {
        expect(p.size as number).toBe((p.alloc as number) + (p.free as number))
        expect(p.dedup).toBe(1)
        expect(['ONLINE', 'DEGRADED']).toContain(p.health)
      }
      const named = zfspool.filter((s) => pools.some((p) => p.name === s.storage))
      expect(named.length).toBeGreaterThan(0)
      for (const s of named) {
        const pool = pools.find((p) => p.name === s.storage)!
        expect(s.total as number).toBeLessThan(pool.size as number)
      }
    }
    expect(zfsNodes).toBeGreaterThan(0)
  })

  it('has one DEGRADED pool whose FAULTED member has errors and fails SMART', async () => {
    const degraded: { n: NodeDisks; detail: Entry }[] = []
    for (const n of estate) {
      for (const p of await getData(n.cluster, `/nodes/${n.node}/disks/zfs`)) {
        const detail = await getData<Entry>(
          n.cluster,
          `/nodes/${n.node}/disks/zfs/${String(p.name)}`,
        )
        const tree = detail.children as Entry[]
        expect(tree[0]!.name).toBe(p.name)
        expect(detail.state).toBe(p.health)
        expect(String(detail.scan)).toMatch(
          /^scrub repaired 0B in \d\d:\d\d:\d\d with 0 errors on \w{3} \w{3} [ \d]\d \d\d:\d\d:\d\d \d{4}$/,
        )
        if (detail.state === 'DEGRADED') degraded.push({ n, detail })
        else expect(detail.errors).toBe('No known data errors')
      }
    }
    expect(degraded).toHaveLength(1)
    const { n, detail } = degraded[0]!
    expect(String(detail.status)).toMatch(/faulted/)
    expect(typeof detail.action).toBe('string')
    const vdev = ((detail.children as Entry[])[0]!.children as Entry[])[0]!
    expect(String(vdev.name)).toMatch(/^(raidz1|mirror)-0$/)
    expect(vdev.state).toBe('DEGRADED')
    const leaves = vdev.children as Entry[]
    expect(leaves.every((l) => l.leaf === 1)).toBe(true)
    const faulted = leaves.filter((l) => l.state === 'FAULTED')
    expect(faulted).toHaveLength(1)
    const bad = faulted[0]!
    expect((bad.read as number) + (bad.write as number) + (bad.cksum as number)).toBeGreaterThan(0)
    expect(bad.cksum as number).toBeGreaterThan(0)
    expect(bad.msg).toBe('too many errors')
    const disk = n.disks.find((d) => String(d.by_id_link).endsWith(`/${String(bad.name)}`))!
    expect(disk.health).toBe('FAILED')
    const unknown = await callApi(n.cluster, `/nodes/${n.node}/disks/zfs/nopool`)
    expect(unknown.status).toBe(500)
  })
})
