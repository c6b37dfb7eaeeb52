// Local users (issue 29 items 2, 5 and 7) over real HTTP on 127.0.0.1 with real SQLite: the
// routes and their 400s, roles applied per request, disabling ending sessions and sockets at
// once, lockout per account, the last admin kept, the upgrade from one account, export/import.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { MIGRATIONS, openDatabase } from '../../../../src/server/store/db.ts'
import { hashPassword } from '../../../../src/server/auth/secrets.ts'
import {
  login,
  openSessionSocket,
  quickSetup,
  startAuthServer,
  type AuthTestServer,
  type Credentials,
} from '../auth/auth-helpers.ts'
import { makeTempDir } from '../temp-dir.ts'

const PASSWORD = 'admin-password-1'
type Cookies = Credentials['cookies']

let server: AuthTestServer
let admin: Credentials
beforeEach(async () => {
  server = await startAuthServer()
  admin = await quickSetup(server, { password: PASSWORD })
})
afterEach(async () => {
  await server.close()
})

const as = (cookies: Cookies) => ({ cookies, csrf: cookies.pulse_csrf })
const addUser = (body: object) => server.call('POST', '/api/users', { ...as(admin.cookies), body })
const putUser = (name: string, body: object) =>
  server.call('PUT', `/api/users/${name}`, { ...as(admin.cookies), body })

/** Add a user and sign them in. */
async function signedIn(username: string, role: string): Promise<Cookies> {
  const res = await addUser({ username, password: `${username}-password`, role })
  expect(res.status, res.text).toBe(201)
  return login(server, username, `${username}-password`)
}

describe('/api/users', () => {
  it('lists the first-run account as an admin, never a hash', async () => {
    const res = await server.call('GET', '/api/users', { cookies: admin.cookies })
    expect(res.status).toBe(200)
    expect(res.json.users).toEqual([
      {
        username: 'admin',
        role: 'admin',
        disabled: false,
        createdAt: expect.any(Number),
        updatedAt: expect.any(Number),
      },
    ])
    expect(res.text).not.toContain('argon2')
  })

  it('adds, changes and deletes a user, each change audited without a password', async () => {
    const created = await addUser({ username: 'ops.1', password: 'ops-password', role: 'operator' })
    expect(created.status).toBe(201)
    expect(created.json).toMatchObject({ username: 'ops.1', role: 'operator', disabled: false })
    const changed = await putUser('OPS.1', {
      role: 'viewer',
      disabled: true,
      password: 'new-pass-1',
    })
    expect(changed.status).toBe(200)
    expect(changed.json).toMatchObject({ username: 'ops.1', role: 'viewer', disabled: true })
    const gone = await server.call('DELETE', '/api/users/ops.1', as(admin.cookies))
    expect(gone.status).toBe(200)
    const list = await server.call('GET', '/api/users', { cookies: admin.cookies })
    expect(list.json.users.map((u: { username: string }) => u.username)).toEqual(['admin'])
    const audit = await server.call('GET', '/api/security/audit', { cookies: admin.cookies })
    const events = (audit.json.events as Array<{ type: string; detail: string }>).filter((e) =>
      ['user_created', 'user_updated', 'user_deleted', 'password_reset'].includes(e.type),
    )
    expect(events.map((e) => e.type).sort()).toEqual([
      'password_reset',
      'user_created',
      'user_deleted',
      'user_updated',
    ])
    expect(events.find((e) => e.type === 'user_updated')!.detail).toContain(
      'role operator → viewer',
    )
    expect(JSON.stringify(audit.json)).not.toContain('new-pass-1')
  })

  it('answers 400s that name the field, and 404 for an unknown user', async () => {
    const cases: Array<[object, string]> = [
      [{ username: 'bad name', password: 'long-enough', role: 'viewer' }, 'username'],
      [{ username: 'x'.repeat(65), password: 'long-enough', role: 'viewer' }, 'username'],
      [{ username: 'ADMIN', password: 'long-enough', role: 'viewer' }, 'username'],
      [{ username: 'bob', password: 'short', role: 'viewer' }, 'password'],
      [{ username: 'bob', password: 'long-enough', role: 'root' }, 'role'],
      [{ username: 'bob', password: 'long-enough', role: 'viewer', disabled: 'no' }, 'disabled'],
      [{ username: 'bob', password: 'long-enough', role: 'viewer', admin: true }, 'admin'],
    ]
    for (const [body, field] of cases) {
      const res = await addUser(body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.json.code).toBe('FIELD_INVALID')
      expect(res.json.message.startsWith(`${field}: `), res.json.message).toBe(true)
    }
    expect((await putUser('admin', { role: 'boss' })).json.message).toMatch(/^role: /)
    expect((await putUser('admin', { username: 'x' })).json.message).toMatch(/^username: /)
    const missing = await putUser('nobody', { role: 'viewer' })
    expect(missing.status).toBe(404)
    expect(missing.json.code).toBe('USER_NOT_FOUND')
    const del = await server.call('DELETE', '/api/users/nobody', as(admin.cookies))
    expect(del.status).toBe(404)
  })

  it('is for admins only', async () => {
    const operator = await signedIn('olga', 'operator')
    const res = await server.call('GET', '/api/users', { cookies: operator })
    expect(res.status).toBe(403)
    expect(res.json.code).toBe('ROLE_REQUIRED')
  })

  it('never removes, disables or demotes the last enabled admin', async () => {
    expect((await putUser('admin', { role: 'operator' })).json.message).toMatch(/^role: /)
    expect((await putUser('admin', { disabled: true })).json.message).toMatch(/^disabled: /)
    const del = await server.call('DELETE', '/api/users/admin', as(admin.cookies))
    expect(del.status).toBe(400)
    expect(del.json.message).toMatch(/^username: /)
    // With a second admin, the first may go.
    await addUser({ username: 'second', password: 'second-password', role: 'admin' })
    expect((await putUser('admin', { role: 'viewer' })).status).toBe(200)
    // The first is a viewer now: the API token (an admin) tries to disable the last admin.
    const last = await server.call('PUT', '/api/users/second', {
      token: admin.apiToken,
      body: { disabled: true },
    })
    expect(last.status).toBe(400)
    expect(last.json.message).toMatch(/^disabled: /)
  })
})

describe('roles of local users', () => {
  it('lets an operator acknowledge but not change the alert config', async () => {
    const operator = await signedIn('olga', 'operator')
    const ack = await server.call('POST', '/api/alerts/bulk/acknowledge', {
      ...as(operator),
      body: { alertIds: ['none-such'] },
    })
    expect(ack.status, ack.text).toBe(200)
    const config = (await server.call('GET', '/api/alerts/config', { cookies: operator })).json
    const put = await server.call('PUT', '/api/alerts/config', { ...as(operator), body: config })
    expect(put.status).toBe(403)
    expect(put.json.code).toBe('ROLE_REQUIRED')
  })

  it('refuses a viewer a bulk acknowledge', async () => {
    const viewer = await signedIn('vera', 'viewer')
    expect((await server.call('GET', '/api/state', { cookies: viewer })).status).toBe(200)
    const ack = await server.call('POST', '/api/alerts/bulk/acknowledge', {
      ...as(viewer),
      body: { alertIds: ['none-such'] },
    })
    expect(ack.status).toBe(403)
    expect(ack.json.code).toBe('ROLE_REQUIRED')
  })

  it('applies a demotion to the next request of a signed-in user', async () => {
    const user = await signedIn('dana', 'admin')
    expect((await server.call('GET', '/api/users', { cookies: user })).status).toBe(200)
    await putUser('dana', { role: 'viewer' })
    const after = await server.call('GET', '/api/users', { cookies: user })
    expect(after.status).toBe(403)
    expect(after.json.code).toBe('ROLE_REQUIRED')
  })

  it('signs in by Basic with the user’s role', async () => {
    await addUser({ username: 'basic', password: 'basic-password', role: 'viewer' })
    const basic = { username: 'basic', password: 'basic-password' }
    expect((await server.call('GET', '/api/state', { basic })).status).toBe(200)
    expect((await server.call('GET', '/api/users', { basic })).status).toBe(403)
  })

  it('lets each user change their own password, and only theirs', async () => {
    const user = await signedIn('vera', 'viewer')
    const res = await server.call('POST', '/api/security/change-password', {
      ...as(user),
      body: { currentPassword: 'vera-password', newPassword: 'vera-new-password' },
    })
    expect(res.status, res.text).toBe(200)
    // Their session ended; the admin's did not.
    expect((await server.call('GET', '/api/state', { cookies: user })).status).toBe(401)
    expect((await server.call('GET', '/api/state', { cookies: admin.cookies })).status).toBe(200)
    await login(server, 'vera', 'vera-new-password')
    await login(server, 'admin', PASSWORD)
  })
})

describe('disabling and deleting a user', () => {
  it('ends the session and closes the open socket at once', async () => {
    const user = await signedIn('dana', 'operator')
    const socket = await openSessionSocket(server, user)
    const res = await putUser('dana', { disabled: true })
    expect(res.status).toBe(200)
    expect(await socket.closed).toBe(4001)
    expect((await server.call('GET', '/api/state', { cookies: user })).status).toBe(401)
    // A disabled user signing in gets a wrong password's answer.
    const again = await server.call('POST', '/api/login', {
      body: { username: 'dana', password: 'dana-password' },
    })
    expect(again.status).toBe(401)
    expect(again.json.code).toBe('INVALID_CREDENTIALS')
    // Enabled again, the password works.
    await putUser('dana', { disabled: false })
    await login(server, 'dana', 'dana-password')
  })

  it('ends a deleted user’s session and socket', async () => {
    const user = await signedIn('dana', 'viewer')
    const socket = await openSessionSocket(server, user)
    expect((await server.call('DELETE', '/api/users/dana', as(admin.cookies))).status).toBe(200)
    expect(await socket.closed).toBe(4001)
    expect((await server.call('GET', '/api/state', { cookies: user })).status).toBe(401)
  })
})

describe('lockout per account', () => {
  it('locks the user who got five wrong passwords, not another', async () => {
    await addUser({ username: 'dana', password: 'dana-password', role: 'viewer' })
    for (let i = 0; i < 5; i++) {
      await server.ctx.app.http.inject({
        method: 'POST',
        url: '/api/login',
        remoteAddress: `203.0.113.${i + 1}`,
        payload: { username: 'dana', password: 'wrong-one' },
      })
    }
    const locked = await server.call('POST', '/api/login', {
      body: { username: 'dana', password: 'dana-password' },
    })
    expect(locked.status).toBe(403)
    expect(locked.json.code).toBe('ACCOUNT_LOCKED')
    await login(server, 'admin', PASSWORD)
    // The admin sees the locked user beside the first-run account, and lifts the lock.
    const locks = await server.call('GET', '/api/security/lockout', { cookies: admin.cookies })
    expect(
      locks.json.accounts.map((a: { username: string; locked: boolean }) => [a.username, a.locked]),
    ).toEqual([
      ['admin', false],
      ['dana', true],
    ])
    const unlock = await server.call('POST', '/api/security/unlock', {
      ...as(admin.cookies),
      body: { username: 'dana' },
    })
    expect(unlock.json).toEqual({ success: true, unlocked: true })
    await login(server, 'dana', 'dana-password')
  })
})

describe('config export and import', () => {
  it('carries the users with their hashes; the diagnostics export names none', async () => {
    await addUser({ username: 'dana', password: 'dana-password', role: 'operator' })
    await addUser({ username: 'vera', password: 'vera-password', role: 'viewer', disabled: true })
    const diag = await server.call('GET', '/api/diagnostics/export', { cookies: admin.cookies })
    expect(diag.status).toBe(200)
    expect(diag.text).not.toContain('dana')
    expect(diag.text).not.toContain('vera')
    const file = await server.call('POST', '/api/config/export', {
      ...as(admin.cookies),
      body: { passphrase: PASSWORD },
    })
    expect(file.status, file.text).toBe(200)

    const target = await startAuthServer()
    try {
      const targetAdmin = await quickSetup(target, { password: 'target-password-1' })
      const res = await target.call('POST', '/api/config/import', {
        cookies: targetAdmin.cookies,
        csrf: targetAdmin.cookies.pulse_csrf,
        body: { passphrase: PASSWORD, data: file.json },
      })
      expect(res.status, res.text).toBe(200)
      const list = await target.call('GET', '/api/users', { cookies: targetAdmin.cookies })
      expect(
        list.json.users.map((u: { username: string; role: string; disabled: boolean }) => [
          u.username,
          u.role,
          u.disabled,
        ]),
      ).toEqual([
        ['admin', 'admin', false],
        ['dana', 'operator', false],
        ['vera', 'viewer', true],
      ])
      await login(target, 'dana', 'dana-password')
      await login(target, 'admin', PASSWORD)
    } finally {
      await target.close()
    }
  })
})

describe('upgrade from the single account', () => {
  it('starts on a data dir from before the users table and signs in as admin', async () => {
    const tmp = makeTempDir()
    try {
      const db = openDatabase(tmp.dir)
      const users = MIGRATIONS.findIndex((sql) => sql.includes('CREATE TABLE IF NOT EXISTS users'))
      db.exec('DROP TABLE users')
      db.prepare('UPDATE schema_version SET version = ?').run(users)
      db.prepare(
        `INSERT INTO auth_settings (id, username, password_hash, api_token_hash, api_token_hint,
           created_at, updated_at) VALUES (1, 'root', ?, NULL, '', 1, 1)`,
      ).run(await hashPassword('old-password-1'))
      db.close()
      const old = await startAuthServer({ dataDir: tmp.dir })
      try {
        const cookies = await login(old, 'root', 'old-password-1')
        const list = await old.call('GET', '/api/users', { cookies })
        expect(list.status).toBe(200)
        expect(list.json.users).toMatchObject([{ username: 'root', role: 'admin' }])
      } finally {
        await old.close()
      }
    } finally {
      tmp.cleanup()
    }
  })
})
