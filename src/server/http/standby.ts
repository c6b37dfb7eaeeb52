// A standby collector (roles/collector.ts) refuses API writes with 503: the active one would
// neither see nor publish them, and its own writes would overwrite them. Reads are served.
import type { FastifyInstance } from 'fastify'
import { AppError } from '../../shared/model/errors.ts'

/** Refuse writes to /api while `standby()` is true. */
export function installStandbyGuard(http: FastifyInstance, standby: () => boolean): void {
  http.addHook('onRequest', async (request) => {
    if (!standby() || request.method === 'GET' || request.method === 'HEAD') return
    if (/^\/api(\/|$)/.test(request.url)) throw new AppError('COLLECTOR_STANDBY')
  })
}
