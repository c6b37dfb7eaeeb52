// One-time setup codes for the setup-script URL: random, short-lived, bound to everything the URL
// was issued with (node type, host, Pulse's address, backup rights), kept in memory only (a
// restart simply invalidates the outstanding ones).
import crypto from 'node:crypto'
import type { NodeType } from '../../shared/model/node-config.ts'

/** How long a generated setup URL works. */
export const SETUP_TOKEN_TTL_MS = 5 * 60_000
// Outstanding codes are few (one per click); this bound only stops a runaway client.
const MAX_OUTSTANDING = 1000

/** What a setup URL carries besides its code, named as in its query string. */
export interface SetupBinding {
  type: NodeType
  /** The normalised host (https://host:port). */
  host: string
  pulse_url: string
  backup_perms: string
}

/** Why a code was not accepted: unknown/expired/used, or presented with other values. */
export type SetupRedeem =
  | { ok: true }
  | { ok: false; mismatch?: { field: keyof SetupBinding; expected: string; actual: string } }

export interface SetupTokens {
  /** A new code for `binding`, valid until the returned epoch ms. */
  issue(binding: SetupBinding): { token: string; expiresAt: number }
  /**
   * Use up `token` when it is outstanding, unexpired and presented with exactly the values it was
   * issued with. A mismatch leaves the code outstanding: a tampered copy cannot burn the real one.
   */
  redeem(token: string, presented: SetupBinding): SetupRedeem
}

const BOUND_FIELDS = ['type', 'host', 'pulse_url', 'backup_perms'] as const

/** Create the in-memory code store. */
export function createSetupTokens(now: () => number): SetupTokens {
  const codes = new Map<string, SetupBinding & { expiresAt: number }>()
  const prune = () => {
    const t = now()
    for (const [code, entry] of codes) if (entry.expiresAt <= t) codes.delete(code)
  }
  return {
    issue(binding) {
      prune()
      if (codes.size >= MAX_OUTSTANDING) codes.delete(codes.keys().next().value!)
      // 128 bits: the code alone opens a public route, so it must not be guessable.
      const token = crypto.randomBytes(16).toString('base64url')
      const expiresAt = now() + SETUP_TOKEN_TTL_MS
      codes.set(token, { ...binding, expiresAt })
      return { token, expiresAt }
    },
    redeem(token, presented) {
      const entry = codes.get(token)
      if (!entry || entry.expiresAt <= now()) return { ok: false }
      const field = BOUND_FIELDS.find((f) => entry[f] !== presented[f])
      if (field) {
        return { ok: false, mismatch: { field, expected: entry[field], actual: presented[field] } }
      }
      codes.delete(token)
      return { ok: true }
    },
  }
}
