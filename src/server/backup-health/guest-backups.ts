// Keeps the live state's per-guest backup summaries (`guestBackups`) current: live-state's
// `derive` step, run on the collector before the alert engine's `decorate`, so the engine
// evaluates the summary of the same inputs in the same publication. Web nodes never run it: they
// receive the collector's summaries with its state (replaceState).
// Cost at 100,000 guests and 1,000,000 backups: the backup grouping (the heavy part) is redone
// only when a backup list changes identity (the collectors keep identity for unchanged lists);
// the guest lists change every poll (metrics), so they count as changed only when a field the
// summary reads changed. A build runs in event-loop slices and is abandoned for newer inputs.
import { performance } from 'node:perf_hooks'
import { setImmediate as nextTurn } from 'node:timers/promises'
import type { GuestBackup } from '../../shared/model/backup-health.ts'
import type { Guest, State } from '../../shared/model/state.ts'
import {
  indexBackupSteps,
  STEP_ITEMS,
  type BackupIndex,
} from '../../shared/views/guest-backups/backup-index.ts'
import { indexJobs, type JobIndex } from '../../shared/views/guest-backups/job-selection.ts'
import { indexTasks, type TaskIndex } from '../../shared/views/guest-backups/last-job.ts'
import { summariseSteps } from '../../shared/views/guest-backups/summary.ts'
import { SLICE_BUDGET_MS } from '../live/run-sliced.ts'

/** What a build did (tests and the bench read it). */
export interface BuildFigures {
  /** 'built' (published), 'unchanged' (no input the summary reads changed), 'superseded'. */
  outcome: 'built' | 'unchanged' | 'superseded'
  /** Whether the backup lists were grouped anew. */
  regrouped: boolean
  slices: number
  longestSliceMs: number
}

export interface GuestBackupBuilder {
  /**
   * Bring `next.guestBackups` up to date with `next`'s inputs. Until a build for them completes
   * the collection stays as it was. `stale` returning true (newer inputs are waiting) abandons
   * the build between two slices; the next call starts from what was finished.
   */
  derive(next: State, stale?: () => boolean): Promise<BuildFigures>
  /** The newest completed summaries. */
  current(): readonly GuestBackup[]
}

/** Create the builder; `budgetMs` is the longest run between two turns of the event loop. */
export function createGuestBackupBuilder(budgetMs = SLICE_BUDGET_MS): GuestBackupBuilder {
  let result: GuestBackup[] = []
  let byId = new Map<string, GuestBackup>()
  let built: State | null = null
  let grouped: { storage: unknown; pbs: unknown; index: BackupIndex } | null = null
  let jobs: { jobs: unknown; coverage: unknown; index: JobIndex } | null = null
  let tasks: { tasks: unknown; index: TaskIndex } | null = null
  let generation = 0

  const derive = async (next: State, stale = () => false): Promise<BuildFigures> => {
    const figures: BuildFigures = {
      outcome: 'unchanged',
      regrouped: false,
      slices: 0,
      longestSliceMs: 0,
    }
    const mine = ++generation
    const current = () => mine === generation && !stale()
    let started = performance.now()
    const slice = async (): Promise<boolean> => {
      const ms = performance.now() - started
      if (ms < budgetMs) return true
      figures.slices++
      figures.longestSliceMs = Math.max(figures.longestSliceMs, ms)
      await nextTurn()
      started = performance.now()
      return current()
    }
    const run = async <T>(steps: Generator<void, T, void>): Promise<T | undefined> => {
      for (;;) {
        const step = steps.next()
        if (step.done) return step.value
        if (!(await slice())) return undefined
      }
    }
    // At 100,000 guests even comparing the guest fields is a slice's worth of work.
    if (built) {
      const same = await run(sameInputSteps(built, next))
      if (same === undefined) return superseded(figures)
      if (same) {
        built = next
        next.guestBackups = result
        return figures
      }
    }
    if (grouped?.storage !== next.storageBackups || grouped.pbs !== next.pbsBackups) {
      const index = await run(indexBackupSteps(next.storageBackups, next.pbsBackups))
      if (!index) return superseded(figures)
      grouped = { storage: next.storageBackups, pbs: next.pbsBackups, index }
      figures.regrouped = true
    }
    if (jobs?.jobs !== next.backupJobs || jobs.coverage !== next.backupCoverage) {
      const index = indexJobs(next.backupJobs, next.backupCoverage)
      jobs = { jobs: next.backupJobs, coverage: next.backupCoverage, index }
    }
    if (tasks?.tasks !== next.backupTasks) {
      tasks = { tasks: next.backupTasks, index: indexTasks(next.backupTasks) }
    }
    if (!(await slice())) return superseded(figures)
    const guests = [...next.vms, ...next.containers]
    const out = await run(summariseSteps(guests, grouped.index, jobs.index, tasks.index, byId))
    if (!out) return superseded(figures)
    figures.slices++
    figures.longestSliceMs = Math.max(figures.longestSliceMs, performance.now() - started)
    built = next
    // The same array when every summary is the same object: the diff skips the collection.
    const index = await run(indexChangedSteps(result, out))
    if (index === undefined) return superseded(figures)
    if (index) {
      result = out
      byId = index
    }
    next.guestBackups = result
    figures.outcome = 'built'
    return figures
  }

  return { derive, current: () => result }
}

function superseded(figures: BuildFigures): BuildFigures {
  figures.outcome = 'superseded'
  return figures
}

/** Whether every input the summary reads is the same as in `a` (guests: the fields read). */
function* sameInputSteps(a: State, b: State): Generator<void, boolean, void> {
  return (
    a.storageBackups === b.storageBackups &&
    a.pbsBackups === b.pbsBackups &&
    a.backupTasks === b.backupTasks &&
    a.backupJobs === b.backupJobs &&
    a.backupCoverage === b.backupCoverage &&
    (yield* sameGuestSteps(a.vms, b.vms)) &&
    (yield* sameGuestSteps(a.containers, b.containers))
  )
}

/** The summaries by id when `out` differs from `old` (another object anywhere), else null. */
function* indexChangedSteps(
  old: readonly GuestBackup[],
  out: readonly GuestBackup[],
): Generator<void, Map<string, GuestBackup> | null, void> {
  let changed = old.length !== out.length
  for (let i = 0; !changed && i < out.length; i++) {
    if (i % STEP_ITEMS === 0) yield
    changed = out[i] !== old[i]
  }
  if (!changed) return null
  const byId = new Map<string, GuestBackup>()
  for (let i = 0; i < out.length; i++) {
    if (i % STEP_ITEMS === 0) yield
    byId.set(out[i]!.id, out[i]!)
  }
  return byId
}

function* sameGuestSteps(a: readonly Guest[], b: readonly Guest[]): Generator<void, boolean, void> {
  if (a === b) return true
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) {
    if (i % STEP_ITEMS === 0) yield
    const x = a[i]!
    const y = b[i]!
    if (x === y) continue
    if (
      x.id !== y.id ||
      x.instance !== y.instance ||
      x.node !== y.node ||
      x.vmid !== y.vmid ||
      x.name !== y.name ||
      x.type !== y.type ||
      x.template !== y.template ||
      x.pool !== y.pool
    ) {
      return false
    }
  }
  return true
}
