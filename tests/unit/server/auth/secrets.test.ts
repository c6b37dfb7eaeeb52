// Secrets (login password, API token, session ids, node token values, the single sign-on client
// secret) never leave the two one-time answers: not the SQLite files, not other answers, not logs.
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { cookieValues, startAuthServer, type Answer, type AuthTestServer } from './auth-helpers.ts'

let server: AuthTestServer
beforeEach(async () => {
  server = await startAuthServer({}, { captureLogs: true })
})
afterEach(async () => {
  await server.close()
})

const CUSTOM_PASSWORD = 'Sup3r-Secret-Passw0rd'
const NEW_PASSWORD = 'An0ther-Secret-Passw0rd'
const NODE_TOKEN_VALUE = '1f0e9d8c-7b6a-4c3d-9e2f-a1b2c3d4e5f6'
const OIDC_CLIENT_SECRET = 'oidc-client-secret-5e4d3c2b1a'

describe('secrets', () => {
  it('stay out of the database files, other answers and the server log', async () => {
    const answers: Array<{ what: string; answer: Answer }> = []
    const call = async (what: string, ...args: Parameters<AuthTestServer['call']>) => {
      const answer = await server.call(...args)
      answers.push({ what, answer })
      return answer
    }

    const setup = await server.call('POST', '/api/security/quick-setup', {
      body: { password: CUSTOM_PASSWORD },
    })
    const token: string = setup.json.apiToken
    const setupCookies = cookieValues(setup)
    await call('bad login', 'POST', '/api/login', {
      body: { username: 'admin', password: CUSTOM_PASSWORD + 'x' },
    })
    // A password typed into the username field.
    await call('swapped login', 'POST', '/api/login', {
      body: { username: CUSTOM_PASSWORD, password: 'admin' },
    })
    const loginAnswer = await call('login', 'POST', '/api/login', {
      body: { username: 'admin', password: CUSTOM_PASSWORD },
    })
    const cookies = cookieValues(loginAnswer)
    await call('status', 'GET', '/api/security/status', { cookies })
    await call('state by token', 'GET', '/api/state', { token })
    await call('state by basic', 'GET', '/api/state', {
      basic: { username: 'admin', password: CUSTOM_PASSWORD },
    })
    await call('bad basic', 'GET', '/api/state', {
      basic: { username: 'admin', password: 'wrong-' + CUSTOM_PASSWORD },
    })
    await call('bad token', 'GET', '/api/state', { token: token + '0' })
    await call('audit', 'GET', '/api/security/audit', { token })
    await new Promise<void>((resolve, reject) => {
      const ws = new WebSocket(server.base.replace('http', 'ws') + '/ws', {
        headers: { 'x-api-token': token },
      })
      ws.once('message', () => {
        ws.close()
        resolve()
      })
      ws.once('error', reject)
    })
    await call('change password', 'POST', '/api/security/change-password', {
      cookies,
      csrf: cookies.pulse_csrf,
      body: { currentPassword: CUSTOM_PASSWORD, newPassword: NEW_PASSWORD },
    })
    // A monitored node's token value and the single sign-on client secret are secrets too.
    await call('add node', 'POST', '/api/config/nodes', {
      token,
      body: {
        type: 'pve',
        name: 'lab',
        host: 'https://127.0.0.1:8006',
        tokenName: 'pulse-monitor@pam!pulse-token',
        tokenValue: NODE_TOKEN_VALUE,
        verifySSL: false,
      },
    })
    await call('list nodes', 'GET', '/api/config/nodes', { token })
    await call('save sso', 'PUT', '/api/security/oidc', {
      token,
      body: {
        enabled: true,
        issuerUrl: 'https://sso.example.com',
        clientId: 'pulse',
        clientSecret: OIDC_CLIENT_SECRET,
      },
    })
    await call('read sso', 'GET', '/api/security/oidc', { token })
    const regenerated = await server.call('POST', '/api/security/regenerate-token', { token })
    const newToken: string = regenerated.json.token
    await call('logout', 'POST', '/api/logout', {
      cookies: setupCookies,
      csrf: setupCookies.pulse_csrf,
    })
    expect(answers.map((a) => [a.what, a.answer.status])).toEqual([
      ['bad login', 401],
      ['swapped login', 401],
      ['login', 200],
      ['status', 200],
      ['state by token', 200],
      ['state by basic', 200],
      ['bad basic', 401],
      ['bad token', 401],
      ['audit', 200],
      ['change password', 200],
      ['add node', 201],
      ['list nodes', 200],
      ['save sso', 200],
      ['read sso', 200],
      ['logout', 200],
    ])

    const secrets = [
      CUSTOM_PASSWORD,
      NEW_PASSWORD,
      token,
      newToken,
      cookies.pulse_session!,
      cookies.pulse_csrf!,
      setupCookies.pulse_session!,
      NODE_TOKEN_VALUE,
      OIDC_CLIENT_SECRET,
    ]
    for (const { what, answer } of answers) {
      for (const secret of secrets) {
        // Set-Cookie carries the session's own id by design; the body never does.
        expect(answer.text.includes(secret), `${what} answer`).toBe(false)
      }
    }

    server.ctx.app.db.pragma('wal_checkpoint(TRUNCATE)')
    for (const file of fs.readdirSync(server.ctx.dataDir)) {
      const bytes = fs.readFileSync(path.join(server.ctx.dataDir, file))
      for (const secret of secrets) {
        expect(bytes.includes(Buffer.from(secret)), `${file} holds a secret`).toBe(false)
      }
    }

    const log = server.logs.join('')
    expect(log).toContain('security event: login_success')
    expect(log).toContain('"url":"/api/login"')
    for (const secret of secrets) expect(log.includes(secret), 'server log').toBe(false)
  })
})
