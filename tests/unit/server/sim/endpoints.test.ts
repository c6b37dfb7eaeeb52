import { connect } from 'node:tls'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSimulator } from '../../../../src/server/sim/index.ts'
import type { SimCluster, Simulator } from '../../../../src/server/sim/index.ts'
import { START_MS, callApi, createManualClock, getData } from './helpers.ts'

type Entry = Record<string, unknown>

/** Walks a JSON value and collects every path whose value is null (PVE omits optional keys). */
function findNulls(value: unknown, path = '$'): string[] {
  if (value === null) return [path]
  if (Array.isArray(value)) return value.flatMap((v, i) => findNulls(v, `${path}[${i}]`))
  if (typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => findNulls(v, `${path}.${k}`))
  return []
}

describe('simulator endpoints', () => {
  const clock = createManualClock(START_MS)
  let sim: Simulator
  let alpha: SimCluster
  let bravo: SimCluster

  beforeAll(async () => {
    sim = await startSimulator({
      seed: 3,
      clusters: 2,
      nodesPerCluster: 3,
      guestsPerNode: 40,
      tickMs: 0,
      now: clock.now,
    })
    alpha = sim.clusters[0]!
    bravo = sim.clusters[1]!
  })
  afterAll(async () => {
    await sim.stop()
  })

  it('names clusters and nodes predictably and serves them on loopback', () => {
    expect(sim.clusters.map((c) => c.name)).toEqual(['alpha', 'bravo'])
    expect(alpha.nodeNames).toEqual(['alpha-pve1', 'alpha-pve2', 'alpha-pve3'])
    expect(alpha.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/)
    expect(alpha.standalone).toBe(false)
    expect(sim.guestCount()).toBe(2 * 3 * 40)
  })

  it('presents a certificate whose SHA-256 fingerprint is the advertised one', async () => {
    const url = new URL(alpha.url)
    const fingerprint = await new Promise<string>((resolve, reject) => {
      const socket = connect(
        { host: url.hostname, port: Number(url.port), rejectUnauthorized: false },
        () => {
          resolve(socket.getPeerCertificate().fingerprint256)
          socket.end()
        },
      )
      socket.on('error', reject)
    })
    expect(fingerprint).toBe(alpha.fingerprint)
    expect(alpha.fingerprint).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/)
  })

  it('reports the PVE version, 8.x on one cluster and 9.x on another', async () => {
    const a = await getData<Entry>(alpha, '/version')
    const b = await getData<Entry>(bravo, '/version')
    expect(a).toMatchObject({ version: '8.4.14', release: '8.4' })
    expect(b).toMatchObject({ version: '9.1.2', release: '9.1' })
    expect(a.repoid).toMatch(/^[0-9a-f]{16}$/)
  })

  it('answers with the exact PVE content type and a data envelope', async () => {
    const reply = await callApi(alpha, '/cluster/status')
    expect(reply.contentType).toBe('application/json;charset=UTF-8')
    expect(Object.keys(reply.body as object)).toEqual(['data'])
  })

  it('lists one cluster entry and one node entry per member in /cluster/status', async () => {
    const data = await getData(alpha, '/cluster/status')
    expect(data[0]).toEqual({
      type: 'cluster',
      id: 'cluster',
      name: 'alpha',
      nodes: 3,
      quorate: 1,
      version: 4,
    })
    const nodes = data.filter((e) => e.type === 'node')
    expect(nodes.map((n) => n.name)).toEqual(alpha.nodeNames)
    for (const node of nodes) {
      expect(node.ip).toMatch(/^127\.0\.0\.\d+$/)
      expect(node.online).toBe(1)
      expect([0, 1]).toContain(node.local)
      expect(typeof node.nodeid).toBe('number')
      expect(typeof node.level).toBe('string')
    }
    expect(nodes.filter((n) => n.local === 1)).toHaveLength(1)
  })

  it('renders guests in /cluster/resources with the real field set, 0/1 flags and no nulls', async () => {
    const data = await getData(alpha, '/cluster/resources')
    expect(findNulls(data)).toEqual([])
    const guests = data.filter((e) => e.type === 'qemu' || e.type === 'lxc')
    expect(guests).toHaveLength(3 * 40)
    for (const g of guests) {
      expect(g.id).toBe(`${g.type}/${g.vmid}`)
      expect(alpha.nodeNames).toContain(g.node)
      expect(['running', 'stopped']).toContain(g.status)
      expect([0, 1]).toContain(g.template)
      for (const key of ['cpu', 'maxcpu', 'mem', 'maxmem', 'disk', 'maxdisk', 'uptime'])
        expect(typeof g[key]).toBe('number')
      for (const key of ['netin', 'netout', 'diskread', 'diskwrite'])
        expect(Number.isInteger(g[key])).toBe(true)
      if (g.type === 'qemu') expect(g.disk).toBe(0)
      if (g.status === 'stopped') expect([g.cpu, g.mem, g.uptime, g.netin]).toEqual([0, 0, 0, 0])
      if ('tags' in g) expect(g.tags).toMatch(/^[a-z0-9-]+(;[a-z0-9-]+)*$/)
      expect(g.cpu as number).toBeLessThanOrEqual(1.05)
    }
    const qemuShare = guests.filter((g) => g.type === 'qemu').length / guests.length
    expect(qemuShare).toBeGreaterThan(0.4)
    expect(qemuShare).toBeLessThan(0.8)
    expect(guests.some((g) => g.type === 'lxc' && (g.disk as number) > 0)).toBe(true)
    expect(guests.some((g) => typeof g.tags === 'string' && (g.tags as string).includes(';'))).toBe(
      true,
    )
    const stopped = guests.filter((g) => g.status === 'stopped').length / guests.length
    expect(stopped).toBeGreaterThan(0.05)
    expect(stopped).toBeLessThan(0.4)
  })

  it('flags templates at vmid 9000 and above, always stopped', async () => {
    const guests = await getData(alpha, '/cluster/resources?type=vm')
    const templates = guests.filter((g) => g.template === 1)
    expect(templates.length).toBeGreaterThan(0)
    for (const t of templates) {
      expect(t.vmid as number).toBeGreaterThanOrEqual(9000)
      expect(t.status).toBe('stopped')
    }
    const regular = guests.filter((g) => g.template === 0).map((g) => g.vmid as number)
    expect(Math.min(...regular)).toBe(100)
  })

  it('adds memhost to guests only on PVE 9', async () => {
    const a = await getData(alpha, '/cluster/resources?type=vm')
    const b = await getData(bravo, '/cluster/resources?type=vm')
    expect(a.some((g) => 'memhost' in g)).toBe(false)
    expect(b.every((g) => 'memhost' in g)).toBe(true)
  })

  it('filters /cluster/resources by type', async () => {
    const vm = await getData(alpha, '/cluster/resources?type=vm')
    const node = await getData(alpha, '/cluster/resources?type=node')
    const storage = await getData(alpha, '/cluster/resources?type=storage')
    expect(new Set(vm.map((e) => e.type))).toEqual(new Set(['qemu', 'lxc']))
    expect(node.map((e) => e.id)).toEqual(alpha.nodeNames.map((n) => `node/${n}`))
    expect(node[0]).toMatchObject({ type: 'node', status: 'online', 'cgroup-mode': 2 })
    expect(new Set(storage.map((e) => e.type))).toEqual(new Set(['storage']))
    const local = storage.find((s) => s.id === 'storage/alpha-pve1/local')
    expect(local).toMatchObject({
      storage: 'local',
      plugintype: 'dir',
      shared: 0,
      status: 'available',
    })
    expect(storage.filter((s) => s.storage === 'pbs-main')).toHaveLength(3)
  })

  it('lists nodes with the certificate fingerprint in /nodes', async () => {
    const nodes = await getData(alpha, '/nodes')
    expect(nodes.map((n) => n.node)).toEqual(alpha.nodeNames)
    for (const n of nodes) {
      expect(n).toMatchObject({
        type: 'node',
        status: 'online',
        ssl_fingerprint: alpha.fingerprint,
      })
      expect(n.mem as number).toBeLessThan(n.maxmem as number)
    }
  })

  it('renders /nodes/{node}/status in the real shape with strings where Perl sends strings', async () => {
    const status = await getData<Entry>(alpha, '/nodes/alpha-pve2/status')
    expect(findNulls(status)).toEqual([])
    const loadavg = status.loadavg as unknown[]
    expect(loadavg).toHaveLength(3)
    for (const l of loadavg) expect(l).toMatch(/^\d+\.\d{2}$/)
    const cpuinfo = status.cpuinfo as Entry
    expect(cpuinfo.mhz).toMatch(/^\d+\.\d{3}$/)
    expect(cpuinfo.hvm).toBe('1')
    expect(typeof cpuinfo.cpus).toBe('number')
    expect(Object.keys(status.memory as object).sort()).toEqual(['free', 'total', 'used'])
    expect(Object.keys(status.rootfs as object).sort()).toEqual(['avail', 'free', 'total', 'used'])
    expect(status.pveversion).toMatch(/^pve-manager\/8\.4\.14\/[0-9a-f]{16}$/)
    expect(status.kversion).toMatch(/^Linux 6\.8\./)
    expect(status['current-kernel']).toMatchObject({ sysname: 'Linux', machine: 'x86_64' })
    expect(typeof status.wait).toBe('number')
    expect(status.uptime as number).toBeGreaterThan(0)

    const pve9 = await getData<Entry>(bravo, '/nodes/bravo-pve1/status')
    const memory = pve9.memory as Entry
    expect(memory.available as number).toBeGreaterThan(memory.free as number)
  })

  it('agrees between /nodes, /cluster/resources and /nodes/{node}/status', async () => {
    const [fromNodes] = await getData(alpha, '/nodes')
    const [fromResources] = await getData(alpha, '/cluster/resources?type=node')
    const status = await getData<Entry>(alpha, '/nodes/alpha-pve1/status')
    expect(fromNodes!.mem).toBe(fromResources!.mem)
    expect(fromNodes!.cpu).toBe(status.cpu)
    expect((status.memory as Entry).used).toBe(fromResources!.mem)
  })

  it('answers 501 for a path it does not implement', async () => {
    const reply = await callApi(alpha, '/cluster/ceph/df')
    expect(reply.status).toBe(501)
    expect(reply.statusText).toBe("Method 'GET /cluster/ceph/df' not implemented")
    expect(reply.body).toEqual({ data: null })
  })

  it('answers 501 for a known path with the wrong method', async () => {
    const reply = await callApi(alpha, '/version', { method: 'DELETE' })
    expect(reply.status).toBe(501)
    expect(reply.statusText).toBe("Method 'DELETE /version' not implemented")
  })

  it('rejects an unknown query parameter with 400 and an errors map', async () => {
    const reply = await callApi(alpha, '/cluster/resources?kind=vm')
    expect(reply.status).toBe(400)
    expect(reply.body).toEqual({
      data: null,
      errors: {
        kind: 'property is not defined in schema and the schema does not allow additional properties',
      },
    })
  })

  it('rejects an unknown resource type with 400', async () => {
    const reply = await callApi(alpha, '/cluster/resources?type=vms')
    expect(reply.status).toBe(400)
    expect((reply.body as { errors: Entry }).errors.type).toMatch(/enumeration/)
  })

  it('answers an unknown node name with 500 like a failed hostname lookup', async () => {
    const reply = await callApi(alpha, '/nodes/nope/status')
    expect(reply.status).toBe(500)
    expect(reply.statusText).toMatch(/hostname lookup 'nope' failed/)
  })
})

describe('standalone host', () => {
  let sim: Simulator
  beforeAll(async () => {
    sim = await startSimulator({
      seed: 5,
      clusters: 1,
      nodesPerCluster: 1,
      guestsPerNode: 10,
      tickMs: 0,
    })
  })
  afterAll(async () => {
    await sim.stop()
  })

  it('reports a single node entry with nodeid 0 and no cluster entry', async () => {
    const host = sim.clusters[0]!
    expect(host.standalone).toBe(true)
    const data = await getData(host, '/cluster/status')
    expect(data).toHaveLength(1)
    expect(data[0]).toMatchObject({
      type: 'node',
      name: 'alpha-pve1',
      nodeid: 0,
      local: 1,
      online: 1,
    })
  })
})
