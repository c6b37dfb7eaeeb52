// Per-address request limits on every /api route and /ws (the reference's universal limits, made
// a little kinder to the socket): one sliding window per class of route and client address.
// Loopback clients (this machine, a local reverse proxy) are exempt, and so are the live-state and
// guest-metadata reads the dashboard makes all day.
import type { FastifyInstance } from 'fastify'
import { createRateLimiter, type RateLimiter } from './rate-limiter.ts'

/** A class of routes and its limit per client address. */
export interface RequestLimit {
  name: string
  limit: number
  windowMs: number
  matches(method: string, path: string): boolean
}

const MINUTE = 60_000
const isWrite = (method: string) => method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS'

/** First match wins; paths outside /api and /ws are never limited. */
export const REQUEST_LIMITS: readonly RequestLimit[] = [
  {
    name: 'auth',
    limit: 10,
    windowMs: MINUTE,
    matches: (m, p) =>
      isWrite(m) && ['/api/login', '/api/logout', '/api/security/change-password'].includes(p),
  },
  {
    name: 'backup',
    limit: 5,
    windowMs: 5 * MINUTE,
    matches: (_m, p) => p === '/api/config/export' || p === '/api/config/import',
  },
  {
    name: 'config-write',
    limit: 30,
    windowMs: MINUTE,
    matches: (m, p) => isWrite(m) && p.startsWith('/api/config/'),
  },
  {
    name: 'config-read',
    limit: 1000,
    windowMs: MINUTE,
    matches: (_m, p) => p.startsWith('/api/config/') || p === '/api/security/status',
  },
  { name: 'socket', limit: 20, windowMs: MINUTE, matches: (_m, p) => p === '/ws' },
  {
    name: 'health',
    limit: 1000,
    windowMs: MINUTE,
    matches: (_m, p) => p === '/api/health' || p === '/api/version',
  },
  { name: 'default', limit: 500, windowMs: MINUTE, matches: () => true },
]

/** Reads the dashboard makes continuously: never limited. */
const EXEMPT = new Set(['/api/state', '/api/guests/metadata'])

/** True for an address of this machine. */
export function isLoopback(ip: string): boolean {
  return /^127\./.test(ip) || ip === '::1' || /^::ffff:127\./i.test(ip)
}

/** The limit that applies to a request, or null (not limited). */
export function findRequestLimit(method: string, path: string): RequestLimit | null {
  if (!/^\/(api|ws)(\/|$)/.test(path) || EXEMPT.has(path)) return null
  return REQUEST_LIMITS.find((limit) => limit.matches(method, path)) ?? null
}

/** Add the onRequest hook that answers 429 with Retry-After; call before the guard. */
export function installRequestLimits(app: FastifyInstance, now: () => number): void {
  const limiters = new Map<string, RateLimiter>(
    REQUEST_LIMITS.map((limit) => [
      limit.name,
      createRateLimiter({ limit: limit.limit, windowMs: limit.windowMs, now }),
    ]),
  )
  app.addHook('onRequest', async (request, reply) => {
    if (isLoopback(request.ip)) return
    const path = request.routeOptions.url ?? request.url.split('?')[0] ?? '/'
    const limit = findRequestLimit(request.method, path)
    if (!limit) return
    const decision = limiters.get(limit.name)!.hit(request.ip)
    if (decision.allowed) return
    request.log.info({ limit: limit.name }, 'rate limit exceeded')
    return reply
      .code(429)
      .header('Retry-After', String(decision.retryAfterSeconds))
      .header('X-RateLimit-Remaining', '0')
      .send({ code: 'RATE_LIMITED', message: 'Rate limit exceeded. Please try again later.' })
  })
}
