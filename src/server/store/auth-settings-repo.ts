// The one row of authentication settings: username, argon2id password hash, API token digest and
// its display hint. Never holds a secret in plain text.
import type { Db } from './db.ts'

export interface AuthSettings {
  username: string
  passwordHash: string
  /** SHA-256 hex of the API token, or null when none is configured. */
  apiTokenHash: string | null
  apiTokenHint: string
  createdAt: number
  updatedAt: number
}

export interface AuthSettingsRepo {
  get(): AuthSettings | null
  /** Store the first settings; false when settings exist already (another setup won the race). */
  insertIfAbsent(settings: Omit<AuthSettings, 'createdAt' | 'updatedAt'>, now: number): boolean
  /** Replace username, password and token (forced quick-setup). */
  replace(settings: Omit<AuthSettings, 'createdAt' | 'updatedAt'>, now: number): void
  setPasswordHash(passwordHash: string, now: number): void
  setApiToken(apiTokenHash: string, apiTokenHint: string, now: number): void
}

interface Row {
  username: string
  password_hash: string
  api_token_hash: string | null
  api_token_hint: string
  created_at: number
  updated_at: number
}

/** Repository over the auth_settings table. */
export function createAuthSettingsRepo(db: Db): AuthSettingsRepo {
  const select = db.prepare('SELECT * FROM auth_settings WHERE id = 1')
  const insert = db.prepare(
    `INSERT OR IGNORE INTO auth_settings
       (id, username, password_hash, api_token_hash, api_token_hint, created_at, updated_at)
     VALUES (1, @username, @passwordHash, @apiTokenHash, @apiTokenHint, @now, @now)`,
  )
  const replace = db.prepare(
    `UPDATE auth_settings SET username = @username, password_hash = @passwordHash,
       api_token_hash = @apiTokenHash, api_token_hint = @apiTokenHint, updated_at = @now
     WHERE id = 1`,
  )
  const setPassword = db.prepare(
    'UPDATE auth_settings SET password_hash = ?, updated_at = ? WHERE id = 1',
  )
  const setToken = db.prepare(
    'UPDATE auth_settings SET api_token_hash = ?, api_token_hint = ?, updated_at = ? WHERE id = 1',
  )
  return {
    get() {
      const row = select.get() as Row | undefined
      if (!row) return null
      return {
        username: row.username,
        passwordHash: row.password_hash,
        apiTokenHash: row.api_token_hash,
        apiTokenHint: row.api_token_hint,
        createdAt: row.created_at,
        updatedAt: row.updated_at,
      }
    },
    insertIfAbsent(settings, now) {
      return insert.run({ ...settings, now }).changes === 1
    },
    replace(settings, now) {
      replace.run({ ...settings, now })
    },
    setPasswordHash(passwordHash, now) {
      setPassword.run(passwordHash, now)
    },
    setApiToken(apiTokenHash, apiTokenHint, now) {
      setToken.run(apiTokenHash, apiTokenHint, now)
    },
  }
}
