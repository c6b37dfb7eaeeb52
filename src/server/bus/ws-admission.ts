// /ws admission for a web node, answered by the collector's own hooks. The collector replays the
// browser's upgrade request through `app.inject` as a plain GET /ws carrying a marker only this
// process knows: the rate limit, the guard (session cookie, API token, proxy auth, Basic) and the
// Origin rule run exactly as for a real upgrade, because it is the same route with the same hooks.
// Past them, the route's HTTP handler (a real upgrade never reaches it) answers who was let in.
import { randomBytes } from 'node:crypto'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { AppError } from '../../shared/model/errors.ts'
import { safeEqual } from '../auth/secrets.ts'
import { socketOwner, type SocketOwner } from '../auth/socket-registry.ts'

/** The marker header of an admission replay (in-process only, stripped from forwarded requests). */
export const ADMISSION_HEADER = 'x-pulse-ws-admission'

/** Random per process: a browser cannot forge it, nor a web node, which never needs it. */
const admissionSecret = randomBytes(32).toString('base64url')

/** The marker value to put in ADMISSION_HEADER when replaying an upgrade request. */
export function admissionMarker(): string {
  return admissionSecret
}

/** What the collector's /ws route answers to an admission replay that passed every hook. */
export interface AdmissionAnswer {
  username: string
  method: string
  isAdmin: boolean
  /** The credentials the socket will hold: the web node closes it when they are revoked. */
  owner: SocketOwner
}

/**
 * The HTTP (non-upgrade) handler of GET /ws: an admission replay learns who was let in;
 * anything else is not found, as before the bus existed.
 */
export function answerAdmission(request: FastifyRequest, reply: FastifyReply): AdmissionAnswer {
  const marker = request.headers[ADMISSION_HEADER]
  if (typeof marker !== 'string' || !safeEqual(marker, admissionSecret) || !request.auth) {
    throw new AppError('NOT_FOUND', { path: '/ws' })
  }
  reply.header('Cache-Control', 'no-store')
  const { username, method, isAdmin } = request.auth
  return { username, method, isAdmin, owner: socketOwner(request.auth) }
}
