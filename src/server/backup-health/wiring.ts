// app.ts's one call for backup health: live-state's `derive` step on the collector (and in the
// single process). The build runs in the background, never in a publication's path: at 100,000
// guests with 1,000,000 backup records the first one takes seconds and a later one work in
// proportion to what changed (bench `coverage`), and a poll must not wait for either. Each publication carries the newest completed summaries: a build's result reaches
// the clients and the alert engine with the next poll (no publication of its own, which would
// run every publication's listener out of the poll rhythm). One build at a time, never abandoned: inputs that arrive meanwhile wait and
// the newest of them is built next, so the summaries always progress. A failed build is logged
// and the summaries stay as they were: a bug here must never stop the live state.
import type { FastifyBaseLogger } from 'fastify'
import type { GuestBackup } from '../../shared/model/backup-health.ts'
import type { State } from '../../shared/model/state.ts'
import type { LiveStateDeps } from '../live/live-state.ts'
import { createGuestBackupBuilder } from './guest-backups.ts'

export interface BackupHealthDerive {
  derive: NonNullable<LiveStateDeps['derive']>
  /** Resolves once no build is running or waiting (tests). */
  idle(): Promise<void>
}

/** The derive step that keeps `guestBackups` current; `onBuilt` runs after a changing build. */
export function createBackupHealthDerive(
  log: Pick<FastifyBaseLogger, 'error'>,
  onBuilt: () => void = () => undefined,
): BackupHealthDerive {
  const builder = createGuestBackupBuilder()
  let running: Promise<void> | null = null
  let waiting: { inputs: State; pending: readonly string[] } | null = null
  // The sources pending in the inputs of the summaries handed out: those summaries lack their
  // backups even once the state says they are read, until a build from newer inputs completes.
  let builtPending: readonly string[] = []

  // `pending`: the inputs' own pending sources (derive widens the state's before building).
  const build = (inputs: State, pending: readonly string[]): Promise<void> => {
    const before = builder.current()
    // A copy: the builder sets `guestBackups` on the object it is given, and a published state
    // is never mutated.
    return builder
      .derive({ ...inputs })
      .then(() => {
        builtPending = pending
        if (builder.current() !== before) onBuilt()
      })
      .catch((err: unknown) => {
        log.error({ err }, 'building the guest backup summaries failed')
      })
      .then(() => {
        const next = waiting
        waiting = null
        running = next ? build(next.inputs, next.pending) : null
      })
  }

  return {
    derive(next) {
      next.guestBackups = builder.current() as GuestBackup[]
      const pending = next.backupsPending ?? []
      next.backupsPending = unionSorted(pending, builtPending)
      if (running) waiting = { inputs: next, pending }
      else running = build(next, pending)
    },
    async idle() {
      while (running) await running
    },
  }
}

// `a` itself when `b` adds nothing (the usual case: nothing pending), else the sorted union.
function unionSorted(a: readonly string[], b: readonly string[]): string[] {
  if (b.every((name) => a.includes(name))) return a as string[]
  return [...new Set([...a, ...b])].sort()
}
