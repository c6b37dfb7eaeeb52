// Framing follows the embedding setting (issue 4): refused by default, this origin, or listed ones.
import { afterEach, describe, expect, it } from 'vitest'
import { readConfig } from '../../../../src/server/config.ts'
import {
  readEmbeddingConfig,
  securityHeaders,
} from '../../../../src/server/auth/security-headers.ts'
import { startAuthServer, type AuthTestServer } from './auth-helpers.ts'

let server: AuthTestServer | null = null
afterEach(async () => {
  await server?.close()
  server = null
})

describe('embedding setting', () => {
  it('refuses framing by default', () => {
    const embedding = readEmbeddingConfig({})
    expect(embedding).toEqual({ allowed: false, origins: [] })
    const headers = securityHeaders(embedding)
    expect(headers['X-Frame-Options']).toBe('DENY')
    expect(headers['Content-Security-Policy']).toContain("frame-ancestors 'none'")
  })

  it('allows this origin with ALLOW_EMBEDDING, and listed origins with ALLOWED_EMBED_ORIGINS', () => {
    const self = securityHeaders(readEmbeddingConfig({ ALLOW_EMBEDDING: 'true' }))
    expect(self['X-Frame-Options']).toBe('SAMEORIGIN')
    expect(self['Content-Security-Policy']).toContain("frame-ancestors 'self';")
    const listed = readEmbeddingConfig({
      ALLOWED_EMBED_ORIGINS: 'https://wiki.example.com, https://grafana.example.com:3000/',
    })
    expect(listed).toEqual({
      allowed: true,
      origins: ['https://wiki.example.com', 'https://grafana.example.com:3000'],
    })
    const headers = securityHeaders(listed)
    // X-Frame-Options cannot name origins; the CSP does.
    expect(headers['X-Frame-Options']).toBeUndefined()
    expect(headers['Content-Security-Policy']).toContain(
      "frame-ancestors 'self' https://wiki.example.com https://grafana.example.com:3000;",
    )
  })

  it('refuses a bad origin at start-up, naming the variable', () => {
    for (const origin of ['wiki.example.com', 'https://example.com/path', 'javascript:alert(1)']) {
      expect(() => readConfig({ ALLOWED_EMBED_ORIGINS: origin }, '/tmp', '0.0.0')).toThrow(
        /^ALLOWED_EMBED_ORIGINS: /,
      )
    }
  })

  it('sends the configured frame headers on every answer', async () => {
    server = await startAuthServer({
      embedding: { allowed: true, origins: ['https://wiki.example.com'] },
    })
    for (const path of ['/api/health', '/api/state', '/dashboard']) {
      const answer = await server.call('GET', path)
      expect(answer.headers.get('x-frame-options'), path).toBeNull()
      expect(answer.headers.get('content-security-policy'), path).toContain(
        "frame-ancestors 'self' https://wiki.example.com",
      )
    }
  })
})
