// Single sign-on end to end (contract slice 2, spec 001 §4/§5/§8): the real app and a real OpenID
// provider (oidc-provider) on 127.0.0.1, code flow with PKCE, state and nonce.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { OIDC_STATE_TTL_MS } from '../../../../src/server/auth/oidc-flow.ts'
import {
  OIDC_LOGIN_RATE_LIMIT,
  OIDC_LOGIN_RATE_WINDOW_MS,
} from '../../../../src/server/http/oidc.ts'
import { login } from './auth-helpers.ts'
import { HS256_CLIENT_ID, PUBLIC_CLIENT_ID } from './oidc-idp.ts'
import { startOidcFixture, type OidcFixture } from './oidc-fixture.ts'

let fx: OidcFixture
beforeAll(async () => {
  fx = await startOidcFixture()
  await fx.configure()
})
afterAll(async () => {
  await fx?.close()
})
// Tests that narrow the rules put them back; the clock moves past the login rate window.
afterEach(async () => {
  fx.advance(OIDC_LOGIN_RATE_WINDOW_MS)
  await fx.configure({ allowedGroups: [], allowedDomains: [], allowedEmails: [] })
})

const audit = async () => {
  const res = await fx.server.call('GET', '/api/security/audit?limit=5', {
    token: fx.creds.apiToken,
  })
  return res.json.events as Array<{ type: string; username: string; detail: string }>
}

describe('single sign-on code flow', () => {
  it('ends with a session cookie that opens /api/state and says method oidc in the status', async () => {
    const authorizationUrl = await fx.start('/settings/security?tab=1')
    const url = new URL(authorizationUrl)
    expect(url.origin).toBe(fx.idp.issuer)
    expect(url.searchParams.get('code_challenge_method')).toBe('S256')
    expect(url.searchParams.get('code_challenge')).toBeTruthy()
    expect(url.searchParams.get('state')).toBeTruthy()
    expect(url.searchParams.get('nonce')).toBeTruthy()
    expect(url.searchParams.get('scope')).toBe('openid profile email')
    expect(url.searchParams.get('redirect_uri')).toBe(`${fx.server.base}/api/oidc/callback`)

    const answer = await fx.callback(await fx.idp.authorize(authorizationUrl, 'alice'))
    expect(answer.status).toBe(302)
    expect(answer.location).toBe('/settings/security?tab=1')
    const cookies = {
      pulse_session: answer.cookies.pulse_session!,
      pulse_csrf: answer.cookies.pulse_csrf!,
    }
    expect(cookies.pulse_session).toBeTruthy()
    expect(cookies.pulse_csrf).toBeTruthy()

    expect((await fx.server.call('GET', '/api/state', { cookies })).status).toBe(200)
    const status = await fx.server.call('GET', '/api/security/status', { cookies })
    expect(status.json).toMatchObject({
      authenticated: true,
      authUsername: 'alice',
      oidcEnabled: true,
      oidcUsername: 'alice',
    })
    const events = await audit()
    expect(events.find((e) => e.type === 'oidc_login')).toMatchObject({ username: 'alice' })
  })

  it('logout of an OIDC session answers the provider logout URL; a password session none', async () => {
    await fx.configure({ logoutUrl: `${fx.idp.issuer}/session/end` })
    const answer = await fx.loginAs('alice')
    const cookies = {
      pulse_session: answer.cookies.pulse_session!,
      pulse_csrf: answer.cookies.pulse_csrf!,
    }
    const status = await fx.server.call('GET', '/api/security/status', { cookies })
    expect(status.json.oidcLogoutURL).toBe(`${fx.idp.issuer}/session/end`)
    const out = await fx.server.call('POST', '/api/logout', {
      body: {},
      cookies,
      csrf: cookies.pulse_csrf,
    })
    expect(out.status).toBe(200)
    expect(out.json).toEqual({ success: true, logoutUrl: `${fx.idp.issuer}/session/end` })
    expect((await fx.server.call('GET', '/api/state', { cookies })).status).toBe(401)

    const creds = await login(fx.server, fx.creds.username, fx.creds.password)
    const plain = await fx.server.call('POST', '/api/logout', {
      body: {},
      cookies: creds,
      csrf: creds.pulse_csrf,
    })
    expect(plain.json).toEqual({ success: true })
    await fx.configure({ logoutUrl: '' })
  })

  it('username falls back to the email, then to sub', async () => {
    const carol = await fx.loginAs('carol')
    const c = { pulse_session: carol.cookies.pulse_session!, pulse_csrf: '' }
    const status = await fx.server.call('GET', '/api/security/status', { cookies: c })
    expect(status.json.oidcUsername).toBe('carol@example.com')
    const dave = await fx.loginAs('dave')
    const d = { pulse_session: dave.cookies.pulse_session!, pulse_csrf: '' }
    expect(
      (await fx.server.call('GET', '/api/security/status', { cookies: d })).json.oidcUsername,
    ).toBe('dave')
  })

  it('a returnTo that is not a same-origin path becomes /', async () => {
    const evil = ['https://evil.example/', '//evil.example/x', '/\\evil', 'settings', '/.//evil']
    for (const returnTo of evil) {
      const answer = await fx.loginAs('alice', returnTo)
      expect(answer.location, returnTo).toBe('/')
    }
  })

  it('works with a public client (no secret, PKCE only)', async () => {
    await fx.configure({ clientId: PUBLIC_CLIENT_ID, clientSecret: '', clearClientSecret: true })
    const answer = await fx.loginAs('alice')
    expect(answer.location).toBe('/')
    expect(answer.cookies.pulse_session).toBeTruthy()
    await fx.configure()
  })
})

describe('single sign-on restrictions', () => {
  const expectRefused = async (user: string, code: string) => {
    const answer = await fx.loginAs(user)
    expect(answer.status).toBe(302)
    expect(answer.location).toBe(`/?oidc_error=${code}`)
    expect(answer.cookies.pulse_session).toBeUndefined()
    const events = await audit()
    expect(events[0]).toMatchObject({ type: 'oidc_failure' })
    expect(events[0]!.detail).toContain(code)
  }

  it('allowedGroups: a user outside them gets group_restricted and no session', async () => {
    await fx.configure({ allowedGroups: ['admins'] })
    await expectRefused('bob', 'group_restricted')
    expect((await fx.loginAs('alice')).location).toBe('/')
  })

  it('allowedDomains: domain_restricted outside them (case-insensitive, @ optional)', async () => {
    await fx.configure({ allowedDomains: '@EXAMPLE.com' })
    await expectRefused('bob', 'domain_restricted')
    await expectRefused('dave', 'domain_restricted')
    expect((await fx.loginAs('alice')).location).toBe('/')
  })

  it('allowedEmails: email_restricted outside them', async () => {
    await fx.configure({ allowedEmails: ['alice@example.com'] })
    await expectRefused('bob', 'email_restricted')
    expect((await fx.loginAs('alice')).location).toBe('/')
  })

  it('an email the provider marks unverified satisfies no email rule', async () => {
    fx.idp.users.set('eve', { email: 'eve@example.com', email_verified: false })
    await fx.configure({ allowedDomains: ['example.com'] })
    await expectRefused('eve', 'domain_restricted')
  })
})

describe('single sign-on callback failures', () => {
  it('an unknown state is invalid_state', async () => {
    const answer = await fx.callback('/api/oidc/callback?code=abc&state=not-a-state')
    expect(answer).toMatchObject({ status: 302, location: '/?oidc_error=invalid_state' })
    expect(answer.cookies.pulse_session).toBeUndefined()
    const missing = await fx.callback('/api/oidc/callback')
    expect(missing.location).toBe('/?oidc_error=invalid_state')
  })

  it("a callback without the starting browser's cookie is invalid_state (login CSRF)", async () => {
    const res = await fx.server.call('POST', '/api/oidc/login', { body: {} })
    const cookie = res.setCookies.get('pulse_oidc')!
    expect(cookie).toMatch(/HttpOnly/i)
    expect(cookie).toMatch(/SameSite=Lax/i)
    expect(cookie).toMatch(/Path=\/api\/oidc\/callback/)
    const back = await fx.idp.authorize(res.json.authorizationUrl, 'alice')
    const stranger = await fx.callback(back, null)
    expect(stranger.location).toBe('/?oidc_error=invalid_state')
    expect(stranger.cookies.pulse_session).toBeUndefined()
    const forged = await fx.callback(await fx.idp.authorize(await fx.start(), 'alice'), 'forged')
    expect(forged.location).toBe('/?oidc_error=invalid_state')
  })

  it('a reused state is invalid_state', async () => {
    const back = await fx.idp.authorize(await fx.start(), 'alice')
    expect((await fx.callback(back)).location).toBe('/')
    const again = await fx.callback(back)
    expect(again.location).toBe('/?oidc_error=invalid_state')
    expect(again.cookies.pulse_session).toBeUndefined()
  })

  it('a state older than 10 minutes is invalid_state', async () => {
    const back = await fx.idp.authorize(await fx.start(), 'alice')
    fx.advance(OIDC_STATE_TTL_MS + 1000)
    expect((await fx.callback(back)).location).toBe('/?oidc_error=invalid_state')
  })

  it('an ID token with another nonce is invalid_nonce', async () => {
    const url = new URL(await fx.start())
    url.searchParams.set('nonce', 'tampered-nonce-value')
    const answer = await fx.callback(await fx.idp.authorize(url.href, 'alice'))
    expect(answer.location).toBe('/?oidc_error=invalid_nonce')
    expect(answer.cookies.pulse_session).toBeUndefined()
  })

  it('a code the token endpoint refuses is exchange_failed', async () => {
    const back = await fx.idp.authorize(await fx.start(), 'alice')
    back.searchParams.set('code', 'forged-code')
    const answer = await fx.callback(back)
    expect(answer.location).toBe('/?oidc_error=exchange_failed')
  })

  it('a changed PKCE challenge fails the exchange', async () => {
    const url = new URL(await fx.start())
    url.searchParams.set('code_challenge', 'A'.repeat(43))
    const answer = await fx.callback(await fx.idp.authorize(url.href, 'alice'))
    expect(answer.location).toBe('/?oidc_error=exchange_failed')
  })

  it('an ID token signed with an algorithm the client does not take is invalid_signature_alg', async () => {
    await fx.configure({ clientId: HS256_CLIENT_ID })
    const answer = await fx.loginAs('alice')
    expect(answer.location).toBe('/?oidc_error=invalid_signature_alg')
    expect(answer.cookies.pulse_session).toBeUndefined()
    await fx.configure()
  })

  it('an error answer of the provider is provider_error', async () => {
    const url = new URL(await fx.start())
    const state = url.searchParams.get('state')!
    const answer = await fx.callback(
      `/api/oidc/callback?error=access_denied&state=${state}&iss=${encodeURIComponent(fx.idp.issuer)}`,
    )
    expect(answer.location).toBe('/?oidc_error=provider_error')
  })
})

describe('POST /api/oidc/login', () => {
  it('400 OIDC_DISABLED when single sign-on is off', async () => {
    await fx.configure({ enabled: false })
    const res = await fx.server.call('POST', '/api/oidc/login', { body: {} })
    expect(res.status).toBe(400)
    expect(res.json.code).toBe('OIDC_DISABLED')
    expect((await fx.server.call('GET', '/api/security/status')).json.oidcEnabled).toBe(false)
    await fx.configure()
  })

  it('a provider that cannot be reached is a 502', async () => {
    await fx.configure({ issuerUrl: 'http://127.0.0.1:9/' })
    const res = await fx.server.call('POST', '/api/oidc/login', { body: {} })
    expect(res.status).toBe(502)
    expect(res.json.code).toBe('OIDC_PROVIDER_UNREACHABLE')
    await fx.configure()
  })
})

describe('POST /api/oidc/login rate limit', () => {
  it(`answers 429 with Retry-After after ${OIDC_LOGIN_RATE_LIMIT} starts a minute`, async () => {
    for (let i = 0; i < OIDC_LOGIN_RATE_LIMIT; i++) await fx.start()
    const res = await fx.server.call('POST', '/api/oidc/login', { body: {} })
    expect(res.status).toBe(429)
    expect(res.json.code).toBe('RATE_LIMITED')
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0)
  })
})
