import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startPbsSimulator } from '../../../../../src/server/sim/pbs/index.ts'
import type { PbsSimulator, SimPbsServer } from '../../../../../src/server/sim/pbs/index.ts'
import { HOUR_MS, START_MS, callPbs, createManualClock } from './helpers.ts'

describe('PBS simulator authentication', () => {
  const clock = createManualClock(START_MS)
  let sim: PbsSimulator
  let pbs: SimPbsServer

  beforeAll(async () => {
    sim = await startPbsSimulator({
      seed: 2,
      tickMs: 0,
      now: clock.now,
      tokenSecret: '0b7f9a52-3c1d-4e8a-9f2b-6d4c1a8e7b35',
    })
    pbs = sim.servers[0]!
  })
  afterAll(async () => {
    await sim.stop()
  })

  const login = (body: string, type = 'application/x-www-form-urlencoded') =>
    callPbs(pbs, '/access/ticket', {
      method: 'POST',
      noToken: true,
      headers: { 'content-type': type },
      body,
    })

  it('accepts the configured API token with a colon before the secret', async () => {
    const reply = await callPbs(pbs, '/version')
    expect(reply.status).toBe(200)
    expect(pbs.tokenSecret).toBe('0b7f9a52-3c1d-4e8a-9f2b-6d4c1a8e7b35')
  })

  it('answers 401 with a plain-text body when credentials are missing', async () => {
    const reply = await callPbs(pbs, '/version', { noToken: true })
    expect(reply.status).toBe(401)
    expect(reply.body).toBeUndefined()
    expect(reply.text).toMatch(/^authentication failed/)
  })

  it('refuses a wrong secret, a wrong token id and the PVE header form', async () => {
    const wrongSecret = `PBSAPIToken=${pbs.tokenId}:00000000-0000-4000-8000-000000000000`
    const wrongId = `PBSAPIToken=other@pbs!x:${pbs.tokenSecret}`
    const pveForm = `PVEAPIToken=${pbs.tokenId}=${pbs.tokenSecret}`
    for (const authorization of [wrongSecret, wrongId, pveForm]) {
      const reply = await callPbs(pbs, '/status/datastore-usage', {
        noToken: true,
        headers: { authorization },
      })
      expect(reply.status).toBe(401)
    }
  })

  it('checks credentials before routing, so unknown paths also need them', async () => {
    expect((await callPbs(pbs, '/nope', { noToken: true })).status).toBe(401)
    expect((await callPbs(pbs, '/nope')).status).toBe(501)
  })

  it('issues a PBS ticket that works as the PBSAuthCookie until it is two hours old', async () => {
    const reply = await login('username=root%40pam&password=simulator')
    expect(reply.status).toBe(200)
    const data = (reply.body as { data: Record<string, string> }).data
    expect(data.username).toBe('root@pam')
    expect(data.ticket).toMatch(/^PBS:root@pam:[0-9A-F]{8}::/)
    expect(data.CSRFPreventionToken).toMatch(/^[0-9A-F]{8}:/)
    const cookie = `PBSAuthCookie=${encodeURIComponent(data.ticket!)}`
    expect((await callPbs(pbs, '/version', { noToken: true, headers: { cookie } })).status).toBe(
      200,
    )
    // The PVE cookie name is not accepted by PBS.
    const pveCookie = `PVEAuthCookie=${encodeURIComponent(data.ticket!)}`
    expect(
      (await callPbs(pbs, '/version', { noToken: true, headers: { cookie: pveCookie } })).status,
    ).toBe(401)
    clock.set(START_MS + 2 * HOUR_MS + 60_000)
    expect((await callPbs(pbs, '/version', { noToken: true, headers: { cookie } })).status).toBe(
      401,
    )
    clock.set(START_MS)
  })

  it('accepts a JSON login with a separate realm and refuses a wrong password', async () => {
    const ok = await login(
      JSON.stringify({ username: 'root', realm: 'pam', password: 'simulator' }),
      'application/json',
    )
    expect(ok.status).toBe(200)
    const bad = await login('username=root%40pam&password=wrong')
    expect(bad.status).toBe(401)
    expect(bad.text).toBe('authentication failed - invalid credentials')
  })
})
