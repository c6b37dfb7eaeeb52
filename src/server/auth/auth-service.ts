// The authentication service: credentials (password, API token), first-run setup and rotation,
// password change, token regeneration. Routes and the request guard call it; it calls the store.
import { AppError } from '../../shared/model/errors.ts'
import type { AuthSettings, AuthSettingsRepo } from '../store/auth-settings-repo.ts'
import type { ApiTokenService, TokenIdentity } from './api-tokens.ts'
import type { AuditLog } from './audit.ts'
import type { AccountLockInfo, Lockout } from './lockout.ts'
import {
  generateApiToken,
  generatePassword,
  hashPassword,
  matchesDigest,
  safeEqual,
  sha256Hex,
  tokenHint,
  verifyDecoy,
  verifyPassword,
} from './secrets.ts'
import type { SessionService } from './sessions.ts'
import type { SocketRegistry } from './socket-registry.ts'
import type { UserService } from './users.ts'
import type { Role } from '../../shared/model/roles.ts'

export const PASSWORD_MIN_LENGTH = 8
export const DEFAULT_USERNAME = 'admin'

export type CredentialCheck =
  | { ok: true; username: string; role: Role }
  | { ok: false; locked: true; remainingMinutes: number }
  | { ok: false; locked: false; remaining: number }

export interface SetupInput {
  username?: string | undefined
  password?: string | undefined
  apiToken?: string | undefined
}

export interface SetupResult {
  username: string
  password: string
  apiToken: string
}

export interface AuthService {
  /** DISABLE_AUTH=true. */
  readonly disabled: boolean
  readonly sessions: SessionService
  readonly audit: AuditLog
  /** The local users and their roles (issue 29 item 2). */
  readonly users: UserService
  /** Open sockets by their credentials: revoking those closes them (issue 29 items 4 and 5). */
  readonly sockets: SocketRegistry
  settings(): AuthSettings | null
  /** The API_TOKEN environment variable's hint, or null when it is unset. */
  readonly envTokenHint: string | null
  /**
   * API-token-only mode: an API_TOKEN is set and no login exists (proxy and single sign-on are
   * the guard's to weigh).
   */
  tokenOnly(): boolean
  /** The named tokens with their roles (issue 29 item 4). */
  readonly tokens: ApiTokenService
  /**
   * Who an X-API-Token value is: a stored token, or API_TOKEN (an admin named 'API_TOKEN' and its
   * hint); null when neither.
   */
  verifyToken(token: string): TokenIdentity | null
  /**
   * Check a username and password under the lockout rules, recording failures and lockouts in
   * the audit log. `via` names the path (login form or Basic header) in the audit detail.
   */
  checkCredentials(
    username: string,
    password: string,
    ip: string,
    via: 'login' | 'basic',
  ): Promise<CredentialCheck>
  /**
   * Store first credentials (or replace them when `rotate`), generating what is not given.
   * Returns null when settings exist and `rotate` is false (another setup got there first).
   */
  setup(input: SetupInput, rotate: boolean, ip: string): Promise<SetupResult | null>
  /**
   * Change the caller's own password (`actor`, a local user). Throws CURRENT_PASSWORD_INCORRECT
   * or PASSWORD_TOO_SHORT; revokes that user's sessions.
   */
  changePassword(current: string, next: string, actor: string, ip: string): Promise<void>
  /** A new "default" admin token (returned once); the old one stops working at once. */
  regenerateToken(actor: string, ip: string): string
  /** The login account's lockout counter, or null before the first setup. */
  /**
   * The lockout counters an admin sees: the first-run account's always, another user's while it
   * has failures or a lock (issue 29: lockout stays per account).
   */
  accountLocks(): Array<AccountLockInfo & { username: string }>
  /** Lift the lock on `username` (audited); true when it was locked. */
  unlock(username: string, actor: string, ip: string): boolean
}

/** API_TOKEN from the environment, hashed at start; the value itself is never kept. */
export interface EnvApiToken {
  hash: string
  hint: string
}

export interface AuthServiceDeps {
  disabled: boolean
  envToken?: EnvApiToken | null
  settingsRepo: AuthSettingsRepo
  tokens: ApiTokenService
  sessions: SessionService
  users: UserService
  sockets: SocketRegistry
  lockout: Lockout
  audit: AuditLog
  now: () => number
}

/** Throws PASSWORD_TOO_SHORT unless the password has at least 8 characters. */
export function assertPasswordLength(password: string): void {
  if (password.length < PASSWORD_MIN_LENGTH) {
    throw new AppError('PASSWORD_TOO_SHORT', { min: PASSWORD_MIN_LENGTH })
  }
}

/** Create the authentication service. */
export function createAuthService(deps: AuthServiceDeps): AuthService {
  const { settingsRepo, tokens, sessions, lockout, audit, now } = deps
  const envToken = deps.envToken ?? null
  const envIdentity: TokenIdentity | null = envToken && {
    id: 'env',
    name: envToken.hint ? `API_TOKEN ${envToken.hint}` : 'API_TOKEN',
    role: 'admin',
  }

  return {
    disabled: deps.disabled,
    sessions,
    audit,
    users: deps.users,
    sockets: deps.sockets,
    tokens,
    settings: () => settingsRepo.get(),

    envTokenHint: envToken?.hint ?? null,

    tokenOnly: () => envToken != null && settingsRepo.get() === null,

    verifyToken(token) {
      if (token.length > 1024) return null
      // Both are checked, so the answer's timing does not say which one matched.
      const stored = tokens.verify(token)
      const fromEnv = envToken != null && matchesDigest(token, envToken.hash)
      return stored ?? (fromEnv ? envIdentity : null)
    },

    async checkCredentials(username, password, ip, via) {
      const lock = lockout.check(username)
      if (lock.locked) return { ok: false, ...lock }
      // Only a real username is written to the audit log: people type passwords into the
      // username field, and those must not land in the log. The name must match exactly (the
      // table's uniqueness ignores case). A disabled user gets a wrong password's answer.
      const found = deps.users.find(username)
      const user = found !== null && safeEqual(username, found.username) ? found : null
      let valid = false
      if (user && !user.disabled) valid = await verifyPassword(user.passwordHash, password)
      else await verifyDecoy(password)
      if (valid && user) {
        lockout.reset(username)
        return { ok: true, username: user.username, role: user.role }
      }
      const shownUser = user ? user.username : ''
      const why = user ? (user.disabled ? ', user disabled' : '') : ', unknown username'
      const detail = `${via === 'basic' ? 'basic auth' : 'login'}${why}`
      audit.record({ type: 'login_failure', username: shownUser, ip, detail })
      const outcome = lockout.recordFailure(username)
      if (outcome.locked) {
        audit.record({
          type: 'lockout',
          username: shownUser,
          ip,
          detail: `locked for ${outcome.remainingMinutes} minute(s)`,
        })
        return { ok: false, locked: true, remainingMinutes: outcome.remainingMinutes }
      }
      return { ok: false, locked: false, remaining: outcome.remaining }
    },

    async setup(input, rotate, ip) {
      const username = input.username || DEFAULT_USERNAME
      if (input.password !== undefined) assertPasswordLength(input.password)
      const password = input.password ?? generatePassword()
      const apiToken = input.apiToken ?? generateApiToken()
      const stored = {
        username,
        passwordHash: await hashPassword(password),
        apiTokenHash: sha256Hex(apiToken),
        apiTokenHint: tokenHint(apiToken),
      }
      const at = now()
      if (rotate && settingsRepo.get()) {
        const previous = settingsRepo.get()?.username
        settingsRepo.replace(stored, at)
        deps.users.putAdmin(username, stored.passwordHash, previous)
        tokens.replaceDefault(apiToken)
        const revoked = sessions.revokeAll()
        audit.record({
          type: 'setup_rotated',
          username,
          ip,
          detail: `credentials rotated, ${revoked} session(s) revoked`,
        })
      } else {
        if (!settingsRepo.insertIfAbsent(stored, at)) return null
        deps.users.putAdmin(username, stored.passwordHash)
        tokens.replaceDefault(apiToken)
        audit.record({ type: 'setup', username, ip, detail: 'first-run setup' })
      }
      return { username, password, apiToken }
    },

    async changePassword(current, next, actor, ip) {
      if (!settingsRepo.get()) throw new AppError('AUTH_NOT_CONFIGURED')
      // Single sign-on, proxy and token callers have no local password to change.
      const user = deps.users.find(actor)
      if (!user || user.username !== actor) {
        throw new AppError('FIELD_INVALID', {
          field: 'currentPassword',
          problem: `${actor || 'this caller'} has no local password`,
        })
      }
      assertPasswordLength(next)
      if (!(await verifyPassword(user.passwordHash, current))) {
        throw new AppError('CURRENT_PASSWORD_INCORRECT')
      }
      const passwordHash = await hashPassword(next)
      deps.users.setPasswordHash(user.username, passwordHash)
      // The first-run account's row keeps its hash in step.
      if (settingsRepo.get()?.username === user.username) {
        settingsRepo.setPasswordHash(passwordHash, now())
      }
      const revoked = sessions.revokeUser(user.username)
      audit.record({
        type: 'password_changed',
        username: actor,
        ip,
        detail: `${revoked} session(s) revoked`,
      })
    },

    regenerateToken(actor, ip) {
      if (!settingsRepo.get()) {
        throw new AppError(envToken ? 'API_TOKEN_FROM_ENV' : 'AUTH_NOT_CONFIGURED')
      }
      const token = generateApiToken()
      settingsRepo.setApiToken(sha256Hex(token), tokenHint(token), now())
      tokens.replaceDefault(token)
      audit.record({
        type: 'token_regenerated',
        username: actor,
        ip,
        detail: 'previous token revoked',
      })
      return token
    },

    accountLocks() {
      const first = settingsRepo.get()?.username
      return deps.users
        .list()
        .map((user) => ({ username: user.username, ...lockout.inspect(user.username) }))
        .filter((lock) => lock.username === first || lock.locked || lock.failures > 0)
    },

    unlock(username, actor, ip) {
      const wasLocked = lockout.unlock(username)
      // Only the real account's name is logged, as for failed logins.
      const known = deps.users.find(username)?.username === username
      audit.record({
        type: 'account_unlocked',
        username: known ? username : '',
        ip,
        detail: `${wasLocked ? 'lock lifted' : 'failure count cleared'} by ${actor}`,
      })
      return wasLocked
    },
  }
}
