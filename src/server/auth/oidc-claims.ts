// What a single sign-on login is allowed to be: the username, email and groups read from the
// claims, the allowedEmails / allowedDomains / allowedGroups rules (spec 001 §5), and the
// callback failure codes of spec 001 §8 for an error thrown by openid-client.
import { AuthorizationResponseError, ResponseBodyError } from 'openid-client'
import type { OidcSettings } from './oidc-settings.ts'

/** The ?oidc_error= codes the callback redirects with. */
export const OIDC_ERROR_CODES = [
  'invalid_state',
  'exchange_failed',
  'invalid_id_token',
  'invalid_signature_alg',
  'invalid_nonce',
  'email_restricted',
  'domain_restricted',
  'group_restricted',
  // In no group of the role mapping with the default role 'none' (issue 29 item 3).
  'role_restricted',
  'session_failed',
  // Not in the spec's list (the UI shows its generic text): the provider answered the
  // authorization request with an error (the user cancelled, consent refused), or single sign-on
  // was turned off between start and callback.
  'provider_error',
  'oidc_disabled',
] as const
export type OidcErrorCode = (typeof OIDC_ERROR_CODES)[number]

export type Claims = Record<string, unknown>

export interface OidcIdentity {
  username: string
  /** Lower case; '' when the claim is missing. */
  email: string
  groups: string[]
}

const MAX_USERNAME = 200

/** A claim by name; a dotted name ('realm_access.roles') walks nested objects when no key matches. */
export function claimValue(claims: Claims, name: string): unknown {
  if (name in claims) return claims[name]
  let value: unknown = claims
  for (const part of name.split('.')) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined
    value = (value as Claims)[part]
  }
  return value
}

function claimText(claims: Claims, name: string): string {
  const value = claimValue(claims, name)
  if (typeof value === 'string') return value.trim()
  if (typeof value === 'number') return String(value)
  return ''
}

/** Groups as a list: an array of strings (or numbers), or one string split on commas. */
export function claimGroups(claims: Claims, name: string): string[] {
  const value = claimValue(claims, name)
  const items = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : []
  return items
    .filter((item): item is string | number => typeof item === 'string' || typeof item === 'number')
    .map((item) => String(item).trim())
    .filter((item) => item !== '')
}

/** Username from usernameClaim, else the email, else sub (contract). */
export function identityOf(claims: Claims, settings: OidcSettings): OidcIdentity {
  const email = claimText(claims, settings.emailClaim).toLowerCase()
  const username =
    claimText(claims, settings.usernameClaim) || email || claimText(claims, 'sub') || 'unknown'
  return {
    username: username.slice(0, MAX_USERNAME),
    email,
    groups: claimGroups(claims, settings.groupsClaim),
  }
}

/**
 * The restriction a login breaks, or null. Rules apply together: every list that is set must be
 * satisfied. An email the provider marks unverified (email_verified: false) satisfies none.
 */
export function restrictionOf(
  claims: Claims,
  identity: OidcIdentity,
  settings: OidcSettings,
): 'email_restricted' | 'domain_restricted' | 'group_restricted' | null {
  // Some providers send the flag as a string.
  const unverified = claims.email_verified === false || claims.email_verified === 'false'
  const usable = identity.email !== '' && !unverified
  const email = usable ? identity.email : ''
  if (settings.allowedEmails.length > 0 && !settings.allowedEmails.includes(email)) {
    return 'email_restricted'
  }
  if (settings.allowedDomains.length > 0) {
    const at = email.lastIndexOf('@')
    const domain = at > 0 ? email.slice(at + 1) : ''
    if (domain === '' || !settings.allowedDomains.includes(domain)) return 'domain_restricted'
  }
  if (settings.allowedGroups.length > 0) {
    const allowed = new Set(settings.allowedGroups)
    if (!identity.groups.some((group) => allowed.has(group))) return 'group_restricted'
  }
  return null
}

function causes(err: unknown): unknown[] {
  const chain: unknown[] = []
  let current = err
  while (current !== undefined && current !== null && chain.length < 8) {
    chain.push(current)
    current = (current as { cause?: unknown }).cause
  }
  return chain
}

/** Map an error of the code exchange (or the ID token checks) to a callback failure code. */
export function classifyOidcError(err: unknown): OidcErrorCode {
  const chain = causes(err)
  if (chain.some((e) => e instanceof AuthorizationResponseError)) return 'provider_error'
  if (chain.some((e) => e instanceof ResponseBodyError)) return 'exchange_failed'
  const texts = chain.map((e) => ({
    message: e instanceof Error ? e.message : '',
    code: typeof (e as { code?: unknown }).code === 'string' ? (e as { code: string }).code : '',
    claim: (e as { cause?: { claim?: unknown } }).cause?.claim,
    alg: (e as { cause?: { alg?: unknown } }).cause?.alg,
  }))
  if (texts.some((t) => /"alg"/.test(t.message) || t.alg !== undefined)) {
    return 'invalid_signature_alg'
  }
  if (texts.some((t) => t.claim === 'nonce' || /"nonce"/.test(t.message))) return 'invalid_nonce'
  if (
    texts.some(
      (t) =>
        /ID Token|JWT|signature/i.test(t.message) || /^OAUTH_(JWT_|KEY_SELECTION)/.test(t.code),
    )
  ) {
    return 'invalid_id_token'
  }
  return 'exchange_failed'
}

/**
 * Public-key algorithms only. openid-client takes an ID token from the token endpoint on the
 * strength of TLS and checks its "alg" against the provider's list only; a token signed with the
 * client secret (HS*) is refused as go-oidc does.
 */
export const ID_TOKEN_ALGS: ReadonlySet<string> = new Set([
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
])

/** The "alg" of a compact JWT's header ('' when unreadable). */
export function idTokenAlg(jwt: string): string {
  try {
    const header: unknown = JSON.parse(Buffer.from(jwt.split('.')[0] ?? '', 'base64url').toString())
    const alg = (header as { alg?: unknown } | null)?.alg
    return typeof alg === 'string' ? alg : ''
  } catch {
    return ''
  }
}

/** The messages of an error and its causes, e.g. 'unexpected JWT claim value: unexpected "nonce"'. */
export function describeError(err: unknown): string {
  const parts: string[] = []
  for (let e = err; e instanceof Error && parts.length < 4; e = e.cause) parts.push(e.message)
  return parts.join(': ') || String(err)
}
