// Upgrade (issue 29 item 4): a data directory from before named tokens (one admin and one token
// in auth_settings) starts, and the old token and password still work, as admin.
import path from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import { hashPassword, sha256Hex, tokenHint } from '../../../../src/server/auth/secrets.ts'
import { MIGRATIONS } from '../../../../src/server/store/db.ts'
import { makeTempDir } from '../temp-dir.ts'
import { cookieValues, startAuthServer, type AuthTestServer } from './auth-helpers.ts'

const OLD_TOKEN = 'c0ffee'.repeat(8)
const OLD_PASSWORD = 'the-old-password'

let server: AuthTestServer | null = null
let cleanup: (() => void) | null = null
afterEach(async () => {
  await server?.close()
  cleanup?.()
  server = null
  cleanup = null
})

/**
 * A pulse.db from before local users and named tokens (the schema up to the first migration that
 * reads the old single account of auth_settings), set up as the old quick setup did.
 */
async function oldDataDir(): Promise<string> {
  const temp = makeTempDir()
  cleanup = temp.cleanup
  const before = MIGRATIONS.findIndex((sql) => sql.includes('FROM auth_settings'))
  expect(before).toBeGreaterThan(0)
  expect(before).toBeLessThanOrEqual(
    MIGRATIONS.findIndex((sql) => sql.includes('CREATE TABLE IF NOT EXISTS api_tokens')),
  )
  const db = new Database(path.join(temp.dir, 'pulse.db'))
  db.exec('CREATE TABLE schema_version (version INTEGER NOT NULL)')
  for (const sql of MIGRATIONS.slice(0, before)) db.exec(sql)
  db.prepare('INSERT INTO schema_version (version) VALUES (?)').run(before)
  db.prepare(
    `INSERT INTO auth_settings (id, username, password_hash, api_token_hash, api_token_hint,
       created_at, updated_at) VALUES (1, 'admin', ?, ?, ?, 1, 2)`,
  ).run(await hashPassword(OLD_PASSWORD), sha256Hex(OLD_TOKEN), tokenHint(OLD_TOKEN))
  db.close()
  return temp.dir
}

describe('upgrading to named API tokens', () => {
  it('keeps the old token working as the admin token "default", and the password', async () => {
    const dataDir = await oldDataDir()
    server = await startAuthServer({ dataDir })

    const tokens = await server.call('GET', '/api/security/tokens', { token: OLD_TOKEN })
    expect(tokens.status).toBe(200)
    expect(tokens.json.tokens).toMatchObject([
      { name: 'default', role: 'admin', hint: tokenHint(OLD_TOKEN) },
    ])
    // An admin route, by the old token.
    const config = await server.call('GET', '/api/security/audit', { token: OLD_TOKEN })
    expect(config.status).toBe(200)

    const login = await server.call('POST', '/api/login', {
      body: { username: 'admin', password: OLD_PASSWORD },
    })
    expect(login.status, login.text).toBe(200)
    const cookies = cookieValues(login)
    const audit = await server.call('GET', '/api/security/audit', {
      cookies: { pulse_session: cookies.pulse_session!, pulse_csrf: cookies.pulse_csrf! },
    })
    expect(audit.status).toBe(200)
  })

  it('copies the token once: the migration run again adds nothing', async () => {
    const dataDir = await oldDataDir()
    server = await startAuthServer({ dataDir })
    const { db } = server.ctx.app
    const mine = MIGRATIONS.find((sql) => sql.includes('CREATE TABLE IF NOT EXISTS api_tokens'))!
    db.exec(mine)
    expect(db.prepare('SELECT count(*) AS n FROM api_tokens').get()).toEqual({ n: 1 })
  })
})
