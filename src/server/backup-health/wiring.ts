// app.ts's one call for backup health: live-state's `derive` step on the collector (and in the
// single process). A failed build is logged and the poll is published with the summaries as they
// were: a bug here must never stop the live state.
import type { FastifyBaseLogger } from 'fastify'
import type { LiveStateDeps } from '../live/live-state.ts'
import { createGuestBackupBuilder } from './guest-backups.ts'

/** The derive step that keeps `guestBackups` current. */
export function createBackupHealthDerive(
  log: Pick<FastifyBaseLogger, 'error'>,
): NonNullable<LiveStateDeps['derive']> {
  const builder = createGuestBackupBuilder()
  return async (next, stale) => {
    try {
      await builder.derive(next, stale)
    } catch (err) {
      log.error({ err }, 'building the guest backup summaries failed')
    }
  }
}
