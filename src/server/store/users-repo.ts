// Local user accounts (issue 29 item 2): username (unique whatever its case), argon2id password
// hash, role, disabled flag. The first-run account is copied here as an admin by the migration.
import { isRole, type Role } from '../../shared/model/roles.ts'
import type { Db } from './db.ts'

export interface StoredUser {
  username: string
  passwordHash: string
  role: Role
  disabled: boolean
  createdAt: number
  updatedAt: number
}

export interface UsersRepo {
  list(): StoredUser[]
  /** The user whose name equals `username` ignoring case, or null. */
  get(username: string): StoredUser | null
  count(): number
  /** Enabled admins other than `except` (ignoring case). */
  countEnabledAdmins(except?: string): number
  /** False when the name is taken (ignoring case). */
  insert(user: Omit<StoredUser, 'createdAt' | 'updatedAt'>, now: number): boolean
  /** Insert, or replace the hash, role and flag of the user of that name. */
  upsert(user: Omit<StoredUser, 'createdAt' | 'updatedAt'>, now: number): void
  update(
    username: string,
    changes: { passwordHash?: string; role?: Role; disabled?: boolean },
    now: number,
  ): void
  /** True when a row was deleted. */
  delete(username: string): boolean
}

interface Row {
  username: string
  password_hash: string
  role: string
  disabled: number
  created_at: number
  updated_at: number
}

function toUser(row: Row): StoredUser {
  return {
    username: row.username,
    passwordHash: row.password_hash,
    role: isRole(row.role) ? row.role : 'viewer',
    disabled: row.disabled !== 0,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }
}

/** Repository over the users table. */
export function createUsersRepo(db: Db): UsersRepo {
  const list = db.prepare('SELECT * FROM users ORDER BY username COLLATE NOCASE')
  const get = db.prepare('SELECT * FROM users WHERE username = ?')
  const count = db.prepare('SELECT count(*) AS n FROM users')
  const admins = db.prepare(
    `SELECT count(*) AS n FROM users WHERE role = 'admin' AND disabled = 0 AND username IS NOT ?`,
  )
  const values = `(@username, @passwordHash, @role, @disabled, @now, @now)`
  const insert = db.prepare(
    `INSERT OR IGNORE INTO users (username, password_hash, role, disabled, created_at, updated_at)
     VALUES ${values}`,
  )
  const upsert = db.prepare(
    `INSERT INTO users (username, password_hash, role, disabled, created_at, updated_at)
     VALUES ${values}
     ON CONFLICT (username) DO UPDATE SET password_hash = excluded.password_hash,
       role = excluded.role, disabled = excluded.disabled, updated_at = excluded.updated_at`,
  )
  const update = db.prepare(
    `UPDATE users SET password_hash = coalesce(@passwordHash, password_hash),
       role = coalesce(@role, role), disabled = coalesce(@disabled, disabled), updated_at = @now
     WHERE username = @username`,
  )
  const remove = db.prepare('DELETE FROM users WHERE username = ?')
  const flag = (disabled: boolean | undefined) => (disabled === undefined ? null : disabled ? 1 : 0)
  return {
    list: () => (list.all() as Row[]).map(toUser),
    get(username) {
      const row = get.get(username) as Row | undefined
      return row ? toUser(row) : null
    },
    count: () => (count.get() as { n: number }).n,
    countEnabledAdmins: (except) => (admins.get(except ?? null) as { n: number }).n,
    insert(user, now) {
      return insert.run({ ...user, disabled: flag(user.disabled), now }).changes === 1
    },
    upsert(user, now) {
      upsert.run({ ...user, disabled: flag(user.disabled), now })
    },
    update(username, changes, now) {
      update.run({
        username,
        passwordHash: changes.passwordHash ?? null,
        role: changes.role ?? null,
        disabled: flag(changes.disabled),
        now,
      })
    },
    delete: (username) => remove.run(username).changes === 1,
  }
}
