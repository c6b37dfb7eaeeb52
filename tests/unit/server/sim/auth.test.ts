import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSimulator } from '../../../../src/server/sim/index.ts'
import type { SimCluster, Simulator } from '../../../../src/server/sim/index.ts'
import { START_MS, callApi, createManualClock } from './helpers.ts'

describe('simulator authentication', () => {
  const clock = createManualClock(START_MS)
  let sim: Simulator
  let cluster: SimCluster

  beforeAll(async () => {
    sim = await startSimulator({
      seed: 7,
      clusters: 1,
      nodesPerCluster: 2,
      guestsPerNode: 5,
      tickMs: 0,
      now: clock.now,
    })
    cluster = sim.clusters[0]!
  })
  afterAll(async () => {
    await sim.stop()
  })

  it('rejects a request without credentials with 401, the reason in the status line and a null body', async () => {
    const reply = await callApi(cluster, '/version', { noToken: true })
    expect(reply.status).toBe(401)
    expect(reply.statusText).toBe('No ticket')
    expect(reply.body).toEqual({ data: null })
    expect(reply.contentType).toBe('application/json;charset=UTF-8')
  })

  it('rejects a token with the wrong secret', async () => {
    const reply = await callApi(cluster, '/version', {
      noToken: true,
      headers: {
        Authorization: `PVEAPIToken=${cluster.tokenId}=00000000-0000-4000-8000-000000000000`,
      },
    })
    expect(reply.status).toBe(401)
    expect(reply.statusText).toBe('invalid token value')
    expect(reply.body).toEqual({ data: null })
  })

  it('rejects a token id the cluster does not know', async () => {
    const reply = await callApi(cluster, '/version', {
      noToken: true,
      headers: { Authorization: `PVEAPIToken=someone@pve!other=${cluster.tokenSecret}` },
    })
    expect(reply.status).toBe(401)
    expect(reply.statusText).toBe("no such token 'other' for user 'someone@pve'")
  })

  it('accepts the configured API token, whose secret is a lowercase UUID', async () => {
    expect(cluster.tokenSecret).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    )
    const reply = await callApi(cluster, '/version')
    expect(reply.status).toBe(200)
  })

  it('issues a ticket for good credentials that then works as a cookie until it is two hours old', async () => {
    const login = await callApi(cluster, '/access/ticket', {
      method: 'POST',
      noToken: true,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'username=root%40pam&password=simulator',
    })
    expect(login.status).toBe(200)
    const data = (login.body as { data: Record<string, unknown> }).data
    expect(data.username).toBe('root@pam')
    expect(data.ticket).toMatch(/^PVE:root@pam:[0-9A-F]{8}::/)
    expect(typeof data.CSRFPreventionToken).toBe('string')
    expect(data.clustername).toBe(cluster.name)

    const cookie = { Cookie: `PVEAuthCookie=${encodeURIComponent(String(data.ticket))}` }
    expect(
      (await callApi(cluster, '/cluster/status', { noToken: true, headers: cookie })).status,
    ).toBe(200)

    clock.advance(2 * 3600 * 1000 + 60_000)
    const expired = await callApi(cluster, '/cluster/status', { noToken: true, headers: cookie })
    expect(expired.status).toBe(401)
    expect(expired.statusText).toBe('permission denied - invalid PVE ticket')
  })

  it('refuses a login with the wrong password', async () => {
    const reply = await callApi(cluster, '/access/ticket', {
      method: 'POST',
      noToken: true,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'username=root%40pam&password=wrong',
    })
    expect(reply.status).toBe(401)
    expect(reply.statusText).toBe('authentication failure')
    expect(reply.body).toEqual({ data: null })
  })

  it('accepts a JSON login body too', async () => {
    const reply = await callApi(cluster, '/access/ticket', {
      method: 'POST',
      noToken: true,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'root@pam', password: 'simulator' }),
    })
    expect(reply.status).toBe(200)
  })

  it('rejects a forged ticket', async () => {
    const reply = await callApi(cluster, '/version', {
      noToken: true,
      headers: { Cookie: 'PVEAuthCookie=PVE:root@pam:6840F0A0::bm90IGEgc2lnbmF0dXJl' },
    })
    expect(reply.status).toBe(401)
  })

  it('counts every request it serves', async () => {
    const before = sim.requestCount()
    await callApi(cluster, '/version')
    await callApi(cluster, '/version', { noToken: true })
    expect(sim.requestCount()).toBe(before + 2)
  })
})

describe('simulator safety', () => {
  it('refuses to listen outside 127.0.0.0/8', async () => {
    await expect(startSimulator({ host: '0.0.0.0', tickMs: 0 })).rejects.toThrow(/127\.0\.0\.0\/8/)
    await expect(startSimulator({ host: '192.168.1.10', tickMs: 0 })).rejects.toThrow(
      /127\.0\.0\.0\/8/,
    )
  })
})
