// API tokens with roles (issue 29 item 4): create (the value returned once), list, revoke, and
// verify an X-API-Token value. Tokens are 24 random bytes, so a SHA-256 digest looked up by its
// unique index is as safe as a slow hash and costs one indexed read per request; the match found
// is confirmed with a constant-time comparison. A revoked token's sockets are closed at once.
import {
  API_TOKENS_MAX,
  DEFAULT_TOKEN_NAME,
  type ApiTokenInfo,
  type CreatedApiToken,
} from '../../shared/model/api-tokens.ts'
import { AppError } from '../../shared/model/errors.ts'
import type { Role } from '../../shared/model/roles.ts'
import type { ApiTokensRepo, StoredApiToken } from '../store/api-tokens-repo.ts'
import type { AuditLog } from './audit.ts'
import { generateApiToken, matchesDigest, sha256Hex, tokenHint } from './secrets.ts'
import type { SocketRegistry } from './socket-registry.ts'

/** last_used_at is written at most this often per token (no write per request). */
export const LAST_USED_RESOLUTION_MS = 60_000

/** Who a valid token is. */
export interface TokenIdentity {
  id: string
  name: string
  role: Role
}

export interface ApiTokenService {
  /** The stored token `value` is, or null. */
  verify(value: string): TokenIdentity | null
  list(): ApiTokenInfo[]
  /** Throws FIELD_INVALID on a taken name or beyond API_TOKENS_MAX. Audited. */
  create(input: { name: string; role: Role }, actor: string, ip: string): CreatedApiToken
  /** Delete the token and close its sockets; NOT_FOUND when unknown. Audited. */
  revoke(id: string, actor: string, ip: string): void
  /** Store `value` as the admin token "default" (setup, regenerate-token), replacing the old. */
  replaceDefault(value: string): void
  /** Close the sockets of tokens no longer stored (after a config import). */
  closeOrphanSockets(): void
}

export interface ApiTokenDeps {
  repo: ApiTokensRepo
  audit: AuditLog
  now: () => number
  /** Where the sockets opened with a token are: revoking the token closes them. */
  sockets: SocketRegistry
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString())

/** The listed form of a stored token: no digest. */
export function toTokenInfo(token: StoredApiToken): ApiTokenInfo {
  return {
    id: token.id,
    name: token.name,
    role: token.role,
    hint: token.hint,
    createdAt: iso(token.createdAt)!,
    lastUsedAt: iso(token.lastUsedAt),
  }
}

/** Create the API token service. */
export function createApiTokenService(deps: ApiTokenDeps): ApiTokenService {
  const { repo, audit, now } = deps
  // When each token's last use was last written (a read of the row would cost as much).
  const written = new Map<string, number>()

  const closeSockets = (tokenId: string) =>
    deps.sockets.revoke({ kind: 'token', tokenId, reason: 'API token revoked' })

  const touch = (token: StoredApiToken) => {
    const at = now()
    const last = written.get(token.id) ?? token.lastUsedAt ?? -Infinity
    if (at - last < LAST_USED_RESOLUTION_MS) return
    written.set(token.id, at)
    repo.setLastUsed(token.id, at)
  }

  const insert = (name: string, role: Role, value: string) =>
    repo.insert({ name, role, hash: sha256Hex(value), hint: tokenHint(value), createdAt: now() })

  return {
    verify(value) {
      if (value.length > 1024) return null
      const token = repo.byHash(sha256Hex(value))
      // The row was found by the digest; the constant-time check confirms it.
      if (!token || !matchesDigest(value, token.hash)) return null
      touch(token)
      return { id: token.id, name: token.name, role: token.role }
    },

    list: () => repo.list().map(toTokenInfo),

    create(input, actor, ip) {
      if (repo.byName(input.name)) {
        throw new AppError('FIELD_INVALID', { field: 'name', problem: 'is already taken' })
      }
      if (repo.count() >= API_TOKENS_MAX) {
        throw new AppError('FIELD_INVALID', {
          field: 'name',
          problem: `no more than ${API_TOKENS_MAX} tokens; revoke one first`,
        })
      }
      const value = generateApiToken()
      const stored = insert(input.name, input.role, value)
      audit.record({
        type: 'token_created',
        username: actor,
        ip,
        detail: `token "${stored.name}" (${stored.role})`,
      })
      return { ...toTokenInfo(stored), token: value }
    },

    revoke(id, actor, ip) {
      const token = repo.byId(id)
      if (!token || !repo.delete(id)) {
        throw new AppError('NOT_FOUND', { path: `/api/security/tokens/${id}` })
      }
      written.delete(id)
      closeSockets(id)
      audit.record({
        type: 'token_revoked',
        username: actor,
        ip,
        detail: `token "${token.name}" (${token.role})`,
      })
    },

    replaceDefault(value) {
      const old = repo.byName(DEFAULT_TOKEN_NAME)
      if (old) {
        repo.delete(old.id)
        written.delete(old.id)
        closeSockets(old.id)
      }
      insert(DEFAULT_TOKEN_NAME, 'admin', value)
    },

    closeOrphanSockets() {
      const stored = new Set(repo.list().map((t) => t.id))
      // API_TOKEN's sockets (id 'env') are not the file's to end.
      const keep = [...stored, 'env']
      deps.sockets.revoke({ kind: 'tokens-except', keep, reason: 'API token revoked' })
      for (const id of [...written.keys()]) if (!stored.has(id)) written.delete(id)
    },
  }
}
