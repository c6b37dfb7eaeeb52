// The single sign-on flow (openid-client v6): authorization code with PKCE S256, state and nonce.
// Pending logins live in memory for 10 minutes, keyed by state, and are taken once. Discovery is
// cached per configuration. http:// issuers are allowed only on a loopback address.
import * as client from 'openid-client'
import { AppError } from '../../shared/model/errors.ts'
import {
  classifyOidcError,
  describeError,
  ID_TOKEN_ALGS,
  identityOf,
  idTokenAlg,
  restrictionOf,
  type Claims,
  type OidcErrorCode,
  type OidcIdentity,
} from './oidc-claims.ts'
import type { Role } from '../../shared/model/roles.ts'
import { decideOidcRole } from './oidc-roles.ts'
import { isLoopbackHost, isOidcReady, type OidcSettings } from './oidc-settings.ts'
import { generateOpaqueId, matchesDigest, sha256Hex } from './secrets.ts'

export const OIDC_STATE_TTL_MS = 10 * 60_000
export const OIDC_MAX_PENDING = 10_000
/** Discovery (and the signing keys it leads to) is looked up again after this long. */
export const OIDC_DISCOVERY_TTL_MS = 60 * 60_000
const HTTP_TIMEOUT_SECONDS = 10

interface PendingLogin {
  /** SHA-256 of the browser binding (the pulse_oidc cookie's value). */
  bindingHash: string
  nonce: string
  codeVerifier: string
  redirectUri: string
  returnTo: string
  expiresAt: number
}

export type OidcOutcome =
  | { ok: true; identity: OidcIdentity; role: Role; returnTo: string }
  | { ok: false; code: OidcErrorCode; detail: string; username?: string }

export interface OidcStart {
  authorizationUrl: string
  /** A random value the browser must present at the callback (the route sets it as a cookie). */
  binding: string
}

export interface OidcFlow {
  /**
   * A new login: remembers state, nonce and PKCE verifier; returns the provider's authorization
   * URL. Throws OIDC_DISABLED, or OIDC_PROVIDER_UNREACHABLE when discovery fails.
   */
  start(input: { returnTo: string; defaultRedirect: string }): Promise<OidcStart>
  /**
   * Finish a login from the callback's query string (state taken once) and the browser binding
   * the start handed out: a callback from another browser is invalid_state (login CSRF).
   */
  finish(query: string, binding: string | undefined): Promise<OidcOutcome>
  /** Forget the cached discovery (the settings changed). */
  reset(): void
  /** Pending logins (tests). */
  pendingCount(): number
}

export interface OidcFlowDeps {
  settings: () => OidcSettings
  now: () => number
  log: { warn(obj: object, msg: string): void }
}

/** A same-origin path starting with '/' (not '//'), else '/' (contract). */
export function safeReturnTo(value: unknown): string {
  if (typeof value !== 'string' || !value.startsWith('/') || value.length > 2048) return '/'
  // No backslashes (browsers read them as '/') and no control characters.
  if (/^\/[/\\]/.test(value) || value.includes('\\')) return '/'
  if ([...value].some((char) => char.charCodeAt(0) < 0x20 || char === '\x7f')) return '/'
  try {
    const base = 'http://pulse.invalid'
    const url = new URL(value, base)
    const path = url.pathname + url.search + url.hash
    // Dot segments can normalise to '//host' (protocol-relative): never answer that.
    return url.origin === base && !path.startsWith('//') ? path : '/'
  } catch {
    return '/'
  }
}

function configKey(s: OidcSettings): string {
  return JSON.stringify([s.issuerUrl, s.clientId, s.clientSecret])
}

/** Discovery, then a configuration with the client authentication the provider supports. */
async function discover(s: OidcSettings): Promise<client.Configuration> {
  const issuer = new URL(s.issuerUrl)
  const insecure = issuer.protocol === 'http:'
  if (insecure && !isLoopbackHost(issuer.hostname)) {
    throw new Error('the issuer must use https:// (http:// only for a loopback address)')
  }
  const execute = insecure ? [client.allowInsecureRequests] : []
  const discovered = await client.discovery(issuer, s.clientId, undefined, client.None(), {
    execute,
    timeout: HTTP_TIMEOUT_SECONDS,
  })
  const server = discovered.serverMetadata()
  let auth = client.None()
  if (s.clientSecret !== '') {
    // client_secret_basic is the default method (RFC 8414) when the provider lists none.
    const methods = server.token_endpoint_auth_methods_supported ?? ['client_secret_basic']
    auth = methods.includes('client_secret_basic')
      ? client.ClientSecretBasic(s.clientSecret)
      : client.ClientSecretPost(s.clientSecret)
  }
  const metadata = s.clientSecret === '' ? {} : { client_secret: s.clientSecret }
  const config = new client.Configuration(server, s.clientId, metadata, auth)
  for (const run of execute) run(config)
  config.timeout = HTTP_TIMEOUT_SECONDS
  return config
}

/** Create the flow over the current settings. */
export function createOidcFlow(deps: OidcFlowDeps): OidcFlow {
  const { now } = deps
  const pending = new Map<string, PendingLogin>()
  let cached: { key: string; at: number; config: Promise<client.Configuration> } | null = null

  const configFor = (s: OidcSettings): Promise<client.Configuration> => {
    const key = configKey(s)
    if (cached && cached.key === key && now() - cached.at < OIDC_DISCOVERY_TTL_MS) {
      return cached.config
    }
    const entry = { key, at: now(), config: discover(s) }
    cached = entry
    // A failed discovery is not kept: the next login tries again.
    entry.config.catch(() => {
      if (cached === entry) cached = null
    })
    return entry.config
  }

  const sweep = () => {
    const at = now()
    for (const [state, login] of pending) {
      if (login.expiresAt <= at) pending.delete(state)
    }
    // Still full: drop the oldest (insertion order).
    while (pending.size >= OIDC_MAX_PENDING) {
      const oldest = pending.keys().next()
      if (oldest.done) break
      pending.delete(oldest.value)
    }
  }

  const take = (state: string | null): PendingLogin | null => {
    if (!state) return null
    const login = pending.get(state)
    if (!login) return null
    pending.delete(state)
    return login.expiresAt > now() ? login : null
  }

  return {
    async start({ returnTo, defaultRedirect }) {
      const s = deps.settings()
      if (!isOidcReady(s)) throw new AppError('OIDC_DISABLED')
      let config: client.Configuration
      try {
        config = await configFor(s)
      } catch (err) {
        const reason = err instanceof Error ? err.message : String(err)
        deps.log.warn({ issuer: s.issuerUrl, reason }, 'single sign-on discovery failed')
        throw new AppError(
          'OIDC_PROVIDER_UNREACHABLE',
          { issuer: s.issuerUrl, reason },
          { cause: err },
        )
      }
      const codeVerifier = client.randomPKCECodeVerifier()
      const state = client.randomState()
      const nonce = client.randomNonce()
      const redirectUri = s.redirectUrl || defaultRedirect
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: s.scopes.join(' '),
        response_type: 'code',
        code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
        state,
        nonce,
      })
      if (pending.size >= OIDC_MAX_PENDING) sweep()
      const binding = generateOpaqueId()
      pending.set(state, {
        bindingHash: sha256Hex(binding),
        nonce,
        codeVerifier,
        redirectUri,
        returnTo: safeReturnTo(returnTo),
        expiresAt: now() + OIDC_STATE_TTL_MS,
      })
      return { authorizationUrl: url.href, binding }
    },

    async finish(query, binding) {
      const params = new URLSearchParams(query)
      const login = take(params.get('state'))
      if (!login) return { ok: false, code: 'invalid_state', detail: 'unknown or expired state' }
      if (binding === undefined || !matchesDigest(binding, login.bindingHash)) {
        return { ok: false, code: 'invalid_state', detail: 'state started in another browser' }
      }
      const s = deps.settings()
      if (!isOidcReady(s))
        return { ok: false, code: 'oidc_disabled', detail: 'single sign-on is off' }
      let claims: Claims
      try {
        const config = await configFor(s)
        // The redirect URI of the authorization request, whatever host the browser came back on.
        const currentUrl = new URL(login.redirectUri)
        currentUrl.search = params.toString()
        currentUrl.hash = ''
        const tokens = await client.authorizationCodeGrant(config, currentUrl, {
          expectedState: params.get('state')!,
          expectedNonce: login.nonce,
          pkceCodeVerifier: login.codeVerifier,
          idTokenExpected: true,
        })
        const idClaims = tokens.claims()
        if (!idClaims || !tokens.id_token) {
          return { ok: false, code: 'invalid_id_token', detail: 'no ID token' }
        }
        const alg = idTokenAlg(tokens.id_token)
        if (!ID_TOKEN_ALGS.has(alg)) {
          return { ok: false, code: 'invalid_signature_alg', detail: `ID token signed with ${alg}` }
        }
        claims = { ...idClaims }
        if (tokens.access_token && config.serverMetadata().userinfo_endpoint) {
          try {
            const info = await client.fetchUserInfo(config, tokens.access_token, idClaims.sub)
            claims = { ...claims, ...info }
          } catch (err) {
            // The ID token's claims still stand; a restriction they cannot satisfy refuses.
            const reason = err instanceof Error ? err.message : String(err)
            deps.log.warn({ reason }, 'single sign-on: userinfo request failed')
          }
        }
      } catch (err) {
        const code = classifyOidcError(err)
        const detail = describeError(err)
        // Only messages: the errors' causes can hold token material.
        deps.log.warn({ code, reason: detail }, 'single sign-on callback failed')
        return { ok: false, code, detail }
      }
      const identity = identityOf(claims, s)
      const restriction = restrictionOf(claims, identity, s)
      if (restriction) {
        return {
          ok: false,
          code: restriction,
          detail: `email "${identity.email}", groups [${identity.groups.join(', ')}]`,
          username: identity.username,
        }
      }
      // The mapping of this sign-in's settings (read above, at the callback): never cached.
      const role = decideOidcRole(identity.groups, s.roleMapping, s.defaultRole)
      if (role === null) {
        return {
          ok: false,
          code: 'role_restricted',
          detail: `groups [${identity.groups.join(', ')}] map to no role and the default is none`,
          username: identity.username,
        }
      }
      return { ok: true, identity, role, returnTo: login.returnTo }
    },

    reset() {
      cached = null
    },

    pendingCount: () => pending.size,
  }
}
