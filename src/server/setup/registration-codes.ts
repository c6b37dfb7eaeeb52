// One-time registration codes (spec 000 §8): the setup script carries one and sends it back with
// the token it created, so POST /api/auto-register is public yet answers only to a script this
// Pulse handed out, for the node type and host the admin typed. In memory, like setup codes.
import crypto from 'node:crypto'
import type { NodeType } from '../../shared/model/node-config.ts'
import { SETUP_TOKEN_TTL_MS } from './setup-tokens.ts'

// Outstanding codes are few (one per served script); this bound only stops a runaway client.
const MAX_OUTSTANDING = 1000

/** What a code was issued for. */
export interface RegistrationGrant {
  type: NodeType
  /** The normalised host (https://host:port). */
  host: string
  expiresAt: number
}

export interface RegistrationCodes {
  /** A new code for `type` and the normalised `host`. */
  issue(type: NodeType, host: string): string
  /**
   * Take the code out (so a concurrent request with it fails) when it is outstanding, unexpired
   * and for `type` and `host`; null otherwise. Hand it back with `restore` if nothing was stored.
   */
  take(code: string, type: NodeType, host: string): RegistrationGrant | null
  /** Put a taken code back (the registration failed before anything changed). */
  restore(code: string, grant: RegistrationGrant): void
}

/** Create the in-memory code store. */
export function createRegistrationCodes(now: () => number): RegistrationCodes {
  const codes = new Map<string, RegistrationGrant>()
  const prune = () => {
    const t = now()
    for (const [code, grant] of codes) if (grant.expiresAt <= t) codes.delete(code)
  }
  const add = (code: string, grant: RegistrationGrant) => {
    prune()
    if (codes.size >= MAX_OUTSTANDING) codes.delete(codes.keys().next().value!)
    codes.set(code, grant)
  }
  return {
    issue(type, host) {
      // 128 bits: the code alone opens a public write route, so it must not be guessable.
      const code = crypto.randomBytes(16).toString('base64url')
      add(code, { type, host, expiresAt: now() + SETUP_TOKEN_TTL_MS })
      return code
    },
    take(code, type, host) {
      const grant = codes.get(code)
      if (!grant || grant.expiresAt <= now() || grant.type !== type || grant.host !== host) {
        return null
      }
      codes.delete(code)
      return grant
    },
    restore(code, grant) {
      if (grant.expiresAt > now()) add(code, grant)
    },
  }
}
