// A real OpenID provider (oidc-provider v9) on 127.0.0.1 for the single sign-on tests. Its login
// and consent interaction completes programmatically for the user named in `authorize()`, so a
// test walks the browser's redirects with fetch and a cookie jar and never needs a browser.
// With `{ browserLogin: true }` (the e2e tests) it serves oidc-provider's own development login
// and consent pages instead, for a real browser to fill in.
import crypto from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import Provider, { type Account } from 'oidc-provider'

export interface TestUser {
  preferred_username?: string
  email?: string
  email_verified?: boolean
  groups?: string[]
  name?: string
}

export const CLIENT_ID = 'pulse'
export const CLIENT_SECRET = 'pulse-client-secret-0123456789'
export const PUBLIC_CLIENT_ID = 'pulse-public'
/** Signs its ID tokens with HS256 (the client secret), which the app does not accept. */
export const HS256_CLIENT_ID = 'pulse-hs256'

export interface TestIdp {
  issuer: string
  users: Map<string, TestUser>
  /** Create the provider with its clients; `redirectUris` are the app's callback URLs. */
  register(redirectUris: string[]): void
  /**
   * Follow an authorization URL through the provider as `userId` (logging in and consenting)
   * until it redirects away from the provider; returns that URL (the app's callback), unfetched.
   */
  authorize(authorizationUrl: string, userId: string): Promise<URL>
  close(): Promise<void>
}

function signingKey() {
  const { privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 })
  return { ...privateKey.export({ format: 'jwk' }), kid: 'test-rs256', use: 'sig', alg: 'RS256' }
}

export interface IdpOptions {
  /**
   * Serve oidc-provider's development interaction pages (a login form taking any login name
   * with any password, then a consent page) for a browser, instead of completing the interaction
   * programmatically; `authorize()` is then unavailable.
   */
  browserLogin?: boolean
}

/** Listen on 127.0.0.1; the provider answers once `register()` gave it the redirect URIs. */
export async function startIdp(options: IdpOptions = {}): Promise<TestIdp> {
  const browserLogin = options.browserLogin === true
  const users = new Map<string, TestUser>()
  let nextUser = ''
  let provider: Provider | undefined
  const server = http.createServer((req, res) => {
    if (!provider) {
      res.statusCode = 503
      res.end()
      return
    }
    const idp = provider
    if (!browserLogin && req.url?.startsWith('/interaction/')) {
      void (async () => {
        const details = await idp.interactionDetails(req, res)
        const grant = new idp.Grant({ accountId: nextUser, clientId: details.params.client_id! })
        grant.addOIDCScope(details.params.scope ?? 'openid')
        const grantId = await grant.save()
        await idp.interactionFinished(
          req,
          res,
          { login: { accountId: nextUser }, consent: { grantId } },
          { mergeWithLastSubmission: false },
        )
      })().catch((err: unknown) => {
        res.statusCode = 500
        res.end(String(err))
      })
      return
    }
    idp.callback()(req, res)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  const register = (redirectUris: string[]) => {
    const common = {
      redirect_uris: redirectUris,
      grant_types: ['authorization_code'],
      response_types: ['code'],
    }
    provider = new Provider(issuer, {
      clients: [
        {
          ...common,
          client_id: CLIENT_ID,
          client_secret: CLIENT_SECRET,
          token_endpoint_auth_method: 'client_secret_basic',
        },
        { ...common, client_id: PUBLIC_CLIENT_ID, token_endpoint_auth_method: 'none' },
        {
          ...common,
          client_id: HS256_CLIENT_ID,
          client_secret: CLIENT_SECRET,
          id_token_signed_response_alg: 'HS256',
        },
      ],
      enabledJWA: { idTokenSigningAlgValues: ['RS256', 'HS256'] },
      jwks: { keys: [signingKey()] },
      cookies: { keys: ['oidc-test-cookie-key'] },
      // Explicit lifetimes (the defaults print notices).
      ttl: {
        AccessToken: 600,
        AuthorizationCode: 60,
        Grant: 600,
        IdToken: 600,
        Interaction: 600,
        Session: 600,
      },
      claims: {
        openid: ['sub'],
        profile: ['preferred_username', 'name', 'groups'],
        email: ['email', 'email_verified'],
      },
      features: { devInteractions: { enabled: browserLogin } },
      // The development pages bring their own interaction URL.
      ...(browserLogin
        ? {}
        : {
            interactions: {
              url: (_ctx: unknown, interaction: { uid: string }) =>
                `/interaction/${interaction.uid}`,
            },
          }),
      findAccount: (_ctx: unknown, id: string): Account | undefined => {
        const user = users.get(id)
        if (!user) return undefined
        return { accountId: id, claims: () => ({ sub: id, ...user }) }
      },
    })
    // The provider logs server errors to the console otherwise.
    provider.on('server_error', () => {})
  }

  const authorize = async (authorizationUrl: string, userId: string): Promise<URL> => {
    if (browserLogin) throw new Error('authorize() needs the programmatic interaction')
    nextUser = userId
    const jar = new Map<string, string>()
    let current = new URL(authorizationUrl)
    for (let hop = 0; hop < 10; hop++) {
      const cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ')
      const res = await fetch(current, { redirect: 'manual', headers: cookie ? { cookie } : {} })
      for (const header of res.headers.getSetCookie()) {
        const pair = header.split(';')[0] ?? ''
        const eq = pair.indexOf('=')
        const [name, value] = [pair.slice(0, eq), pair.slice(eq + 1)]
        if (value === '' || /max-age=0|expires=thu, 01 jan 1970/i.test(header)) jar.delete(name)
        else jar.set(name, value)
      }
      const body = await res.text()
      const location = res.headers.get('location')
      if (!location) throw new Error(`provider answered ${res.status} without a redirect: ${body}`)
      const next = new URL(location, current)
      if (next.origin !== issuer) return next
      current = next
    }
    throw new Error('too many redirects at the provider')
  }

  return {
    issuer,
    users,
    register,
    authorize,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
