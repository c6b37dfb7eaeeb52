// The single sign-on test set-up: the real app (auth on, first-run setup done) and a real OpenID
// provider, both on 127.0.0.1, plus the calls a browser would make between them.
import type { OidcEnvOverrides } from '../../../../src/server/auth/oidc-settings.ts'
import {
  cookieValues,
  quickSetup,
  startAuthServer,
  type AuthTestServer,
  type Credentials,
} from './auth-helpers.ts'
import { CLIENT_ID, CLIENT_SECRET, startIdp, type TestIdp } from './oidc-idp.ts'

export interface OidcFixture {
  server: AuthTestServer
  idp: TestIdp
  creds: Credentials
  /** PUT /api/security/oidc as the admin (API token). */
  put(body: object): ReturnType<AuthTestServer['call']>
  /** PUT a working configuration for the test provider, plus `extra`. */
  configure(extra?: object): Promise<void>
  /** POST /api/oidc/login; the authorization URL (throws unless 200). */
  start(returnTo?: string): Promise<string>
  /**
   * Load a callback URL on the app as the browser that started the last login would (with its
   * pulse_oidc cookie, or `binding` when given; null = none), without following the redirect.
   */
  callback(url: URL | string, binding?: string | null): Promise<CallbackAnswer>
  /** The whole flow for `userId`: start, provider, callback. */
  loginAs(userId: string, returnTo?: string): Promise<CallbackAnswer>
  /** Move the app's clock forward. */
  advance(ms: number): void
  close(): Promise<void>
}

export interface CallbackAnswer {
  status: number
  location: string
  cookies: Record<string, string>
}

export const CALLBACK_PATH = '/api/oidc/callback'

/** Start the provider and the app (env overrides may name the issuer); users alice (admins, example.com) and bob (staff, other.org). */
export async function startOidcFixture(
  options: { oidcEnv?: (issuer: string) => OidcEnvOverrides; captureLogs?: boolean } = {},
): Promise<OidcFixture> {
  let offset = 0
  const idp = await startIdp()
  const server = await startAuthServer(
    { oidcEnv: options.oidcEnv?.(idp.issuer) ?? {} },
    { captureLogs: options.captureLogs, now: () => Date.now() + offset },
  )
  idp.register([server.base + CALLBACK_PATH])
  // Single sign-on set by the environment protects the instance from the start: the password is
  // then added from a single sign-on session, as an administrator would.
  const sso = options.oidcEnv ? server.ctx.app.auth.sessions.create('sso-admin', 'oidc') : null
  const creds = await quickSetup(
    server,
    {},
    sso ? { cookies: { pulse_session: sso.id, pulse_csrf: sso.csrf }, csrf: sso.csrf } : {},
  )
  idp.users.set('alice', {
    preferred_username: 'alice',
    email: 'Alice@Example.com',
    email_verified: true,
    groups: ['admins', 'staff'],
  })
  idp.users.set('bob', {
    preferred_username: 'bob',
    email: 'bob@other.org',
    email_verified: true,
    groups: ['staff'],
  })
  idp.users.set('carol', { email: 'carol@example.com' })
  idp.users.set('dave', {})

  const put = (body: object) =>
    server.call('PUT', '/api/security/oidc', { body, token: creds.apiToken })

  const configure = async (extra: object = {}) => {
    const res = await put({
      enabled: true,
      issuerUrl: idp.issuer,
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      ...extra,
    })
    if (res.status !== 200) throw new Error(`PUT /api/security/oidc: ${res.status} ${res.text}`)
  }

  const start = async (returnTo?: string) => {
    const body = returnTo === undefined ? {} : { returnTo }
    const res = await server.call('POST', '/api/oidc/login', { body })
    if (res.status !== 200) throw new Error(`POST /api/oidc/login: ${res.status} ${res.text}`)
    lastBinding = cookieValues(res).pulse_oidc ?? null
    return res.json.authorizationUrl as string
  }

  let lastBinding: string | null = null
  const callback = async (
    url: URL | string,
    binding: string | null = lastBinding,
  ): Promise<CallbackAnswer> => {
    const target = new URL(url, server.base)
    const res = await fetch(server.base + target.pathname + target.search, {
      redirect: 'manual',
      headers: binding === null ? {} : { cookie: `pulse_oidc=${binding}` },
    })
    await res.text()
    const setCookies = new Map<string, string>()
    for (const header of res.headers.getSetCookie()) {
      setCookies.set(header.slice(0, header.indexOf('=')), header)
    }
    return {
      status: res.status,
      location: res.headers.get('location') ?? '',
      cookies: cookieValues({ setCookies } as Parameters<typeof cookieValues>[0]),
    }
  }

  const loginAs = async (userId: string, returnTo?: string) =>
    callback(await idp.authorize(await start(returnTo), userId))

  return {
    server,
    idp,
    creds,
    put,
    configure,
    start,
    callback,
    loginAs,
    advance: (ms) => {
      offset += ms
    },
    close: async () => {
      await idp.close()
      await server.close()
    },
  }
}
