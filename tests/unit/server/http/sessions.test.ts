// Session list (issue 29 item 5) over real HTTP on 127.0.0.1 with real SQLite and real sockets:
// each user lists and ends their own sessions, an admin everyone's; ending one signs it out at
// once, its open socket included; a list never carries a session id or its digest.
import { createHash } from 'node:crypto'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { SessionView } from '../../../../src/shared/model/sessions.ts'
import {
  cookieValues,
  openSessionSocket,
  quickSetup,
  startAuthServer,
  type AuthTestServer,
  type Credentials,
} from '../auth/auth-helpers.ts'

type Cookies = Credentials['cookies']
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0'
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1'

let clock: number
let server: AuthTestServer
let admin: Credentials
beforeEach(async () => {
  clock = 1_700_000_000_000
  server = await startAuthServer({}, { now: () => clock })
  admin = await quickSetup(server, { password: 'admin-password-1' })
})
afterEach(async () => {
  await server.close()
})

const as = (cookies: Cookies) => ({ cookies, csrf: cookies.pulse_csrf })

/** Sign in from a browser that names itself `userAgent`. */
async function signIn(username: string, password: string, userAgent: string): Promise<Cookies> {
  const res = await server.call('POST', '/api/login', {
    body: { username, password },
    headers: { 'user-agent': userAgent },
  })
  expect(res.status, res.text).toBe(200)
  const values = cookieValues(res)
  return { pulse_session: values.pulse_session!, pulse_csrf: values.pulse_csrf! }
}

async function addUser(username: string, role: string): Promise<Cookies> {
  const res = await server.call('POST', '/api/users', {
    ...as(admin.cookies),
    body: { username, password: `${username}-password`, role },
  })
  expect(res.status, res.text).toBe(201)
  return signIn(username, `${username}-password`, IPHONE)
}

async function listOwn(cookies: Cookies): Promise<SessionView[]> {
  const res = await server.call('GET', '/api/security/sessions', { cookies })
  expect(res.status, res.text).toBe(200)
  expect(res.headers.get('cache-control')).toBe('no-store')
  return res.json.sessions
}

const stateStatus = async (cookies: Cookies) =>
  (await server.call('GET', '/api/state', { cookies })).status

describe('a user’s own sessions', () => {
  it('lists each with device, address and times, marks this one, and tells no secret', async () => {
    clock += 5 * 60_000
    const firefox = await signIn('admin', 'admin-password-1', FIREFOX)
    const sessions = await listOwn(firefox)
    expect(sessions).toHaveLength(2)
    // Most recently seen first: the Firefox session, then the setup's.
    const [mine, setup] = sessions
    expect(mine).toMatchObject({
      username: 'admin',
      method: 'password',
      current: true,
      device: 'Firefox on Linux',
      userAgent: FIREFOX,
      address: '127.0.0.1',
      createdAt: new Date(clock).toISOString(),
      lastSeenAt: new Date(clock).toISOString(),
      liveConnections: 0,
    })
    expect(setup).toMatchObject({
      current: false,
      createdAt: new Date(1_700_000_000_000).toISOString(),
    })
    expect(mine!.id).toMatch(/^[0-9a-f]{18}$/)
    expect(mine!.id).not.toBe(setup!.id)
    const text = JSON.stringify(sessions)
    for (const cookies of [firefox, admin.cookies]) {
      for (const value of Object.values(cookies)) {
        expect(text).not.toContain(value)
        expect(text).not.toContain(createHash('sha256').update(value).digest('hex'))
      }
    }
  })

  it('moves last seen once a minute of use, without re-sending the cookies until the hour', async () => {
    const before = (await listOwn(admin.cookies))[0]!
    clock += 61_000
    const used = await server.call('GET', '/api/state', { cookies: admin.cookies })
    expect(used.status).toBe(200)
    expect(used.setCookies.size).toBe(0)
    const after = (await listOwn(admin.cookies))[0]!
    expect(Date.parse(after.lastSeenAt) - Date.parse(before.lastSeenAt)).toBe(61_000)
    expect(after.expiresAt).toBe(before.expiresAt)
    clock += 3600_000
    const slid = await server.call('GET', '/api/state', { cookies: admin.cookies })
    expect(slid.setCookies.get('pulse_session')).toMatch(/Max-Age=604800/)
  })

  it('counts a live connection, and ending the session closes it and signs it out', async () => {
    const phone = await signIn('admin', 'admin-password-1', IPHONE)
    const socket = await openSessionSocket(server, phone)
    const listed = await listOwn(admin.cookies)
    const target = listed.find((s) => s.device === 'Safari on iPhone')!
    expect(target.liveConnections).toBe(1)
    const ended = await server.call(
      'DELETE',
      `/api/security/sessions/${target.id}`,
      as(admin.cookies),
    )
    expect(ended.status, ended.text).toBe(200)
    expect(ended.json).toEqual({ success: true, current: false })
    expect(await socket.closed).toBe(4001)
    expect(await stateStatus(phone)).toBe(401)
    expect(await stateStatus(admin.cookies)).toBe(200)
    expect((await listOwn(admin.cookies)).map((s) => s.id)).not.toContain(target.id)
    const audit = await server.call('GET', '/api/security/audit', { cookies: admin.cookies })
    expect(audit.json.events[0]).toMatchObject({
      type: 'session_ended',
      username: 'admin',
      detail: 'own session from 127.0.0.1',
    })
  })

  it('ending this very session signs out here: cookies cleared, socket closed', async () => {
    const socket = await openSessionSocket(server, admin.cookies)
    const self = (await listOwn(admin.cookies)).find((s) => s.current)!
    const res = await server.call('DELETE', `/api/security/sessions/${self.id}`, as(admin.cookies))
    expect(res.json).toEqual({ success: true, current: true })
    expect(res.setCookies.get('pulse_session')).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/)
    expect(await socket.closed).toBe(4001)
    expect(await stateStatus(admin.cookies)).toBe(401)
  })

  it('signs out every other session at once, keeping this one', async () => {
    const firefox = await signIn('admin', 'admin-password-1', FIREFOX)
    const phone = await signIn('admin', 'admin-password-1', IPHONE)
    const sockets = await Promise.all([
      openSessionSocket(server, admin.cookies),
      openSessionSocket(server, phone),
    ])
    const res = await server.call('DELETE', '/api/security/sessions', as(firefox))
    expect(res.json).toEqual({ success: true, ended: 2 })
    expect(await Promise.all(sockets.map((s) => s.closed))).toEqual([4001, 4001])
    expect(await stateStatus(admin.cookies)).toBe(401)
    expect(await stateStatus(phone)).toBe(401)
    expect(await stateStatus(firefox)).toBe(200)
    expect((await listOwn(firefox)).map((s) => s.device)).toEqual(['Firefox on Linux'])
  })

  it('logging out closes that session’s socket', async () => {
    const socket = await openSessionSocket(server, admin.cookies)
    const res = await server.call('POST', '/api/logout', as(admin.cookies))
    expect(res.status).toBe(200)
    expect(await socket.closed).toBe(4001)
  })
})

describe('other users’ sessions', () => {
  it('are not a viewer’s to see or end; an admin sees and ends them', async () => {
    const vera = await addUser('vera', 'viewer')
    const veraSocket = await openSessionSocket(server, vera)
    // Vera sees only her own.
    expect((await listOwn(vera)).map((s) => s.username)).toEqual(['vera'])
    expect((await server.call('GET', '/api/security/sessions/all', { cookies: vera })).status).toBe(
      403,
    )
    const adminSession = (await listOwn(admin.cookies))[0]!
    const refused = await server.call(
      'DELETE',
      `/api/security/sessions/${adminSession.id}`,
      as(vera),
    )
    expect(refused.status).toBe(404)
    expect(await stateStatus(admin.cookies)).toBe(200)
    // The admin sees both users' sessions and ends Vera's.
    const all = await server.call('GET', '/api/security/sessions/all', { cookies: admin.cookies })
    expect(all.status).toBe(200)
    expect(all.json.truncated).toBe(false)
    const users = (all.json.sessions as SessionView[]).map((s) => s.username).sort()
    expect(users).toEqual(['admin', 'vera'])
    const veras = (all.json.sessions as SessionView[]).find((s) => s.username === 'vera')!
    expect(veras).toMatchObject({ device: 'Safari on iPhone', current: false, liveConnections: 1 })
    const ended = await server.call(
      'DELETE',
      `/api/security/sessions/${veras.id}`,
      as(admin.cookies),
    )
    expect(ended.status).toBe(200)
    expect(await veraSocket.closed).toBe(4001)
    expect(await stateStatus(vera)).toBe(401)
    const audit = await server.call('GET', '/api/security/audit', { cookies: admin.cookies })
    expect(audit.json.events[0]).toMatchObject({
      type: 'session_ended',
      detail: "vera's session from 127.0.0.1",
    })
  })

  it('answers 404 for an unknown or malformed reference, and an empty list to a token', async () => {
    for (const id of ['0123456789abcdef01', 'not-a-ref', 'f'.repeat(90)]) {
      const res = await server.call('DELETE', `/api/security/sessions/${id}`, as(admin.cookies))
      expect(res.status).toBe(404)
      expect(res.json.code).toBe('NOT_FOUND')
    }
    const token = { token: admin.apiToken }
    const own = await server.call('GET', '/api/security/sessions', token)
    expect(own.json).toEqual({ sessions: [], truncated: false })
    const all = await server.call('GET', '/api/security/sessions/all', token)
    expect((all.json.sessions as SessionView[]).map((s) => s.username)).toEqual(['admin'])
  })

  it('a session from before the list gets a reference when listed, with nothing known', async () => {
    server.ctx.app.db.prepare('DELETE FROM session_clients').run()
    const [old] = await listOwn(admin.cookies)
    expect(old).toMatchObject({ device: '', address: '', current: true })
    expect(old!.id).toMatch(/^[0-9a-f]{18}$/)
    const ended = await server.call(
      'DELETE',
      `/api/security/sessions/${old!.id}`,
      as(admin.cookies),
    )
    expect(ended.json.current).toBe(true)
  })
})
