// Request rate limits, counted by @fastify/rate-limit: per client address, a fixed window per class
// of route on every /api route and /ws (checked before the guard, so unauthenticated floods are
// limited too), and a few routes' own limits (login, backup, single sign-on start). Loopback
// clients (this machine, a local reverse proxy) are exempt from the class limits, and so are the
// live-state and guest-metadata reads the dashboard makes all day. Every refusal is RATE_LIMITED
// with Retry-After.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fastifyRateLimit from '@fastify/rate-limit'
import { AppError } from '../../shared/model/errors.ts'
import { createClockStore } from './rate-limit-store.ts'

/** A class of routes and its limit per client address. */
export interface RequestLimit {
  name: string
  limit: number
  windowMs: number
  matches(method: string, path: string): boolean
}

/** An onRequest hook enforcing one route's own limit. */
export type RouteRateLimit = (request: FastifyRequest, reply: FastifyReply) => Promise<void>

export interface RateLimits {
  /** A limit of the route's own per client address, loopback included. */
  route(limit: number, windowMs: number): RouteRateLimit
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

type Check = ReturnType<FastifyInstance['createRateLimit']>

/** Count the request; refuse it with RATE_LIMITED and Retry-After past the limit. */
async function enforce(check: Check, request: FastifyRequest, reply: FastifyReply, name: string) {
  const result = await check(request)
  if (result.isAllowed || !result.isExceeded) return
  request.log.info({ limit: name }, 'rate limit exceeded')
  reply.header('Retry-After', String(Math.max(1, result.ttlInSeconds)))
  reply.header('X-RateLimit-Remaining', '0')
  throw new AppError('RATE_LIMITED')
}

/**
 * Register the plugin and the class limits' onRequest hook; call before the guard. `now` is the
 * app's clock (tests move it past a window).
 */
export async function installRateLimits(
  app: FastifyInstance,
  now: () => number,
): Promise<RateLimits> {
  await app.register(fastifyRateLimit, { global: false, store: createClockStore(now) })
  const classes = new Map(
    REQUEST_LIMITS.map((limit) => [
      limit.name,
      app.createRateLimit({ max: limit.limit, timeWindow: limit.windowMs }),
    ]),
  )
  app.addHook('onRequest', async (request, reply) => {
    if (isLoopback(request.ip)) return
    const path = request.routeOptions.url ?? request.url.split('?')[0] ?? '/'
    const limit = findRequestLimit(request.method, path)
    if (limit) await enforce(classes.get(limit.name)!, request, reply, limit.name)
  })
  return {
    route(limit, windowMs) {
      const check = app.createRateLimit({ max: limit, timeWindow: windowMs })
      return (request, reply) => enforce(check, request, reply, request.routeOptions.url ?? '')
    },
  }
}
