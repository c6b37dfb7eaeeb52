import { describe, expect, it } from 'vitest'
import { isOriginAllowed } from '../../../../src/server/auth/guard.ts'
import { isPrivateAddress } from '../../../../src/server/auth/network.ts'
import {
  generateApiToken,
  generatePassword,
  hashPassword,
  matchesDigest,
  sha256Hex,
  tokenHint,
  verifyPassword,
} from '../../../../src/server/auth/secrets.ts'

describe('secret helpers', () => {
  it('generates 16-character passwords over the whole alphabet', () => {
    const seen = new Set<string>()
    for (let i = 0; i < 400; i++) {
      const password = generatePassword()
      expect(password).toMatch(/^[A-Za-z0-9_-]{16}$/)
      for (const ch of password) seen.add(ch)
    }
    // 6400 draws over 64 symbols: every symbol shows up.
    expect(seen.size).toBe(64)
  })

  it('generates 48-hex tokens that differ', () => {
    const a = generateApiToken()
    expect(a).toMatch(/^[0-9a-f]{48}$/)
    expect(generateApiToken()).not.toBe(a)
  })

  it('hashes passwords with argon2id and verifies them', async () => {
    const hash = await hashPassword('correct horse')
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/)
    expect(await verifyPassword(hash, 'correct horse')).toBe(true)
    expect(await verifyPassword(hash, 'correct horsE')).toBe(false)
    expect(await verifyPassword('not a hash', 'x')).toBe(false)
  })

  it('compares against SHA-256 digests', () => {
    const digest = sha256Hex('token-value')
    expect(matchesDigest('token-value', digest)).toBe(true)
    expect(matchesDigest('token-valuf', digest)).toBe(false)
    expect(matchesDigest('token-value', 'abcd')).toBe(false)
  })

  it('shows first 8 and last 4 characters of tokens of 20 or more, nothing of shorter ones', () => {
    expect(tokenHint('0123456789abcdef0123456789abcdef')).toBe('01234567...cdef')
    expect(tokenHint('0123456789abcdefghij')).toBe('01234567...ghij')
    expect(tokenHint('0123456789abcdefghi')).toBe('')
  })
})

describe('network helpers', () => {
  it.each([
    ['127.0.0.1', true],
    ['::1', true],
    ['::ffff:192.168.1.20', true],
    ['10.1.2.3', true],
    ['172.16.0.1', true],
    ['172.32.0.1', false],
    ['100.64.0.1', true],
    ['fd12::1', true],
    ['8.8.8.8', false],
    ['2001:db8::1', false],
  ])('classifies %s as private: %s', (ip, expected) => {
    expect(isPrivateAddress(ip)).toBe(expected)
  })

  it('accepts same-host and listed origins only', () => {
    expect(isOriginAllowed('http://127.0.0.1:7655', '127.0.0.1:7655', [])).toBe(true)
    expect(isOriginAllowed('http://LOCALHOST:5173', 'localhost:5173', [])).toBe(true)
    expect(isOriginAllowed('http://127.0.0.1:7656', '127.0.0.1:7655', [])).toBe(false)
    expect(isOriginAllowed('https://a.example', 'b.example', ['https://a.example'])).toBe(true)
    expect(isOriginAllowed('https://a.example/', 'b.example', ['https://a.example'])).toBe(true)
    expect(isOriginAllowed('null', 'b.example', [])).toBe(false)
    expect(isOriginAllowed('https://any.example', 'b.example', ['*'])).toBe(true)
  })
})
