// API tokens with roles (issue 29 item 4): what GET /api/security/tokens lists and what
// POST /api/security/tokens answers (the value only then, once).
import type { Role } from './roles.ts'

/** At most this many tokens. */
export const API_TOKENS_MAX = 100
/** A token's name: 1 to this many characters. */
export const API_TOKEN_NAME_MAX = 64
/** The token the single one of before became, and that regenerate-token replaces. */
export const DEFAULT_TOKEN_NAME = 'default'

/** One token as listed: never its value or digest. */
export interface ApiTokenInfo {
  id: string
  name: string
  role: Role
  /** First 8 and last 4 characters, as '1a2b3c4d...9f0e'. */
  hint: string
  /** ISO 8601. */
  createdAt: string
  /** ISO 8601, to the minute (updated at most once a minute); null when never used. */
  lastUsedAt: string | null
}

/** POST /api/security/tokens' answer: the token, shown this once. */
export interface CreatedApiToken extends ApiTokenInfo {
  token: string
}
