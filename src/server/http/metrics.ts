// GET /metrics: the Prometheus exposition (metrics/metrics-service.ts). Outside /api, so the guard
// does not cover it (auth/guard.ts protects /api and /ws only): it checks its callers itself and
// is never open by default. Accepted, compared in constant time and never logged:
//   - the API token (the generated one or API_TOKEN), as `Authorization: Bearer <token>` (what
//     Prometheus' `authorization` and `bearer_token` send) or `X-API-Token`;
//   - PULSE_METRICS_TOKEN, a read-only token for scrapers that opens /metrics and nothing else;
//   - a signed-in session's cookie (a browser that is logged in may look).
// Everything else gets 401, also on a fresh instance before its first-run setup and in API-token-
// only mode (whose open reads cover the live tabs, not this). With DISABLE_AUTH=true the admin
// has opened every route, and this one with them.
import { pipeline, Readable } from 'node:stream'
import { createGzip, constants as zlib } from 'node:zlib'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { AppError, type ErrorCode } from '../../shared/model/errors.ts'
import type { AuthService, EnvApiToken } from '../auth/auth-service.ts'
import { SESSION_COOKIE } from '../auth/cookies.ts'
import { matchesDigest } from '../auth/secrets.ts'
import { EXPOSITION_CONTENT_TYPE } from '../metrics/exposition.ts'
import type { MetricsService } from '../metrics/metrics-service.ts'

export const METRICS_PATH = '/metrics'

export interface MetricsRouteDeps {
  metrics: MetricsService
  auth: Pick<AuthService, 'disabled' | 'verifyToken' | 'sessions'>
  /** PULSE_METRICS_TOKEN, hashed; null when unset. */
  scrapeToken: EnvApiToken | null
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name]
  return Array.isArray(value) ? value[0] : value
}

/** Why the caller may not read /metrics, or null when it may. */
function refusal(request: FastifyRequest, deps: MetricsRouteDeps): ErrorCode | null {
  if (deps.auth.disabled) return null
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(header(request, 'authorization') ?? '')?.[1]
  const token = bearer ?? header(request, 'x-api-token')
  if (token) {
    if (token.length > 1024) return 'API_TOKEN_INVALID'
    // Both are compared whatever the first says: the timing does not tell which one matched.
    // Any valid API token may scrape, whatever its role.
    const api = deps.auth.verifyToken(token) !== null
    const scrape = deps.scrapeToken !== null && matchesDigest(token, deps.scrapeToken.hash)
    return api || scrape ? null : 'API_TOKEN_INVALID'
  }
  const session = request.cookies[SESSION_COOKIE]
  if (session && deps.auth.sessions.find(session)) return null
  return 'AUTH_REQUIRED'
}

/** Register GET /metrics. */
export function registerMetricsRoute(app: FastifyInstance, deps: MetricsRouteDeps): void {
  app.get(METRICS_PATH, async (request, reply) => {
    const refused = refusal(request, deps)
    if (refused) {
      reply.header('WWW-Authenticate', 'Bearer realm="Pulse metrics"')
      throw new AppError(refused)
    }
    const { parts, done } = await deps.metrics.scrape()
    // Its chunks are reused by a later build only once this answer is written or abandoned.
    const raw = reply.raw
    if (raw.destroyed || raw.writableFinished) done()
    else raw.once('close', done)
    reply.header('Cache-Control', 'no-store').type(EXPOSITION_CONTENT_TYPE)
    // Written part by part (~64 KiB each) as the socket drains, never joined into one string.
    const body = Readable.from(parts, { objectMode: false })
    // Prometheus asks for gzip; the compression runs on libuv's threads, not the event loop.
    if (/\bgzip\b/.test(header(request, 'accept-encoding') ?? '')) {
      reply.header('Content-Encoding', 'gzip').header('Vary', 'Accept-Encoding')
      // A client gone mid-answer destroys the gzip stream, and pipeline the parts with it.
      const gzip = createGzip({ level: zlib.Z_BEST_SPEED })
      return reply.send(pipeline(body, gzip, () => undefined))
    }
    return reply.send(body)
  })
}
