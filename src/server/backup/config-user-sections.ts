// The local users of a config snapshot (issue 29 item 8): name, role, disabled flag, argon2
// password hash and times; never a password. A file from before the users table has none (and
// one from an instance without a login has an empty list): its login settings' account then
// becomes the only user, an admin, as the migration does. A file whose users leave no enabled
// admin is refused as damaged (nobody could administer the result).
import { z } from 'zod'
import { ROLES } from '../../shared/model/roles.ts'
import { MAX_USERS, USERNAME_MAX_LENGTH, USERNAME_PATTERN } from '../../shared/model/users.ts'
import type { StoredUser } from '../store/users-repo.ts'
import { createUsersRepo } from '../store/users-repo.ts'
import type { AnySection, SectionHandler } from './config-sections.ts'
import { snapshotDamaged } from './snapshot-errors.ts'

const time = z.number().int().min(0)

const userSchema: z.ZodType<StoredUser> = z.strictObject({
  username: z
    .string()
    .min(1)
    .max(USERNAME_MAX_LENGTH)
    .regex(USERNAME_PATTERN, 'must be a valid username'),
  passwordHash: z
    .string()
    .max(1000)
    .regex(/^\$argon2(id|i|d)\$/, 'must be an argon2 hash'),
  role: z.enum(ROLES),
  disabled: z.boolean(),
  createdAt: time,
  updatedAt: time,
})

/** Names the table holds unique whatever their case. */
function refuseDuplicates(users: StoredUser[], ctx: z.RefinementCtx): void {
  const seen = new Set<string>()
  users.forEach((user, index) => {
    const key = user.username.toLowerCase()
    if (seen.has(key))
      ctx.addIssue({ code: 'custom', message: 'duplicate username', path: [index] })
    seen.add(key)
  })
}

const usersSection: SectionHandler<StoredUser[]> = {
  key: 'users',
  tables: ['users', 'auth_settings'],
  optional: true,
  schema: z.array(userSchema).max(MAX_USERS).superRefine(refuseDuplicates),
  read: ({ db }) => createUsersRepo(db).list(),
  write({ db }, users) {
    db.prepare('DELETE FROM users').run()
    if (users === undefined || users.length === 0) {
      // Written after the login settings: their account is the file's.
      db.prepare(
        `INSERT INTO users (username, password_hash, role, disabled, created_at, updated_at)
         SELECT username, password_hash, 'admin', 0, created_at, updated_at FROM auth_settings`,
      ).run()
      return
    }
    if (!users.some((user) => user.role === 'admin' && !user.disabled)) {
      throw snapshotDamaged('users: no enabled admin')
    }
    const insert = db.prepare(
      `INSERT INTO users (username, password_hash, role, disabled, created_at, updated_at)
       VALUES (@username, @passwordHash, @role, @disabled, @createdAt, @updatedAt)`,
    )
    for (const user of users) insert.run({ ...user, disabled: user.disabled ? 1 : 0 })
  },
  describe: (users) => `${users.length} user(s)`,
}

/** The users section, after the login settings in SECTIONS. */
export const USER_SECTIONS: readonly AnySection[] = [usersSection as unknown as AnySection]
