// Every call of spec 001 §7's table (and spec 000 §7's) is served (issue 24 #36): each row is called
// with an admin session over real HTTP on 127.0.0.1 and must answer its expected status, never the
// router's 404. Then the shapes of the settings calls the reference's own UI reads
// (/api/config/system, /api/settings) and writes (/api/settings/update, /api/settings/validate).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeCollected } from '../collected-fixture.ts'
import {
  quickSetup,
  startAuthServer,
  type AuthTestServer,
  type CallOptions,
  type Credentials,
} from '../auth/auth-helpers.ts'

let server: AuthTestServer
let creds: Credentials
let admin: Omit<CallOptions, 'body'>
const ids = { node: '', webhook: '' }
const GUEST = 'lab-pve1-100'

beforeAll(async () => {
  // Webhooks to loopback allowed: the webhook rows target 127.0.0.1:9, where nothing listens.
  server = await startAuthServer({ webhookAllowLoopback: true })
  creds = await quickSetup(server)
  admin = { cookies: creds.cookies, csrf: creds.cookies.pulse_csrf }
  await server.ctx.app.live.applyCollected(makeCollected(4, 1))
  const node = await server.call('POST', '/api/config/nodes', {
    ...admin,
    body: {
      type: 'pve',
      name: 'lab',
      host: 'https://127.0.0.1:9',
      tokenName: 'pulse@pam!pulse-token',
      tokenValue: 'a-token-value',
      verifySSL: false,
    },
  })
  expect(node.status).toBe(201)
  ids.node = (await server.call('GET', '/api/config/nodes', admin)).json[0].id
  const hook = await server.call('POST', '/api/notifications/webhooks', {
    ...admin,
    body: { name: 'ops', url: 'http://127.0.0.1:9/hook', service: 'generic', enabled: false },
  })
  expect(hook.status).toBe(200)
  ids.webhook = hook.json.id
})
afterAll(() => server?.close())

interface Row {
  method: string
  /** `{node}`, `{webhook}` are replaced by the ids created above. */
  path: string
  body?: unknown | (() => Promise<unknown>)
  status: number
  /** For an error: its code or message, so a refusal is told apart from the router's 404. */
  code?: string
  message?: RegExp
}

/** Spec 001 §7's table in its order, then spec 000 §7's metadata calls; logout last. */
const TABLE: Row[] = [
  { method: 'GET', path: '/api/security/status', status: 200 },
  { method: 'GET', path: '/api/state', status: 200 },
  { method: 'POST', path: '/api/oidc/login', body: { returnTo: '/' }, status: 400 },
  { method: 'GET', path: '/api/health', status: 200 },
  { method: 'GET', path: '/api/config/nodes', status: 200 },
  { method: 'POST', path: '/api/config/nodes', body: { type: 'pve' }, status: 400 },
  {
    method: 'PUT',
    path: '/api/config/nodes/{node}',
    body: { type: 'pve', name: 'lab', host: 'https://127.0.0.1:9', verifySSL: false },
    status: 200,
  },
  {
    method: 'POST',
    path: '/api/config/nodes/test-connection',
    body: { type: 'pve', host: 'https://127.0.0.1:9', tokenName: 'a@pam!b', tokenValue: 'c' },
    status: 502,
    code: 'PVE_UNREACHABLE',
  },
  { method: 'POST', path: '/api/config/nodes/{node}/test', status: 502, code: 'PVE_UNREACHABLE' },
  {
    method: 'POST',
    path: '/api/setup-script-url',
    body: { type: 'pve', host: 'https://127.0.0.1:8006', backupPerms: false },
    status: 200,
  },
  { method: 'GET', path: '/api/setup-script?type=pve&host=https://127.0.0.1:8006', status: 200 },
  { method: 'GET', path: '/api/discover', status: 200 },
  { method: 'POST', path: '/api/discover', body: { subnet: 'not-a-subnet' }, status: 400 },
  { method: 'GET', path: '/api/config/system', status: 200 },
  { method: 'GET', path: '/api/settings', status: 200 },
  { method: 'POST', path: '/api/settings/update', body: { settings: {} }, status: 200 },
  { method: 'GET', path: '/api/system/settings', status: 200 },
  { method: 'POST', path: '/api/system/settings/update', body: { theme: 'dark' }, status: 200 },
  { method: 'POST', path: '/api/settings/validate', body: {}, status: 200 },
  { method: 'POST', path: '/api/security/regenerate-token', status: 200 },
  {
    method: 'POST',
    path: '/api/security/change-password',
    body: { currentPassword: 'not-the-password', newPassword: 'another-password-1' },
    status: 401,
  },
  { method: 'POST', path: '/api/security/quick-setup', body: {}, status: 200 },
  { method: 'GET', path: '/api/security/oidc', status: 200 },
  { method: 'PUT', path: '/api/security/oidc', body: { enabled: false }, status: 200 },
  { method: 'GET', path: '/api/guests/metadata', status: 200 },
  {
    method: 'PUT',
    path: `/api/guests/metadata/${GUEST}`,
    body: { customUrl: 'https://example.com/' },
    status: 200,
  },
  { method: 'GET', path: '/api/updates/check', status: 502 },
  {
    method: 'POST',
    path: '/api/updates/apply',
    body: {},
    status: 400,
    code: 'FIELD_INVALID',
  },
  { method: 'GET', path: '/api/updates/status', status: 200 },
  { method: 'GET', path: '/api/version', status: 200 },
  {
    method: 'POST',
    path: '/api/config/export',
    body: () => Promise.resolve({ passphrase: creds.password }),
    status: 200,
  },
  {
    method: 'POST',
    path: '/api/config/import',
    body: () => Promise.resolve({ passphrase: creds.password, data: 'not an export' }),
    status: 400,
  },
  { method: 'GET', path: '/api/diagnostics', status: 200 },
  { method: 'GET', path: '/api/notifications/email', status: 200 },
  { method: 'PUT', path: '/api/notifications/email', body: { enabled: false }, status: 200 },
  { method: 'GET', path: '/api/notifications/webhooks', status: 200 },
  {
    method: 'POST',
    path: '/api/notifications/webhooks',
    body: { name: 'second', url: 'http://127.0.0.1:9/b', service: 'generic', enabled: false },
    status: 200,
  },
  {
    method: 'PUT',
    path: '/api/notifications/webhooks/{webhook}',
    body: { name: 'ops', url: 'http://127.0.0.1:9/hook', service: 'generic', enabled: false },
    status: 200,
  },
  { method: 'GET', path: '/api/notifications/email-providers', status: 200 },
  { method: 'GET', path: '/api/notifications/webhook-templates', status: 200 },
  { method: 'POST', path: '/api/notifications/test', body: { method: 'email' }, status: 400 },
  {
    method: 'POST',
    path: '/api/notifications/webhooks/test',
    // Port 2: closed, and not one of the ports fetch refuses outright.
    body: { name: 't', url: 'http://127.0.0.1:2/t', service: 'generic' },
    status: 400,
    code: 'WEBHOOK_TEST_FAILED',
  },
  { method: 'DELETE', path: '/api/notifications/webhooks/{webhook}', status: 200 },
  { method: 'GET', path: '/api/alerts/active', status: 200 },
  { method: 'GET', path: '/api/alerts/history?limit=1000', status: 200 },
  {
    method: 'POST',
    path: '/api/alerts/no-such-alert/acknowledge',
    body: { user: 'admin' },
    status: 404,
    message: /^alert not found/,
  },
  {
    method: 'POST',
    path: '/api/alerts/no-such-alert/unacknowledge',
    status: 404,
    message: /^alert not found/,
  },
  { method: 'POST', path: '/api/alerts/no-such-alert/clear', status: 200 },
  { method: 'DELETE', path: '/api/alerts/history', status: 200 },
  {
    method: 'POST',
    path: '/api/alerts/bulk/acknowledge',
    body: { alertIds: ['no-such-alert'], user: 'admin' },
    status: 200,
  },
  { method: 'POST', path: '/api/alerts/bulk/clear', body: { alertIds: ['x'] }, status: 200 },
  { method: 'GET', path: '/api/alerts/config', status: 200 },
  {
    method: 'PUT',
    path: '/api/alerts/config',
    body: async () => (await server.call('GET', '/api/alerts/config', admin)).json,
    status: 200,
  },
  // Spec 000 §7: the guest metadata calls.
  { method: 'GET', path: `/api/guests/metadata/${GUEST}`, status: 200 },
  { method: 'DELETE', path: `/api/guests/metadata/${GUEST}`, status: 204 },
  { method: 'DELETE', path: '/api/config/nodes/{node}', status: 200 },
  { method: 'POST', path: '/api/logout', status: 200 },
]

describe('the calls of spec 001 §7 with an admin session', () => {
  it.each(TABLE)('$method $path answers $status', async (row) => {
    const path = row.path.replace('{node}', ids.node).replace('{webhook}', ids.webhook)
    const body = typeof row.body === 'function' ? await row.body() : row.body
    const res = await server.call(row.method, path, { ...admin, body })
    expect(res.status, res.text).toBe(row.status)
    if (res.status >= 400) expect(res.json?.code, res.text).not.toBe('NOT_FOUND')
    if (row.code) expect(res.json?.code).toBe(row.code)
    if (row.message) expect(res.json?.message).toMatch(row.message)
  })
})
