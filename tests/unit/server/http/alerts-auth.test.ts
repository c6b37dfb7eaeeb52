// The alert routes with authentication on, over real HTTP: writes need the session's CSRF token,
// and an acknowledgment is made in the name of the signed-in user, whatever the body says.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Alert } from '../../../../src/shared/model/alerts.ts'
import {
  quickSetup,
  startAuthServer,
  type AuthTestServer,
  type Credentials,
} from '../auth/auth-helpers.ts'
import { cpuPoll, createClock, poll } from '../alerts/alert-fixture.ts'

let server: AuthTestServer
let creds: Credentials
const clock = createClock()

beforeEach(async () => {
  server = await startAuthServer({}, { now: clock.now })
  creds = await quickSetup(server)
  const session = { cookies: creds.cookies, csrf: creds.cookies.pulse_csrf }
  const config = (await server.call('GET', '/api/alerts/config', session)).json
  config.timeThreshold = 0
  config.timeThresholds = { guest: 0, node: 0, storage: 0, pbs: 0 }
  config.metricTimeThresholds = {}
  const saved = await server.call('PUT', '/api/alerts/config', { ...session, body: config })
  expect(saved.status).toBe(200)
  await poll(server.ctx.app, clock, cpuPoll({ 101: 0.95 }, 1))
})
afterEach(async () => {
  await server.close()
})

describe('alert routes with authentication', () => {
  it('refuses a write without the CSRF token, and reads without a session', async () => {
    expect((await server.call('GET', '/api/alerts/active')).status).toBe(401)
    const list = await server.call('GET', '/api/alerts/active', { cookies: creds.cookies })
    const [alert] = list.json as Alert[]
    const res = await server.call('POST', `/api/alerts/${alert!.id}/acknowledge`, {
      cookies: creds.cookies,
      body: {},
    })
    expect(res.status).toBe(403)
    const after = await server.call('GET', '/api/alerts/active', { cookies: creds.cookies })
    expect((after.json as Alert[])[0]!.acknowledged).toBe(false)
    const cleared = await server.call('DELETE', '/api/alerts/history', { cookies: creds.cookies })
    expect(cleared.status).toBe(403)
  })

  it("acknowledges in the session user's name", async () => {
    const list = await server.call('GET', '/api/alerts/active', { cookies: creds.cookies })
    const [alert] = list.json as Alert[]
    const res = await server.call('POST', `/api/alerts/${alert!.id}/acknowledge`, {
      cookies: creds.cookies,
      csrf: creds.cookies.pulse_csrf,
      body: { user: 'someone-else' },
    })
    expect(res.json).toEqual({ success: true })
    const after = await server.call('GET', '/api/alerts/active', { cookies: creds.cookies })
    expect((after.json as Alert[])[0]).toMatchObject({
      acknowledged: true,
      ackUser: creds.username,
    })
  })
})
