// Pruning metadata of guests gone for good (issue 24 #8). A sweep, started with the polls at most
// once per METADATA_SWEEP_EVERY_MS of the injected clock, marks each stored record whose guest is
// missing from the live state (by guest id and by node-vmid) with the time it was first found
// missing, unmarks records whose guest is back, and removes records missing for
// METADATA_RETENTION_MS. A guest only counts as missing from a whole estate (every endpoint
// answered the last poll): while an endpoint is down or before the first poll, nothing is marked
// or removed, so an outage never costs metadata. The sweep reads and writes SWEEP_PAGE records at
// a time and yields between pages: 100,000 records never hold the event loop at once.
import type { State } from '../../shared/model/state.ts'
import type { MetadataRepo } from '../store/metadata-repo.ts'
import { isWholeEstate } from './known-guests.ts'

/** How long a guest must be missing before its metadata is removed: 30 days. */
export const METADATA_RETENTION_MS = 30 * 24 * 60 * 60_000
/** How often the sweep runs at most. */
export const METADATA_SWEEP_EVERY_MS = 60 * 60_000
const SWEEP_PAGE = 2000

export interface SweepResult {
  /** False when the state did not show the whole estate: only returning guests were unmarked. */
  wholeEstate: boolean
  marked: number
  back: number
  removed: number
}

export interface MetadataRetention {
  /** Start a sweep when the last one started METADATA_SWEEP_EVERY_MS ago and none is running. */
  sweepIfDue(): void
  /** Sweep now (after a running sweep). */
  sweep(): Promise<SweepResult>
  /** Resolves once no sweep is running. */
  settled(): Promise<void>
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

/** Create the sweeper over `repo` and the live state. */
export function createMetadataRetention(deps: {
  repo: MetadataRepo
  state: () => State
  /** True for the metadata key of a guest in the live state (known-guests.ts). */
  isGuest: (key: string) => boolean
  now: () => number
  log?: { info(obj: object, msg: string): void; error(obj: object, msg: string): void }
}): MetadataRetention {
  let lastSweep = -Infinity
  let running: Promise<SweepResult> | null = null

  const run = async (): Promise<SweepResult> => {
    const at = deps.now()
    lastSweep = at
    // Decided once per sweep: an endpoint failing half-way must not make its guests "missing".
    const whole = isWholeEstate(deps.state())
    const result: SweepResult = { wholeEstate: whole, marked: 0, back: 0, removed: 0 }
    for (let after = ''; ;) {
      const page = deps.repo.presencePage(after, SWEEP_PAGE)
      const change = { missing: [] as string[], back: [] as string[], expired: [] as string[] }
      for (const { id, absentSince } of page) {
        if (deps.isGuest(id)) {
          if (absentSince !== null) change.back.push(id)
        } else if (!whole) {
          continue
        } else if (absentSince === null) {
          change.missing.push(id)
        } else if (at - absentSince >= METADATA_RETENTION_MS) {
          change.expired.push(id)
        }
      }
      deps.repo.applyPresence(change, at)
      result.marked += change.missing.length
      result.back += change.back.length
      result.removed += change.expired.length
      if (page.length < SWEEP_PAGE) break
      after = page.at(-1)!.id
      await nextTurn()
    }
    if (result.removed > 0) {
      deps.log?.info(
        { removed: result.removed, days: METADATA_RETENTION_MS / 86_400_000 },
        'removed the metadata of guests missing for the retention period',
      )
    }
    return result
  }

  const sweep = (): Promise<SweepResult> => {
    const previous = running ?? Promise.resolve()
    const next = previous.then(run, run).finally(() => {
      if (running === next) running = null
    })
    running = next
    return next
  }

  return {
    sweep,
    sweepIfDue() {
      if (running || deps.now() - lastSweep < METADATA_SWEEP_EVERY_MS) return
      sweep().catch((err: unknown) => deps.log?.error({ err }, 'sweeping guest metadata failed'))
    },
    async settled() {
      while (running) await running.catch(() => undefined)
    },
  }
}
