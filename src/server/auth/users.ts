// Local users (issue 29 items 2 and 5): an admin adds, changes, disables and deletes them; each
// change is audited. A user's role is read from their row on each request through a small cache
// cleared on every change, so a demotion applies at once; disabling or deleting a user ends their
// password sessions and closes their sockets at once. At least one enabled admin always remains.
import { AppError } from '../../shared/model/errors.ts'
import type { Role } from '../../shared/model/roles.ts'
import { MAX_USERS, type UserView } from '../../shared/model/users.ts'
import type { StoredUser, UsersRepo } from '../store/users-repo.ts'
import type { AuditLog } from './audit.ts'
import { hashPassword } from './secrets.ts'
import type { SessionService } from './sessions.ts'
import type { SocketRegistry } from './socket-registry.ts'

export interface UserChanges {
  password?: string | undefined
  role?: Role | undefined
  disabled?: boolean | undefined
}

export interface UserService {
  /** The role of an enabled user, or null when there is no such user or they are disabled. */
  roleOf(username: string): Role | null
  /** The stored user (ignoring case), hash included: for the credential check. */
  find(username: string): StoredUser | null
  list(): UserView[]
  create(
    input: UserChanges & { username: string; password: string; role: Role },
    actor: string,
    ip: string,
  ): Promise<UserView>
  update(username: string, changes: UserChanges, actor: string, ip: string): Promise<UserView>
  remove(username: string, actor: string, ip: string): void
  /** Store a new hash for `username` (their own password change; the caller audits). */
  setPasswordHash(username: string, passwordHash: string): void
  /** First-run setup or rotation: `username` becomes an enabled admin; `replacing` is removed. */
  putAdmin(username: string, passwordHash: string, replacing?: string): void
  /** Forget cached roles (after a config import rewrote the table). */
  invalidate(): void
}

export interface UserServiceDeps {
  repo: UsersRepo
  sessions: SessionService
  audit: AuditLog
  now: () => number
  /** Where local users' sockets are: they close when their user is disabled, deleted or re-roled. */
  sockets: SocketRegistry
}

const view = (user: StoredUser): UserView => ({
  username: user.username,
  role: user.role,
  disabled: user.disabled,
  createdAt: user.createdAt,
  updatedAt: user.updatedAt,
})

const fieldInvalid = (field: string, problem: string) =>
  new AppError('FIELD_INVALID', { field, problem })

/** Create the user service over the users table. */
export function createUserService(deps: UserServiceDeps): UserService {
  const { repo, sessions, audit, now } = deps
  const roles = new Map<string, Role | null>()
  const key = (username: string) => username.toLowerCase()

  const closeSockets = (username: string, reason: string) =>
    deps.sockets.revoke({ kind: 'user', username, reason })
  /** End the user's sessions and sockets; returns how many sessions were live. */
  const endSessions = (username: string, reason: string) => {
    const revoked = sessions.revokeUser(username)
    closeSockets(username, reason)
    return revoked
  }
  const existing = (username: string) => {
    const user = repo.get(username)
    if (!user) throw new AppError('USER_NOT_FOUND', { username })
    return user
  }

  return {
    roleOf(username) {
      const cached = roles.get(key(username))
      if (cached !== undefined) return cached
      const user = repo.get(username)
      const role = user && !user.disabled ? user.role : null
      // Bounded by the table (MAX_USERS) plus the names of live sessions.
      if (roles.size > 4 * MAX_USERS) roles.clear()
      roles.set(key(username), role)
      return role
    },

    find: (username) => repo.get(username),

    list: () => repo.list().map(view),

    async create(input, actor, ip) {
      if (repo.get(input.username)) throw fieldInvalid('username', 'is taken')
      if (repo.count() >= MAX_USERS) {
        throw fieldInvalid('username', `at most ${MAX_USERS} users may exist`)
      }
      const passwordHash = await hashPassword(input.password)
      const user = {
        username: input.username,
        passwordHash,
        role: input.role,
        disabled: input.disabled ?? false,
      }
      // Another request may have taken the name while the hash was computed.
      if (!repo.insert(user, now())) throw fieldInvalid('username', 'is taken')
      roles.delete(key(input.username))
      audit.record({
        type: 'user_created',
        username: actor,
        ip,
        detail: `${input.username} (${input.role}${user.disabled ? ', disabled' : ''})`,
      })
      return view(existing(input.username))
    },

    async update(username, changes, actor, ip) {
      const user = existing(username)
      const demoted = changes.role !== undefined && changes.role !== 'admin'
      const disabling = changes.disabled === true
      if (user.role === 'admin' && !user.disabled && (demoted || disabling)) {
        if (repo.countEnabledAdmins(user.username) === 0) {
          throw demoted
            ? fieldInvalid('role', 'the last enabled admin must stay an admin')
            : fieldInvalid('disabled', 'the last enabled admin cannot be disabled')
        }
      }
      const passwordHash =
        changes.password === undefined ? undefined : await hashPassword(changes.password)
      repo.update(
        user.username,
        { passwordHash, role: changes.role, disabled: changes.disabled },
        now(),
      )
      roles.delete(key(user.username))
      const done: string[] = []
      if (changes.role !== undefined && changes.role !== user.role) {
        done.push(`role ${user.role} → ${changes.role}`)
      }
      if (changes.disabled !== undefined && changes.disabled !== user.disabled) {
        done.push(changes.disabled ? 'disabled' : 'enabled')
      }
      let revoked = 0
      if (changes.disabled === true || passwordHash !== undefined) {
        revoked = endSessions(
          user.username,
          changes.disabled ? 'Account disabled' : 'Password reset',
        )
      } else if (changes.role !== undefined && changes.role !== user.role) {
        // Sessions carry on under the new role; open sockets reconnect to get it.
        closeSockets(user.username, 'Role changed')
      }
      if (passwordHash !== undefined) {
        audit.record({
          type: 'password_reset',
          username: actor,
          ip,
          detail: `${user.username}, ${revoked} session(s) revoked`,
        })
      }
      if (done.length > 0 || passwordHash === undefined) {
        audit.record({
          type: 'user_updated',
          username: actor,
          ip,
          detail: `${user.username}: ${done.length > 0 ? done.join(', ') : 'no change'}${
            changes.disabled === true ? `, ${revoked} session(s) revoked` : ''
          }`,
        })
      }
      return view(existing(user.username))
    },

    remove(username, actor, ip) {
      const user = existing(username)
      if (user.role === 'admin' && !user.disabled && repo.countEnabledAdmins(user.username) === 0) {
        throw fieldInvalid('username', 'the last enabled admin cannot be deleted')
      }
      repo.delete(user.username)
      roles.delete(key(user.username))
      const revoked = endSessions(user.username, 'Account deleted')
      audit.record({
        type: 'user_deleted',
        username: actor,
        ip,
        detail: `${user.username} (${user.role}), ${revoked} session(s) revoked`,
      })
    },

    setPasswordHash(username, passwordHash) {
      repo.update(username, { passwordHash }, now())
    },

    putAdmin(username, passwordHash, replacing) {
      if (replacing !== undefined && key(replacing) !== key(username)) {
        repo.delete(replacing)
        closeSockets(replacing, 'Account replaced')
      }
      repo.upsert({ username, passwordHash, role: 'admin', disabled: false }, now())
      roles.clear()
    },

    invalidate: () => roles.clear(),
  }
}
