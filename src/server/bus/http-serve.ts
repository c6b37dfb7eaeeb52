// Collector side of the web nodes' HTTP: every browser request a web node forwards on `pulse.http`
// runs through this app's own routes and hooks with `app.inject`, and /ws admissions on
// `pulse.ws.admit` through the /ws route's hooks (ws-admission.ts). One code path for a request,
// whichever node the browser reached: the guard, CSRF, rate limits, lockout, audit and the
// security headers all run here, on the collector's SQLite (sessions included).
//
// The client address: inject's `remoteAddress` becomes the request's socket address, and with
// Fastify's trustProxy off (as in every role) request.ip is that address. So the guard, the rate
// limits, the login lockout and the audit log count the browser's address the web node reported,
// never the web node's own, and an X-Forwarded-For inside the envelope is ignored as it is on a
// direct connection; X-Forwarded-Host counts for the /ws Origin rule only when that address is
// in this collector's TRUSTED_PROXIES, again as on a direct connection. Whoever may publish on
// the bus may claim any client address: the bus's own authentication (NATS credentials) is the
// boundary, as the network between a reverse proxy and Pulse is today.
import net from 'node:net'
import type { FastifyInstance, FastifyBaseLogger } from 'fastify'
import { AppError } from '../../shared/model/errors.ts'
import type { Bus } from './bus.ts'
import {
  decodeFrame,
  encodeFrame,
  endToEndHeaders,
  HTTP_SUBJECT,
  WS_ADMIT_SUBJECT,
  type ForwardedRequest,
  type ForwardedResponse,
  type WsAdmission,
} from './http-envelope.ts'
import { ADMISSION_HEADER, admissionMarker, type AdmissionAnswer } from './ws-admission.ts'
import { SOCKET_PATH } from '../auth/guard.ts'

type InjectResponse = Awaited<ReturnType<FastifyInstance['inject']>>

/**
 * The client address of an envelope. Without a valid one inject would default to 127.0.0.1,
 * which the rate limits exempt: refuse the request instead.
 */
function clientAddress(request: Pick<ForwardedRequest, 'remoteAddress'>): string {
  if (typeof request.remoteAddress !== 'string' || net.isIP(request.remoteAddress) === 0) {
    throw new Error('forwarded request without a valid client address')
  }
  return request.remoteAddress
}

/** Headers of a forwarded request, minus anything only this process may set. */
function requestHeaders(request: ForwardedRequest): Record<string, string | string[]> {
  const headers = endToEndHeaders(request.headers)
  delete headers[ADMISSION_HEADER]
  return headers
}

function responseHead(res: InjectResponse): ForwardedResponse {
  return { status: res.statusCode, headers: endToEndHeaders(res.headers) }
}

/** A 500 for a request this side could not even run (a malformed frame); logged, not sent. */
function internalError(log: FastifyBaseLogger, err: unknown): ForwardedResponse & { body: string } {
  log.error({ err }, 'answering a forwarded request failed')
  return {
    status: 500,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: JSON.stringify(new AppError('INTERNAL').toJSON()),
  }
}

/** Answer `pulse.http` and `pulse.ws.admit` from `app`; stop() before closing the app. */
export function serveForwardedHttp(app: FastifyInstance, bus: Bus): { stop(): void } {
  const http = bus.serve(HTTP_SUBJECT, async (frame) => {
    try {
      const { head, body } = decodeFrame<ForwardedRequest>(frame)
      const res = await app.inject({
        method: head.method as 'GET',
        url: head.url,
        headers: requestHeaders(head),
        payload: body.length > 0 ? body : undefined,
        remoteAddress: clientAddress(head),
      })
      return encodeFrame(responseHead(res), res.rawPayload)
    } catch (err) {
      const { body, ...head } = internalError(app.log, err)
      return encodeFrame(head, Buffer.from(body))
    }
  })

  const admit = bus.serve(WS_ADMIT_SUBJECT, async (frame) => {
    try {
      const { head } = decodeFrame<Omit<ForwardedRequest, 'method'>>(frame)
      const query = head.url.includes('?') ? head.url.slice(head.url.indexOf('?')) : ''
      const res = await app.inject({
        method: 'GET',
        url: SOCKET_PATH + query,
        headers: {
          ...requestHeaders({ ...head, method: 'GET' }),
          [ADMISSION_HEADER]: admissionMarker(),
        },
        remoteAddress: clientAddress(head),
      })
      let answer: WsAdmission
      if (res.statusCode === 200) {
        const who = res.json<AdmissionAnswer>()
        answer = { admitted: true, ...who }
      } else {
        const { status, headers } = responseHead(res)
        answer = { admitted: false, status, headers, body: res.body }
      }
      return encodeFrame(answer)
    } catch (err) {
      const answer: WsAdmission = { admitted: false, ...internalError(app.log, err) }
      return encodeFrame(answer)
    }
  })

  return {
    stop() {
      http.stop()
      admit.stop()
    },
  }
}
