import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSimulator } from '../../../../src/server/sim/index.ts'
import type { SimCluster, Simulator } from '../../../../src/server/sim/index.ts'
import { START_MS, callAt, connectionError, getData } from './helpers.ts'

type Entry = Record<string, unknown>

describe('member endpoints and failover', () => {
  let sim: Simulator
  let alpha: SimCluster

  beforeAll(async () => {
    sim = await startSimulator({
      seed: 4,
      clusters: 2,
      nodesPerCluster: 3,
      guestsPerNode: 15,
      tickMs: 0,
      now: () => START_MS,
    })
    alpha = sim.clusters[0]!
  })
  afterAll(async () => {
    await sim.stop()
  })

  it("serves every member on its own loopback IP from /cluster/status, on the cluster URL's port", async () => {
    const port = new URL(alpha.url).port
    const members = (await getData(alpha, '/cluster/status')).filter((e) => e.type === 'node')
    expect(alpha.endpoints.map((e) => e.node)).toEqual(alpha.nodeNames)
    for (const endpoint of alpha.endpoints) {
      const member = members.find((m) => m.name === endpoint.node)!
      expect(endpoint.url).toBe(`https://${String(member.ip)}:${port}`)
      expect(String(member.ip)).toMatch(/^127\./)
    }
    const bravo = sim.clusters[1]!
    expect(
      new Set([...alpha.endpoints, ...bravo.endpoints].map((e) => new URL(e.url).hostname)).size,
    ).toBe(6)
  })

  it('answers the same data on every endpoint, each marking itself local in /cluster/status', async () => {
    const main = await callAt(alpha.url, alpha, '/cluster/resources')
    for (const endpoint of alpha.endpoints) {
      const reply = await callAt(endpoint.url, alpha, '/cluster/resources')
      expect(reply.status).toBe(200)
      expect(reply.text).toBe(main.text)
      const status = (await callAt(endpoint.url, alpha, '/cluster/status')).body as {
        data: Entry[]
      }
      const local = status.data.filter((e) => e.local === 1).map((e) => e.name)
      expect(local).toEqual([endpoint.node])
    }
  })

  it('refuses connections on the first member after setEndpointReachable(false) while another member still answers', async () => {
    const first = alpha.nodeNames[0]!
    await sim.setEndpointReachable(alpha.name, first, false)
    try {
      expect(await connectionError(alpha.url)).toBe('ECONNREFUSED')
      expect(await connectionError(alpha.endpoints[0]!.url)).toBe('ECONNREFUSED')
      const other = await callAt(alpha.endpoints[1]!.url, alpha, '/cluster/resources')
      expect(other.status).toBe(200)
      const guests = (other.body as { data: Entry[] }).data.filter(
        (e) => e.type === 'qemu' || e.type === 'lxc',
      )
      expect(guests.length).toBe(3 * 15)
      // The cluster itself is fine: the first member is still online, only unreachable.
      const status = (await callAt(alpha.endpoints[2]!.url, alpha, '/cluster/status')).body as {
        data: Entry[]
      }
      expect(status.data.find((e) => e.name === first)).toMatchObject({ online: 1 })
    } finally {
      await sim.setEndpointReachable(alpha.name, first, true)
    }
    expect((await callAt(alpha.url, alpha, '/version')).status).toBe(200)
    expect((await callAt(alpha.endpoints[0]!.url, alpha, '/version')).status).toBe(200)
  })

  it('closes and reopens a single other member without touching the rest', async () => {
    const second = alpha.nodeNames[1]!
    await sim.setEndpointReachable(alpha.name, second, false)
    await sim.setEndpointReachable(alpha.name, second, false)
    try {
      expect(await connectionError(alpha.endpoints[1]!.url)).toBe('ECONNREFUSED')
      expect(await connectionError(alpha.url)).toBeUndefined()
    } finally {
      await sim.setEndpointReachable(alpha.name, second, true)
    }
    expect(await connectionError(alpha.endpoints[1]!.url)).toBeUndefined()
    await expect(sim.setEndpointReachable(alpha.name, 'nope', false)).rejects.toThrow(
      /Unknown node/,
    )
  })

  it("drops connections on an offline member's endpoint while the others report it offline", async () => {
    const third = alpha.nodeNames[2]!
    sim.setNodeOnline(alpha.name, third, false)
    try {
      expect(await connectionError(alpha.endpoints[2]!.url)).toBeDefined()
      const status = (await callAt(alpha.endpoints[1]!.url, alpha, '/cluster/status')).body as {
        data: Entry[]
      }
      expect(status.data.find((e) => e.name === third)).toMatchObject({ online: 0 })
    } finally {
      sim.setNodeOnline(alpha.name, third, true)
    }
    expect(await connectionError(alpha.endpoints[2]!.url)).toBeUndefined()
  })
})

describe('member endpoints switched off', () => {
  it('serves only the cluster URL and lists no endpoints', async () => {
    const sim = await startSimulator({
      seed: 4,
      clusters: 1,
      nodesPerCluster: 2,
      guestsPerNode: 2,
      tickMs: 0,
      memberEndpoints: false,
    })
    try {
      const cluster = sim.clusters[0]!
      expect(cluster.endpoints).toEqual([])
      expect(await connectionError(cluster.url)).toBeUndefined()
    } finally {
      await sim.stop()
    }
  })

  it('refuses a host outside 127.0.0.0/8', async () => {
    await expect(
      startSimulator({ host: '0.0.0.0', clusters: 1, guestsPerNode: 1 }),
    ).rejects.toThrow(/127\.0\.0\.0\/8/)
  })
})
