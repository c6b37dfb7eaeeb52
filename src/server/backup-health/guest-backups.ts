// Keeps the live state's per-guest backup summaries (`guestBackups`) current: live-state's
// `derive` step, run on the collector before the alert engine's `decorate`, so the engine
// evaluates the summary of the same inputs in the same publication. Web nodes never run it: they
// receive the collector's summaries with its state (replaceState).
// Cost at 100,000 guests and 1,000,000 backups: the summariser (shared/views/guest-backups)
// diffs a new backup list against the last one and re-folds only the VMIDs whose records or
// guests changed; the guest lists change every poll (metrics), so they count as changed only
// when a field the summary reads changed. Updates run one at a time, in event-loop slices; one
// for inputs that newer ones replaced is abandoned before it changes anything.
import { performance } from 'node:perf_hooks'
import { setImmediate as nextTurn } from 'node:timers/promises'
import type { GuestBackup } from '../../shared/model/backup-health.ts'
import type { State } from '../../shared/model/state.ts'
import { createGuestBackupSummariser } from '../../shared/views/guest-backups/summariser.ts'
import { SLICE_BUDGET_MS } from '../live/run-sliced.ts'

/** What a build did (tests and the bench read it). */
export interface BuildFigures {
  /** 'built' (published), 'unchanged' (no input the summary reads changed), 'superseded'. */
  outcome: 'built' | 'unchanged' | 'superseded'
  /** Whether a backup list was diffed. */
  regrouped: boolean
  slices: number
  longestSliceMs: number
}

export interface GuestBackupBuilder {
  /**
   * Bring `next.guestBackups` up to date with `next`'s inputs. Until a build for them completes
   * the collection stays as it was. `stale` returning true (newer inputs are waiting), or a later
   * call, abandons the build if it has not started changing the summariser's state.
   */
  derive(next: State, stale?: () => boolean): Promise<BuildFigures>
  /** The newest completed summaries. */
  current(): readonly GuestBackup[]
}

/** Create the builder; `budgetMs` is the longest run between two turns of the event loop. */
export function createGuestBackupBuilder(budgetMs = SLICE_BUDGET_MS): GuestBackupBuilder {
  let summariser = createGuestBackupSummariser()
  let generation = 0
  let queue: Promise<unknown> = Promise.resolve()

  const build = async (next: State, current: () => boolean): Promise<BuildFigures> => {
    const figures: BuildFigures = {
      outcome: 'superseded',
      regrouped: false,
      slices: 0,
      longestSliceMs: 0,
    }
    if (!current()) return figures
    const steps = summariser.updateSteps(next, current)
    let started = performance.now()
    for (;;) {
      const step = steps.next()
      const ms = performance.now() - started
      if (step.done) {
        figures.slices++
        figures.longestSliceMs = Math.max(figures.longestSliceMs, ms)
        if (!step.value) return figures
        figures.regrouped = step.value.regrouped
        figures.outcome = step.value.changed ? 'built' : 'unchanged'
        next.guestBackups = summariser.result() as GuestBackup[]
        return figures
      }
      if (ms < budgetMs) continue
      figures.slices++
      figures.longestSliceMs = Math.max(figures.longestSliceMs, ms)
      await nextTurn()
      started = performance.now()
    }
  }

  const derive = (next: State, stale = () => false): Promise<BuildFigures> => {
    const mine = ++generation
    const run = queue.then(() =>
      build(next, () => mine === generation && !stale()).catch((err: unknown) => {
        // A failure half-way leaves the buckets unknown: the next build starts from scratch,
        // keeping the last summaries until then.
        const last = summariser.result()
        summariser = createGuestBackupSummariser(last)
        throw err
      }),
    )
    queue = run.catch(() => undefined)
    return run
  }

  return { derive, current: () => summariser.result() }
}
