// Single sign-on roles (issue 29 item 3): the role decision, the mapping's validation (PUT and
// OIDC_*), and sign-ins through a real OpenID provider (oidc-provider) on 127.0.0.1 whose groups
// claim decides the session's role.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { readSnapshot, writeSnapshot } from '../../../../src/server/backup/config-snapshot.ts'
import { createOidcConfigRepo } from '../../../../src/server/auth/oidc-config-repo.ts'
import {
  decideOidcRole,
  parseDefaultRole,
  parseRoleMapping,
} from '../../../../src/server/auth/oidc-roles.ts'
import { OIDC_DEFAULTS, readOidcEnv } from '../../../../src/server/auth/oidc-settings.ts'
import { openDatabase } from '../../../../src/server/store/db.ts'
import { createSecretBox, loadOrCreateKey } from '../../../../src/server/store/secret-box.ts'
import { makeTempDir } from '../temp-dir.ts'
import { OIDC_LOGIN_RATE_WINDOW_MS } from '../../../../src/server/http/oidc.ts'
import { quickSetup, startAuthServer, type AuthTestServer } from './auth-helpers.ts'
import { startOidcFixture, type CallbackAnswer, type OidcFixture } from './oidc-fixture.ts'

describe('decideOidcRole', () => {
  const mapping = [
    { group: 'staff', role: 'viewer' },
    { group: 'ops', role: 'operator' },
    { group: 'admins', role: 'admin' },
  ] as const

  it('gives the highest role among the matched groups', () => {
    expect(decideOidcRole(['staff', 'ops'], mapping, 'none')).toBe('operator')
    expect(decideOidcRole(['admins', 'staff'], mapping, 'none')).toBe('admin')
    expect(decideOidcRole(['staff'], mapping, 'admin')).toBe('viewer')
  })

  it('gives the default role to a user in no mapped group, or null when it is none', () => {
    expect(decideOidcRole(['guests'], mapping, 'viewer')).toBe('viewer')
    expect(decideOidcRole([], mapping, 'operator')).toBe('operator')
    expect(decideOidcRole(['Ops'], mapping, 'none')).toBeNull()
    expect(decideOidcRole(['anything'], [], 'admin')).toBe('admin')
  })

  it('reads OIDC_ROLE_MAPPING and OIDC_DEFAULT_ROLE, naming the variable when wrong', () => {
    expect(parseRoleMapping('V', 'ops=operator, admins=Admin  a=b=viewer')).toEqual([
      { group: 'ops', role: 'operator' },
      { group: 'admins', role: 'admin' },
      { group: 'a=b', role: 'viewer' },
    ])
    expect(() => parseRoleMapping('OIDC_ROLE_MAPPING', 'ops=root')).toThrow(/OIDC_ROLE_MAPPING/)
    expect(() => parseRoleMapping('OIDC_ROLE_MAPPING', 'ops')).toThrow(/OIDC_ROLE_MAPPING/)
    expect(() => parseRoleMapping('V', 'ops=viewer ops=admin')).toThrow(/mapped twice/)
    expect(parseDefaultRole('V', 'NONE')).toBe('none')
    expect(() => parseDefaultRole('OIDC_DEFAULT_ROLE', 'root')).toThrow(/OIDC_DEFAULT_ROLE/)
    expect(
      readOidcEnv({ OIDC_ROLE_MAPPING: 'ops=operator,admins=admin', OIDC_DEFAULT_ROLE: 'viewer' }),
    ).toEqual({
      roleMapping: [
        { group: 'ops', role: 'operator' },
        { group: 'admins', role: 'admin' },
      ],
      defaultRole: 'viewer',
    })
  })
})

describe('the stored role mapping', () => {
  it('reads as no mapping and admin before a save, and travels in the config export', () => {
    const instance = () => {
      const { dir, cleanup } = makeTempDir()
      const db = openDatabase(dir)
      const box = createSecretBox(loadOrCreateKey(dir))
      return { db, box, now: 1, repo: createOidcConfigRepo({ db, box }), cleanup }
    }
    const source = instance()
    const target = instance()
    try {
      source.repo.save({ ...OIDC_DEFAULTS, clientId: 'pulse' }, 1)
      source.db.prepare('DELETE FROM oidc_roles').run()
      expect(source.repo.get()).toMatchObject({ roleMapping: [], defaultRole: 'admin' })
      const mapping = [{ group: 'ops', role: 'operator' as const }]
      source.repo.save({ ...OIDC_DEFAULTS, roleMapping: mapping, defaultRole: 'none' }, 2)
      writeSnapshot(target, readSnapshot(source))
      expect(target.repo.get()).toMatchObject({ roleMapping: mapping, defaultRole: 'none' })
    } finally {
      source.db.close()
      target.db.close()
      source.cleanup()
      target.cleanup()
    }
  })
})

describe('PUT /api/security/oidc role fields', () => {
  let server: AuthTestServer
  let token: string
  const put = (body: unknown) => server.call('PUT', '/api/security/oidc', { body, token })

  beforeAll(async () => {
    server = await startAuthServer()
    token = (await quickSetup(server)).apiToken
  })
  afterAll(async () => {
    await server.close()
  })

  it('round-trips a mapping and a default role', async () => {
    const res = await put({
      roleMapping: [
        { group: ' ops ', role: 'Operator' },
        { group: 'admins', role: 'admin' },
      ],
      defaultRole: 'none',
    })
    expect(res.status).toBe(200)
    expect(res.json).toMatchObject({
      roleMapping: [
        { group: 'ops', role: 'operator' },
        { group: 'admins', role: 'admin' },
      ],
      defaultRole: 'none',
    })
    const again = await server.call('GET', '/api/security/oidc', { token })
    expect(again.json.roleMapping).toEqual(res.json.roleMapping)
    expect(again.json.defaultRole).toBe('none')
  })

  it('ends the single sign-on sessions when the roles change, not otherwise', async () => {
    const sessions = server.ctx.app.auth.sessions
    const open = (name: string) => {
      const issued = sessions.create(name, 'oidc', 'operator')
      return { pulse_session: issued.id, pulse_csrf: issued.csrf }
    }
    const state = async (cookies: Record<string, string>) =>
      (await server.call('GET', '/api/state', { cookies })).status
    const olga = open('olga')
    // Another field changed: the sessions carry on.
    expect((await put({ scopes: ['openid', 'profile', 'email', 'groups'] })).status).toBe(200)
    expect(await state(olga)).toBe(200)
    // The mapping changed: they end.
    const res = await put({ roleMapping: [{ group: 'ops', role: 'viewer' }] })
    expect(res.status).toBe(200)
    expect(await state(olga)).toBe(401)
    const audit = await server.call('GET', '/api/security/audit', { token })
    expect(audit.json.events[0]).toMatchObject({
      type: 'oidc_config_changed',
      detail: expect.stringMatching(/roles changed, 1 single sign-on session\(s\) ended$/),
    })
    // The default role too, changed by an admin signed in by single sign-on: theirs stays.
    const nina = open('nina')
    const issued = sessions.create('sso-admin', 'oidc', 'admin')
    const self = { pulse_session: issued.id, pulse_csrf: issued.csrf }
    const changed = await server.call('PUT', '/api/security/oidc', {
      cookies: self,
      csrf: self.pulse_csrf,
      body: { defaultRole: 'viewer' },
    })
    expect(changed.status, changed.text).toBe(200)
    expect(await state(nina)).toBe(401)
    expect(await state(self)).toBe(200)
  })

  it('answers 400 naming the field', async () => {
    const cases: Array<[unknown, string]> = [
      [
        {
          roleMapping: [
            { group: 'a', role: 'admin' },
            { group: 'b', role: 'root' },
          ],
        },
        'roleMapping.1.role: must be viewer, operator or admin.',
      ],
      [
        { roleMapping: [{ group: '  ', role: 'admin' }] },
        'roleMapping.0.group: must not be empty.',
      ],
      [
        {
          roleMapping: [
            { group: 'a', role: 'admin' },
            { group: 'a', role: 'viewer' },
          ],
        },
        'roleMapping.1.group: "a" is mapped twice.',
      ],
      [{ defaultRole: 'root' }, 'defaultRole: must be viewer, operator, admin or none.'],
    ]
    for (const [body, message] of cases) {
      const res = await put(body)
      expect(res.status, message).toBe(400)
      expect(res.json).toEqual({ code: 'FIELD_INVALID', message })
    }
    const shape = await put({ roleMapping: 'ops=admin' })
    expect(shape.status).toBe(400)
    expect(shape.json.message).toMatch(/^roleMapping: /)
  })

  it('is read-only when set by the environment', async () => {
    const envServer = await startAuthServer({
      oidcEnv: readOidcEnv({ OIDC_ROLE_MAPPING: 'ops=operator', OIDC_DEFAULT_ROLE: 'viewer' }),
    })
    try {
      const envToken = (await quickSetup(envServer)).apiToken
      const call = (body: unknown) =>
        envServer.call('PUT', '/api/security/oidc', { body, token: envToken })
      const view = await envServer.call('GET', '/api/security/oidc', { token: envToken })
      expect(view.json).toMatchObject({
        roleMapping: [{ group: 'ops', role: 'operator' }],
        defaultRole: 'viewer',
        envOverrides: ['roleMapping', 'defaultRole'],
      })
      const changed = await call({ roleMapping: [] })
      expect(changed.json).toEqual({
        code: 'FIELD_READ_ONLY',
        message: 'roleMapping: set by the environment variable OIDC_ROLE_MAPPING.',
      })
      expect((await call({ defaultRole: 'admin' })).json.code).toBe('FIELD_READ_ONLY')
      // The panel echoing the GET back is accepted.
      const echo = await call({ roleMapping: view.json.roleMapping, defaultRole: 'viewer' })
      expect(echo.status).toBe(200)
    } finally {
      await envServer.close()
    }
  })
})

describe('single sign-on roles with a real provider', () => {
  let fx: OidcFixture
  beforeAll(async () => {
    fx = await startOidcFixture()
    await fx.configure()
  })
  afterAll(async () => {
    await fx?.close()
  })
  afterEach(async () => {
    fx.advance(OIDC_LOGIN_RATE_WINDOW_MS)
    await fx.configure({ roleMapping: [], defaultRole: 'admin' })
  })

  const sessionOf = (answer: CallbackAnswer) => {
    const cookies = {
      pulse_session: answer.cookies.pulse_session!,
      pulse_csrf: answer.cookies.pulse_csrf!,
    }
    expect(cookies.pulse_session, answer.location).toBeTruthy()
    return { cookies, csrf: cookies.pulse_csrf }
  }
  /** 'admin', 'operator' or 'viewer' from what the session may do. */
  const roleOf = async (answer: CallbackAnswer) => {
    const session = sessionOf(answer)
    expect((await fx.server.call('GET', '/api/state', session)).status).toBe(200)
    const ack = await fx.server.call('POST', '/api/alerts/bulk/acknowledge', {
      ...session,
      body: { alertIds: ['none'] },
    })
    if (ack.status === 403) {
      expect(ack.json.code).toBe('ROLE_REQUIRED')
      return 'viewer'
    }
    expect(ack.status).toBe(200)
    const config = await fx.server.call('PUT', '/api/alerts/config', { ...session, body: {} })
    if (config.status === 403) {
      expect(config.json).toEqual({
        code: 'ROLE_REQUIRED',
        message: 'This needs the admin role; you are operator',
      })
      return 'operator'
    }
    return 'admin'
  }
  const audit = async () => {
    const res = await fx.server.call('GET', '/api/security/audit?limit=5', {
      token: fx.creds.apiToken,
    })
    return res.json.events as Array<{ type: string; username: string; detail: string }>
  }

  it('keeps signed-in users admin without a mapping (as before roles)', async () => {
    expect(await roleOf(await fx.loginAs('bob'))).toBe('admin')
  })

  it('gives a user in a mapped group its role, and one in none the default', async () => {
    await fx.configure({
      roleMapping: [
        { group: 'staff', role: 'operator' },
        { group: 'admins', role: 'admin' },
      ],
      defaultRole: 'viewer',
    })
    const bob = await fx.loginAs('bob')
    expect(await roleOf(bob)).toBe('operator')
    expect((await audit()).find((e) => e.type === 'oidc_login')).toMatchObject({
      username: 'bob',
      detail: 'email bob@other.org, role operator',
    })
    // alice is in staff and admins: the highest wins.
    expect(await roleOf(await fx.loginAs('alice'))).toBe('admin')
    // carol has no groups claim at all.
    expect(await roleOf(await fx.loginAs('carol'))).toBe('viewer')
  })

  it('reads the mapping again at each sign-in; a changed mapping ends the sessions it gave', async () => {
    await fx.configure({ roleMapping: [{ group: 'staff', role: 'viewer' }] })
    const first = await fx.loginAs('bob')
    expect(await roleOf(first)).toBe('viewer')
    await fx.configure({ roleMapping: [{ group: 'staff', role: 'operator' }] })
    // The session opened under the old mapping is over; signing in again applies the new one.
    expect((await fx.server.call('GET', '/api/state', sessionOf(first))).status).toBe(401)
    expect(await roleOf(await fx.loginAs('bob'))).toBe('operator')
  })

  it('refuses a user in no mapped group when the default is none, and audits it', async () => {
    await fx.configure({ roleMapping: [{ group: 'admins', role: 'admin' }], defaultRole: 'none' })
    const answer = await fx.loginAs('bob')
    expect(answer.status).toBe(302)
    expect(answer.location).toBe('/?oidc_error=role_restricted')
    expect(answer.cookies.pulse_session ?? '').toBe('')
    const failure = (await audit()).find((e) => e.type === 'oidc_failure')
    expect(failure).toMatchObject({ username: 'bob' })
    expect(failure?.detail).toMatch(/^role_restricted: groups \[staff\]/)
    expect(await roleOf(await fx.loginAs('alice'))).toBe('admin')
  })
})
