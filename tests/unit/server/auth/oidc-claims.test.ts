// The pure parts of single sign-on: claims to identity, the restriction rules, returnTo, and the
// mapping of openid-client errors to the callback codes of spec 001 §8.
import { describe, expect, it } from 'vitest'
import {
  claimGroups,
  classifyOidcError,
  identityOf,
  restrictionOf,
} from '../../../../src/server/auth/oidc-claims.ts'
import { safeReturnTo } from '../../../../src/server/auth/oidc-flow.ts'
import {
  OIDC_DEFAULTS,
  isLoopbackHost,
  splitList,
} from '../../../../src/server/auth/oidc-settings.ts'

const settings = (extra: Partial<typeof OIDC_DEFAULTS> = {}) => ({ ...OIDC_DEFAULTS, ...extra })

/** An error shaped like openid-client's: a ClientError around oauth4webapi's error. */
function wrapped(message: string, cause: object, code = '') {
  const inner = Object.assign(new Error(message, { cause }), { code })
  return Object.assign(new Error('wrapper', { cause: inner }), { code })
}

describe('identity and restrictions', () => {
  it('username: the username claim, else the email, else sub', () => {
    expect(identityOf({ sub: 's', preferred_username: 'al', email: 'A@X.io' }, settings())).toEqual(
      { username: 'al', email: 'a@x.io', groups: [] },
    )
    expect(identityOf({ sub: 's', email: 'a@x.io' }, settings()).username).toBe('a@x.io')
    expect(identityOf({ sub: 's' }, settings()).username).toBe('s')
  })

  it('reads nested claims by dotted name and groups from a string', () => {
    const claims = { sub: 's', realm_access: { roles: ['admin', 'user'] }, grp: 'a, b' }
    expect(claimGroups(claims, 'realm_access.roles')).toEqual(['admin', 'user'])
    expect(claimGroups(claims, 'grp')).toEqual(['a', 'b'])
    expect(claimGroups(claims, 'missing')).toEqual([])
  })

  it('every list that is set must be satisfied', () => {
    const s = settings({ allowedDomains: ['x.io'], allowedGroups: ['ops'] })
    const claims = { sub: 's', email: 'a@x.io', groups: ['ops'] }
    expect(restrictionOf(claims, identityOf(claims, s), s)).toBeNull()
    const noGroup = { ...claims, groups: ['dev'] }
    expect(restrictionOf(noGroup, identityOf(noGroup, s), s)).toBe('group_restricted')
    const otherDomain = { ...claims, email: 'a@y.io' }
    expect(restrictionOf(otherDomain, identityOf(otherDomain, s), s)).toBe('domain_restricted')
    const unverified = { ...claims, email_verified: false }
    expect(restrictionOf(unverified, identityOf(unverified, s), s)).toBe('domain_restricted')
    const asText = { ...claims, email_verified: 'false' }
    expect(restrictionOf(asText, identityOf(asText, s), s)).toBe('domain_restricted')
    const e = settings({ allowedEmails: ['a@x.io'] })
    expect(restrictionOf({ sub: 's' }, identityOf({ sub: 's' }, e), e)).toBe('email_restricted')
  })
})

describe('classifyOidcError', () => {
  it('maps the errors of the exchange and the ID token checks', () => {
    expect(
      classifyOidcError(wrapped('unexpected JWT "alg" header parameter', { header: {} })),
    ).toBe('invalid_signature_alg')
    expect(classifyOidcError(wrapped('unsupported JWS "alg" identifier', { alg: 'none' }))).toBe(
      'invalid_signature_alg',
    )
    expect(
      classifyOidcError(
        wrapped(
          'unexpected ID Token "nonce" claim value',
          { claim: 'nonce' },
          'OAUTH_JWT_CLAIM_COMPARISON_FAILED',
        ),
      ),
    ).toBe('invalid_nonce')
    expect(classifyOidcError(wrapped('JWT signature verification failed', {}))).toBe(
      'invalid_id_token',
    )
    expect(
      classifyOidcError(wrapped('expired', { claim: 'exp' }, 'OAUTH_JWT_TIMESTAMP_CHECK_FAILED')),
    ).toBe('invalid_id_token')
    expect(classifyOidcError(new TypeError('fetch failed'))).toBe('exchange_failed')
    expect(classifyOidcError('weird')).toBe('exchange_failed')
  })
})

describe('returnTo and settings helpers', () => {
  it.each([
    ['/settings/security?x=1#y', '/settings/security?x=1#y'],
    ['/', '/'],
    ['', '/'],
    ['settings', '/'],
    ['//evil.example', '/'],
    ['/\\evil.example', '/'],
    ['https://evil.example/', '/'],
    ['/\u0000x', '/'],
    ['/.//evil.example', '/'],
    ['/a/..//evil.example', '/'],
    ['/%2e//evil.example', '/'],
    [42, '/'],
  ])('safeReturnTo(%j) = %j', (input, expected) => {
    expect(safeReturnTo(input)).toBe(expected)
  })

  it('lists split on commas and whitespace; loopback hosts', () => {
    expect(splitList(' a, b\tc,,a ')).toEqual(['a', 'b', 'c'])
    expect(splitList(['a b', 'c'])).toEqual(['a', 'b', 'c'])
    for (const host of ['localhost', '127.0.0.1', '127.1.2.3', '[::1]']) {
      expect(isLoopbackHost(host), host).toBe(true)
    }
    for (const host of ['127.example.com', '10.0.0.1', 'localhost.example.com']) {
      expect(isLoopbackHost(host), host).toBe(false)
    }
  })
})
