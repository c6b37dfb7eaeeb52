// Security headers on every answer (API, SPA, static files, errors, refused upgrades). Framing
// follows the embedding setting: refused by default; ALLOW_EMBEDDING=true allows this origin,
// plus the origins listed in ALLOWED_EMBED_ORIGINS.
import type { FastifyInstance } from 'fastify'

/** Who may show the app in a frame. */
export interface EmbeddingConfig {
  allowed: boolean
  /** Extra origins (scheme://host[:port]) allowed to frame the app when `allowed`. */
  origins: readonly string[]
}

export const NO_EMBEDDING: EmbeddingConfig = { allowed: false, origins: [] }

/** The Content-Security-Policy for an embedding setting. */
export function contentSecurityPolicy(embedding: EmbeddingConfig = NO_EMBEDDING): string {
  const ancestors = embedding.allowed ? ["'self'", ...embedding.origins].join(' ') : "'none'"
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "connect-src 'self' ws: wss:",
    "worker-src 'self' blob:",
    `frame-ancestors ${ancestors}`,
    "base-uri 'self'",
    "form-action 'self'",
  ].join('; ')
}

/** Every security header for an embedding setting. */
export function securityHeaders(embedding: EmbeddingConfig = NO_EMBEDDING): Record<string, string> {
  const headers: Record<string, string> = {
    'Content-Security-Policy': contentSecurityPolicy(embedding),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
  }
  // X-Frame-Options cannot list origins: with extra origins only frame-ancestors speaks.
  if (!embedding.allowed) headers['X-Frame-Options'] = 'DENY'
  else if (embedding.origins.length === 0) headers['X-Frame-Options'] = 'SAMEORIGIN'
  return headers
}

export const CONTENT_SECURITY_POLICY = contentSecurityPolicy()
export const SECURITY_HEADERS: Readonly<Record<string, string>> = securityHeaders()

/**
 * Add the onSend hook; call before any route or plugin is registered. A getter is read on every
 * answer, so a saved setting applies at once; its headers are rendered again only when it
 * returns a different object.
 */
export function installSecurityHeaders(
  app: FastifyInstance,
  embedding: EmbeddingConfig | (() => EmbeddingConfig) = NO_EMBEDDING,
): void {
  const current = typeof embedding === 'function' ? embedding : () => embedding
  let rendered = current()
  let headers = securityHeaders(rendered)
  app.addHook('onSend', async (_request, reply) => {
    const now = current()
    if (now !== rendered) {
      rendered = now
      headers = securityHeaders(now)
    }
    reply.headers(headers)
  })
}

/** Read ALLOW_EMBEDDING and ALLOWED_EMBED_ORIGINS; throws naming the variable on a bad origin. */
export function readEmbeddingConfig(env: Record<string, string | undefined>): EmbeddingConfig {
  const allowed = /^(1|true|yes|on)$/i.test(env.ALLOW_EMBEDDING?.trim() ?? '')
  const origins = (env.ALLOWED_EMBED_ORIGINS ?? '')
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((origin) => {
      let url: URL
      try {
        url = new URL(origin)
      } catch {
        throw new Error(
          `ALLOWED_EMBED_ORIGINS: "${origin}" is not an origin like https://example.com`,
        )
      }
      if (!/^https?:$/.test(url.protocol) || url.origin !== origin.replace(/\/+$/, '')) {
        throw new Error(
          `ALLOWED_EMBED_ORIGINS: "${origin}" is not an origin like https://example.com`,
        )
      }
      return url.origin
    })
  return { allowed: allowed || origins.length > 0, origins }
}
