// The email routes over real HTTP with authentication on: GET never answers the password, PUT
// validates naming the field and saves nothing on error, the password is sealed at rest, the test
// route sends through a real SMTP server (smtp-server on 127.0.0.1) and answers its failures
// clearly; every write needs the CSRF token.
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EmailConfig, EmailProvider } from '../../../../src/shared/model/notifications.ts'
import { quickSetup, startAuthServer, type AuthTestServer } from '../auth/auth-helpers.ts'
import { smtpConfig } from './email-fixture.ts'
import { startSmtp, type TestSmtp } from './smtp-fixture.ts'

let server: AuthTestServer
let smtp: TestSmtp
let session: { cookies: Record<string, string>; csrf: string }
const PASSWORD = 'very-secret-smtp-password'

beforeAll(async () => {
  server = await startAuthServer()
  const creds = await quickSetup(server)
  session = { cookies: creds.cookies, csrf: creds.cookies.pulse_csrf }
  smtp = await startSmtp({ auth: { user: 'pulse', pass: PASSWORD } })
})
afterAll(async () => {
  await server.close()
  await smtp.close()
})

const getEmail = async () =>
  (await server.call('GET', '/api/notifications/email', session)).json as EmailConfig
const putEmail = (body: unknown) =>
  server.call('PUT', '/api/notifications/email', { ...session, body })
const saved = () => smtpConfig(smtp.port, { username: 'pulse', password: PASSWORD })

describe('email routes', () => {
  it('answers the defaults on a fresh install, without a password', async () => {
    expect(await getEmail()).toMatchObject({
      enabled: false,
      port: 587,
      password: '',
      hasPassword: false,
      rateLimit: 60,
      maxRetries: 3,
      retryDelay: 5,
      to: [],
    })
  })

  it('saves the settings, seals the password and never answers it', async () => {
    const res = await putEmail(saved())
    expect(res.status).toBe(200)
    expect(res.json).toEqual({ status: 'success' })
    const got = await getEmail()
    expect(got).toMatchObject({ server: '127.0.0.1', port: smtp.port, username: 'pulse' })
    expect(got.password).toBe('')
    expect(got.hasPassword).toBe(true)
    const row = server.ctx.app.db.prepare('SELECT json, password_enc FROM email_config').get() as {
      json: string
      password_enc: string
    }
    expect(row.password_enc).toMatch(/^v1:/)
    expect(row.json).not.toContain(PASSWORD)
    const dir = server.ctx.dataDir
    for (const file of fs.readdirSync(dir).filter((f) => f.startsWith('pulse.db'))) {
      expect(fs.readFileSync(path.join(dir, file)).includes(PASSWORD)).toBe(false)
    }
    const audit = await server.call('GET', '/api/security/audit', session)
    const entry = (audit.json.events as Array<{ type: string; detail: string }>).find(
      (e) => e.type === 'email_config_changed',
    )
    expect(entry?.detail).toContain('password changed')
    expect(JSON.stringify(audit.json)).not.toContain(PASSWORD)
  })

  it('keeps the stored password on a blank one: the stored-settings test authenticates', async () => {
    expect((await putEmail({ ...saved(), password: '', replyTo: '' })).status).toBe(200)
    expect((await getEmail()).hasPassword).toBe(true)
    const res = await server.call('POST', '/api/notifications/test', {
      ...session,
      body: { type: 'email' },
    })
    expect(res.json).toEqual({ status: 'success', message: 'Test notification sent' })
    const mails = await smtp.waitFor(1)
    expect(mails.at(-1)).toMatchObject({
      subject: '[Pulse] Test notification',
      user: 'pulse',
      rcpt: ['ops@example.test', 'oncall@example.test'],
    })
  })

  it('tests unsaved settings, with the stored password when the field is blank', async () => {
    const before = smtp.mails.length
    const config = { ...saved(), password: '', to: ['someone@example.test'] }
    const res = await server.call('POST', '/api/notifications/test', {
      ...session,
      body: { method: 'email', config },
    })
    expect(res.status).toBe(200)
    const mails = await smtp.waitFor(before + 1)
    expect(mails.at(-1)!.rcpt).toEqual(['someone@example.test'])
    // Testing saves nothing.
    expect((await getEmail()).to).toEqual(['ops@example.test', 'oncall@example.test'])
  })

  it('answers a failed test with the clear SMTP error', async () => {
    const wrong = await server.call('POST', '/api/notifications/test', {
      ...session,
      body: { type: 'email', config: { ...saved(), password: 'nope' } },
    })
    expect(wrong.status).toBe(400)
    expect(wrong.json.error).toMatch(/^SMTP authentication failed: /)
    expect(wrong.json.message).toBe(wrong.json.error)
    const refused = await server.call('POST', '/api/notifications/test', {
      ...session,
      body: { type: 'email', config: { ...saved(), port: 1 } },
    })
    expect(refused.status).toBe(400)
    expect(refused.json.error).toBe('Cannot connect to SMTP server 127.0.0.1:1')
  })

  it.each([
    [{ port: 70000 }, 'port'],
    [{ port: 0 }, 'port'],
    [{ from: 'not-an-address' }, 'from'],
    [{ to: ['ops@example.test', 'broken@'] }, 'to.1'],
    [{ to: Array.from({ length: 51 }, (_, i) => `u${i}@example.test`) }, 'to'],
    [{ replyTo: 'x y@z' }, 'replyTo'],
    [{ rateLimit: 0 }, 'rateLimit'],
    [{ rateLimit: 601 }, 'rateLimit'],
    [{ maxRetries: 6 }, 'maxRetries'],
    [{ retryDelay: 61 }, 'retryDelay'],
    [{ tls: 'yes' }, 'tls'],
    [{ server: '' }, 'server'],
  ])('refuses %j naming %s, and saves nothing', async (patch, field) => {
    const before = await getEmail()
    const res = await putEmail({ ...saved(), ...patch, password: 'changed-password' })
    expect(res.status).toBe(400)
    expect(res.json.error).toMatch(new RegExp(`^${field.replace('.', '\\.')}: `))
    expect(res.json.code).toBe('FIELD_INVALID')
    expect(await getEmail()).toEqual(before)
  })

  it('clears the password on request', async () => {
    expect((await putEmail({ ...saved(), password: '', clearPassword: true })).status).toBe(200)
    expect((await getEmail()).hasPassword).toBe(false)
    expect((await putEmail(saved())).status).toBe(200)
  })

  it('lists the providers of the reference plus a custom server', async () => {
    const res = await server.call('GET', '/api/notifications/email-providers', session)
    const list = res.json as EmailProvider[]
    expect(list).toHaveLength(11)
    expect(list[0]).toMatchObject({
      name: 'Gmail / Google Workspace',
      smtpHost: 'smtp.gmail.com',
      smtpPort: 587,
      startTLS: true,
      authRequired: true,
    })
    expect(list.every((p) => p.instructions.length > 0)).toBe(true)
    expect(list.at(-1)).toMatchObject({ name: 'Custom SMTP Server', smtpHost: '' })
  })

  it('refuses writes without the CSRF token and reads without a session', async () => {
    const before = await getEmail()
    const put = await server.call('PUT', '/api/notifications/email', {
      cookies: session.cookies,
      body: { ...saved(), port: 2525 },
    })
    expect(put.status).toBe(403)
    const sent = smtp.mails.length
    const test = await server.call('POST', '/api/notifications/test', {
      cookies: session.cookies,
      body: { type: 'email' },
    })
    expect(test.status).toBe(403)
    expect(await getEmail()).toEqual(before)
    expect(smtp.mails.length).toBe(sent)
    expect((await server.call('GET', '/api/notifications/email')).status).toBe(401)
  })
})
