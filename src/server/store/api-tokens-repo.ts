// The api_tokens table (issue 29 item 4): one row per named token with its role, the SHA-256 hex
// of its value (never the value), the display hint, and when it was created and last used.
import crypto from 'node:crypto'
import type { Role } from '../../shared/model/roles.ts'
import type { Db } from './db.ts'

export interface StoredApiToken {
  id: string
  name: string
  role: Role
  /** SHA-256 hex of the token. */
  hash: string
  hint: string
  createdAt: number
  lastUsedAt: number | null
}

export interface ApiTokensRepo {
  /** Oldest first. */
  list(): StoredApiToken[]
  count(): number
  byId(id: string): StoredApiToken | null
  byName(name: string): StoredApiToken | null
  /** The row whose digest is `hash` (an indexed look-up), or null. */
  byHash(hash: string): StoredApiToken | null
  /** Insert a token with a fresh id; throws SQLITE_CONSTRAINT_UNIQUE on a taken name. */
  insert(token: Omit<StoredApiToken, 'id' | 'lastUsedAt'>): StoredApiToken
  /** True when a row was deleted. */
  delete(id: string): boolean
  setLastUsed(id: string, at: number): void
}

interface Row {
  id: string
  name: string
  role: Role
  hash: string
  hint: string | null
  created_at: number
  last_used_at: number | null
}

const toToken = (row: Row | undefined): StoredApiToken | null =>
  row
    ? {
        id: row.id,
        name: row.name,
        role: row.role,
        hash: row.hash,
        hint: row.hint ?? '',
        createdAt: row.created_at,
        lastUsedAt: row.last_used_at,
      }
    : null

/** Repository over the api_tokens table. */
export function createApiTokensRepo(db: Db): ApiTokensRepo {
  const list = db.prepare('SELECT * FROM api_tokens ORDER BY created_at, rowid')
  const count = db.prepare('SELECT count(*) AS n FROM api_tokens')
  const byId = db.prepare('SELECT * FROM api_tokens WHERE id = ?')
  const byName = db.prepare('SELECT * FROM api_tokens WHERE name = ?')
  const byHash = db.prepare('SELECT * FROM api_tokens WHERE hash = ?')
  const insert = db.prepare(
    `INSERT INTO api_tokens (id, name, role, hash, hint, created_at, last_used_at)
     VALUES (@id, @name, @role, @hash, @hint, @createdAt, NULL)`,
  )
  const remove = db.prepare('DELETE FROM api_tokens WHERE id = ?')
  const setLastUsed = db.prepare('UPDATE api_tokens SET last_used_at = ? WHERE id = ?')
  return {
    list: () => (list.all() as Row[]).map((row) => toToken(row)!),
    count: () => (count.get() as { n: number }).n,
    byId: (id) => toToken(byId.get(id) as Row | undefined),
    byName: (name) => toToken(byName.get(name) as Row | undefined),
    byHash: (hash) => toToken(byHash.get(hash) as Row | undefined),
    insert(token) {
      const stored: StoredApiToken = { ...token, id: crypto.randomUUID(), lastUsedAt: null }
      insert.run(stored)
      return stored
    },
    delete: (id) => remove.run(id).changes === 1,
    setLastUsed(id, at) {
      setLastUsed.run(at, id)
    },
  }
}
