// One-time setup codes for the setup-script URL: random, short-lived, bound to a node type, kept
// in memory only (a restart simply invalidates the outstanding ones).
import crypto from 'node:crypto'
import type { NodeType } from '../../shared/model/node-config.ts'

/** How long a generated setup URL works. */
export const SETUP_TOKEN_TTL_MS = 5 * 60_000
// Outstanding codes are few (one per click); this bound only stops a runaway client.
const MAX_OUTSTANDING = 1000

export interface SetupTokens {
  /** A new code for `type`, valid until the returned epoch ms. */
  issue(type: NodeType): { token: string; expiresAt: number }
  /** True (and the code is used up) when `token` is outstanding, unexpired and for `type`. */
  consume(token: string, type: NodeType): boolean
}

/** Create the in-memory code store. */
export function createSetupTokens(now: () => number): SetupTokens {
  const codes = new Map<string, { type: NodeType; expiresAt: number }>()
  const prune = () => {
    const t = now()
    for (const [code, entry] of codes) if (entry.expiresAt <= t) codes.delete(code)
  }
  return {
    issue(type) {
      prune()
      if (codes.size >= MAX_OUTSTANDING) codes.delete(codes.keys().next().value!)
      // 128 bits: the code alone opens a public route, so it must not be guessable.
      const token = crypto.randomBytes(16).toString('base64url')
      const expiresAt = now() + SETUP_TOKEN_TTL_MS
      codes.set(token, { type, expiresAt })
      return { token, expiresAt }
    },
    consume(token, type) {
      const entry = codes.get(token)
      if (!entry || entry.expiresAt <= now() || entry.type !== type) return false
      codes.delete(token)
      return true
    },
  }
}
