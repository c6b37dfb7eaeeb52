// The notification settings in a configuration export and import, over real HTTP with real SQLite
// and key files: the email settings with their SMTP password and the webhooks with their URL
// tokens, credential headers and secret custom fields restore into a fresh instance, sealed with
// its own key and usable there; a damaged notification section changes nothing at all.
import { afterEach, describe, expect, it } from 'vitest'
import {
  decryptConfig,
  encryptConfig,
  parseExportFile,
} from '../../../../src/server/backup/config-crypto.ts'
import { createEmailRepo } from '../../../../src/server/store/email-repo.ts'
import { createSecretBox, loadOrCreateKey } from '../../../../src/server/store/secret-box.ts'
import { createWebhookRepo } from '../../../../src/server/store/webhook-repo.ts'
import {
  quickSetup,
  startAuthServer,
  type AuthTestServer,
  type Credentials,
} from '../auth/auth-helpers.ts'
import { TEST_KDF_COST } from '../helpers.ts'

const SMTP_PASSWORD = 'smtp-app-password-8841'
const URL_TOKEN = 'XyZ123SlackTokenSegmentAbCdEf'
const HEADER_TOKEN = 'bearer-secret-6672'
const APP_TOKEN = 'pushover-app-token-9910'
const USER_TOKEN = 'pushover-user-token-3355'
const PASSPHRASE = 'a passphrase for the notification test'

const servers: AuthTestServer[] = []
afterEach(async () => {
  while (servers.length) await servers.pop()!.close()
})

async function start(): Promise<{ server: AuthTestServer; creds: Credentials }> {
  const server = await startAuthServer()
  servers.push(server)
  return { server, creds: await quickSetup(server) }
}

const as = (creds: Credentials, body?: unknown) => ({
  cookies: creds.cookies,
  csrf: creds.cookies.pulse_csrf,
  body,
})

/** The instance's repositories, opened with its own key. */
function repos(server: AuthTestServer) {
  const box = createSecretBox(loadOrCreateKey(server.ctx.dataDir))
  const { db } = server.ctx.app
  return { email: createEmailRepo(db, box), webhooks: createWebhookRepo(db, box), box, db }
}

async function seededSource() {
  const { server, creds } = await start()
  const email = await server.call(
    'PUT',
    '/api/notifications/email',
    as(creds, {
      enabled: true,
      provider: 'Custom SMTP Server',
      server: 'smtp.example.test',
      port: 465,
      username: 'alerts@example.test',
      password: SMTP_PASSWORD,
      from: 'Pulse <alerts@example.test>',
      to: ['ops@example.test', 'oncall@example.test'],
      tls: true,
      startTLS: false,
      replyTo: 'noreply@example.test',
      rateLimit: 30,
      maxRetries: 2,
      retryDelay: 10,
    }),
  )
  expect(email.status, email.text).toBe(200)
  const slack = await server.call(
    'POST',
    '/api/notifications/webhooks',
    as(creds, {
      name: 'Ops Slack',
      url: `https://hooks.example.test/services/T000/B000/${URL_TOKEN}`,
      service: 'slack',
      method: 'POST',
      headers: { Authorization: `Bearer ${HEADER_TOKEN}`, 'X-Team': 'ops' },
      enabled: true,
      template: '',
      customFields: {},
      secretFields: [],
    }),
  )
  expect(slack.status, slack.text).toBe(200)
  const pushover = await server.call(
    'POST',
    '/api/notifications/webhooks',
    as(creds, {
      name: 'Phone',
      url: 'https://api.pushover.example.test/1/messages.json',
      service: 'pushover',
      method: 'POST',
      headers: {},
      enabled: false,
      template: '',
      customFields: { app_token: APP_TOKEN, user_token: USER_TOKEN, sound: 'siren' },
      secretFields: ['app_token', 'user_token'],
    }),
  )
  expect(pushover.status, pushover.text).toBe(200)
  const exported = await server.call(
    'POST',
    '/api/config/export',
    as(creds, { passphrase: PASSPHRASE }),
  )
  expect(exported.status, exported.text).toBe(200)
  return { server, creds, file: exported.json }
}

/** Everything of the notification settings as stored, and the nodes (another section). */
function stored(server: AuthTestServer) {
  const { db } = server.ctx.app
  return {
    email: db.prepare('SELECT * FROM email_config').all(),
    webhooks: db.prepare('SELECT * FROM webhooks ORDER BY id').all(),
    auth: db.prepare('SELECT username, password_hash FROM auth_settings').all(),
  }
}

describe('notification settings in the configuration export', () => {
  it('restores email and webhooks with usable secrets into a fresh instance', async () => {
    const source = await seededSource()
    // The file itself holds no secret in the clear.
    for (const secret of [SMTP_PASSWORD, URL_TOKEN, HEADER_TOKEN, APP_TOKEN, USER_TOKEN]) {
      expect(JSON.stringify(source.file)).not.toContain(secret)
    }
    const target = await start()
    const res = await target.server.call(
      'POST',
      '/api/config/import',
      as(target.creds, { passphrase: PASSPHRASE, data: source.file }),
    )
    expect(res.status, res.text).toBe(200)

    const from = repos(source.server)
    const to = repos(target.server)
    expect(to.email.getResolved()).toEqual(from.email.getResolved())
    expect(to.email.getResolved().password).toBe(SMTP_PASSWORD)
    expect(to.webhooks.listResolved()).toEqual(from.webhooks.listResolved())
    const [slack, phone] = to.webhooks.listResolved()
    expect(slack!.url).toContain(URL_TOKEN)
    expect(slack!.headers.Authorization).toBe(`Bearer ${HEADER_TOKEN}`)
    expect(phone!.customFields).toMatchObject({ app_token: APP_TOKEN, user_token: USER_TOKEN })

    // Sealed with the target's key: the source's key opens none of it.
    const row = to.db.prepare('SELECT password_enc AS v FROM email_config').get() as { v: string }
    expect(row.v).not.toContain(SMTP_PASSWORD)
    expect(to.box.decrypt(row.v)).toBe(SMTP_PASSWORD)
    expect(() => from.box.decrypt(row.v)).toThrow()
    const hook = to.db.prepare('SELECT url_enc FROM webhooks WHERE id = ?').get(slack!.id) as {
      url_enc: string
    }
    expect(to.box.decrypt(hook.url_enc)).toContain(URL_TOKEN)

    // The routes answer them masked, as for any stored settings.
    const email = await target.server.call('GET', '/api/notifications/email', as(target.creds))
    expect(email.json).toMatchObject({
      password: '',
      hasPassword: true,
      server: 'smtp.example.test',
    })
    const hooks = await target.server.call('GET', '/api/notifications/webhooks', as(target.creds))
    expect(hooks.text).not.toContain(URL_TOKEN)
    expect(hooks.json.map((h: { name: string }) => h.name)).toEqual(['Ops Slack', 'Phone'])
  })

  it('replaces what the target had, and an import without the sections clears them', async () => {
    const source = await seededSource()
    const target = await seededSource()
    const file = parseExportFile(source.file, TEST_KDF_COST)
    const snapshot = JSON.parse(await decryptConfig(file, PASSPHRASE))
    snapshot.webhooks = snapshot.webhooks.slice(1)
    delete snapshot.email
    const data = await encryptConfig(
      JSON.stringify(snapshot),
      PASSPHRASE,
      new Date(),
      TEST_KDF_COST,
    )
    const res = await target.server.call(
      'POST',
      '/api/config/import',
      as(target.creds, { passphrase: PASSPHRASE, data }),
    )
    expect(res.status, res.text).toBe(200)
    const to = repos(target.server)
    expect(to.webhooks.listResolved().map((h) => h.name)).toEqual(['Phone'])
    expect(to.email.get()).toMatchObject({ enabled: false, server: '', hasPassword: false })
  })

  it('changes nothing when a notification section is damaged', async () => {
    const source = await seededSource()
    const target = await seededSource()
    const before = stored(target.server)
    const file = parseExportFile(source.file, TEST_KDF_COST)
    const good = JSON.parse(await decryptConfig(file, PASSPHRASE))
    // Four: with the seed's export, the five calls the rate limit allows.
    const damaged = [
      { ...good, webhooks: [{ ...good.webhooks[0], method: 'GET' }] },
      { ...good, webhooks: [good.webhooks[0], good.webhooks[0]] },
      { ...good, webhooks: [{ ...good.webhooks[0], url: 'ftp://example.test/x' }] },
      { ...good, email: { ...good.email, port: 0 } },
    ]
    for (const snapshot of damaged) {
      const data = await encryptConfig(
        JSON.stringify(snapshot),
        PASSPHRASE,
        new Date(),
        TEST_KDF_COST,
      )
      const res = await target.server.call('POST', '/api/config/import', {
        token: target.creds.apiToken,
        body: { passphrase: PASSPHRASE, data },
      })
      expect(res.status, res.text).toBe(400)
      expect(res.json.code).toBe('IMPORT_DAMAGED')
      expect(stored(target.server)).toEqual(before)
    }
  })
})
