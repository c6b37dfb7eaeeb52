// Secrets never leave the two one-time answers: not the SQLite files, not other answers, not logs.
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
    const regenerated = await server.call('POST', '/api/security/regenerate-token', { token })
    const newToken: string = regenerated.json.token
    await call('logout', 'POST', '/api/logout', {
      cookies: setupCookies,
      csrf: setupCookies.pulse_csrf,
    })
    expect(answers.map((a) => a.answer.status)).toEqual([
      401, 401, 200, 200, 200, 200, 401, 401, 200, 200, 200,
    ])

    const secrets = [
      CUSTOM_PASSWORD,
      NEW_PASSWORD,
      token,
      newToken,
      cookies.pulse_session!,
      cookies.pulse_csrf!,
      setupCookies.pulse_session!,
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
