// Failed-login counters per account, keyed by a digest of the username.
import type { Db } from './db.ts'

export interface LoginFailure {
  count: number
  firstFailureAt: number
  lockedUntil: number | null
}

export interface LoginFailureRepo {
  get(keyHash: string): LoginFailure | null
  put(keyHash: string, failure: LoginFailure): void
  remove(keyHash: string): void
  /** Delete counters whose window and lock both ended before `before`. */
  prune(before: number): void
}

interface Row {
  count: number
  first_failure_at: number
  locked_until: number | null
}

/** Repository over the login_failures table. */
export function createLoginFailureRepo(db: Db): LoginFailureRepo {
  const select = db.prepare(
    'SELECT count, first_failure_at, locked_until FROM login_failures WHERE key_hash = ?',
  )
  const upsert = db.prepare(
    `INSERT INTO login_failures (key_hash, count, first_failure_at, locked_until)
     VALUES (@keyHash, @count, @firstFailureAt, @lockedUntil)
     ON CONFLICT (key_hash) DO UPDATE SET count = excluded.count,
       first_failure_at = excluded.first_failure_at, locked_until = excluded.locked_until`,
  )
  const remove = db.prepare('DELETE FROM login_failures WHERE key_hash = ?')
  const prune = db.prepare(
    `DELETE FROM login_failures
     WHERE first_failure_at < @before AND (locked_until IS NULL OR locked_until < @before)`,
  )
  return {
    get(keyHash) {
      const row = select.get(keyHash) as Row | undefined
      return row
        ? { count: row.count, firstFailureAt: row.first_failure_at, lockedUntil: row.locked_until }
        : null
    },
    put(keyHash, failure) {
      upsert.run({ keyHash, ...failure })
    },
    remove(keyHash) {
      remove.run(keyHash)
    },
    prune(before) {
      prune.run({ before })
    },
  }
}
