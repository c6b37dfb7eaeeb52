// PBS instances on the plain (reference) dialect (reference/wire-protocol.md §2.7): `lastSeen` as
// RFC 3339 and, per instance, the reference's five job lists built from our `pbsJobs`:
//   syncJobs    {id, store, remote, status, lastSync, nextRun, error?, schedule, duration}
//   verifyJobs  {id, store, status, lastVerify, nextRun, error?, schedule, duration}
//   pruneJobs   {id, store, status, lastPrune, nextRun, error?, schedule, duration}
//   garbageJobs {id, store, status, lastGarbage, nextRun, error?, schedule, duration}
//   backupJobs  [] always: a PBS runs no backup jobs of its own (the PVE side starts them; the
//               reference never filled this list either).
// `id` is the job's PBS id (a GC's is its datastore); times are RFC 3339, Go's zero time when
// unknown (the reference's time.Time is never omitted); `last…` is the last run's end, or its
// start while it runs; `status` is ok | warning | failed | running | unknown, or disabled for a
// disabled prune job; `error` the last run's status text when it failed or warned.
import type { PbsJob, PbsJobKind } from '../../shared/model/backup-health.ts'
import type { PbsInstance } from '../../shared/model/state.ts'

/** One job on the plain dialect. */
export interface PlainPbsJob {
  id: string
  store: string
  remote?: string
  status: string
  nextRun: string
  error?: string
  schedule: string
  /** Seconds the last run took (0 while running or unknown). */
  duration: number
  lastSync?: string
  lastVerify?: string
  lastPrune?: string
  lastGarbage?: string
}

/** A PBS instance on the plain dialect (§2.7). */
export type PlainPbsInstance = Omit<PbsInstance, 'lastSeen'> & {
  lastSeen: string
  backupJobs: never[]
  syncJobs: PlainPbsJob[]
  verifyJobs: PlainPbsJob[]
  pruneJobs: PlainPbsJob[]
  garbageJobs: PlainPbsJob[]
}

/** Go's zero `time.Time`. */
const ZERO = '0001-01-01T00:00:00Z'

const LAST_KEY: Record<PbsJobKind, 'lastSync' | 'lastVerify' | 'lastPrune' | 'lastGarbage'> = {
  sync: 'lastSync',
  verify: 'lastVerify',
  prune: 'lastPrune',
  gc: 'lastGarbage',
}

type JobLists = Pick<PlainPbsInstance, 'syncJobs' | 'verifyJobs' | 'pruneJobs' | 'garbageJobs'>
const LIST_KEY: Record<PbsJobKind, keyof JobLists> = {
  sync: 'syncJobs',
  verify: 'verifyJobs',
  prune: 'pruneJobs',
  gc: 'garbageJobs',
}

/**
 * A converter of `pbs` plus `pbsJobs` into plain instances. Converts only what changed: jobs are
 * regrouped when the job array changes, each job is converted once (kept per object), and an
 * instance keeps its output while neither it nor its job lists changed.
 */
export function createPlainPbsConverter(
  toIso: (seconds: number) => string,
): (instances: readonly PbsInstance[], jobs: readonly PbsJob[]) => PlainPbsInstance[] {
  const converted = new WeakMap<PbsJob, PlainPbsJob>()
  let lastJobs: readonly PbsJob[] | null = null
  let grouped = new Map<string, JobLists>()
  let lastInstances: readonly PbsInstance[] | null = null
  let lastOut: PlainPbsInstance[] = []
  let outs = new Map<string, { instance: PbsInstance; lists: JobLists; out: PlainPbsInstance }>()

  const toJob = (job: PbsJob): PlainPbsJob => {
    let out = converted.get(job)
    if (out === undefined) converted.set(job, (out = toPlainJob(job, toIso)))
    return out
  }

  const regroup = (jobs: readonly PbsJob[]): Map<string, JobLists> => {
    const next = new Map<string, JobLists>()
    for (const job of jobs) {
      let lists = next.get(job.pbs)
      if (lists === undefined) {
        next.set(
          job.pbs,
          (lists = { syncJobs: [], verifyJobs: [], pruneJobs: [], garbageJobs: [] }),
        )
      }
      lists[LIST_KEY[job.kind]].push(toJob(job))
    }
    // A list whose jobs are the same objects as before stays the same array.
    for (const [pbs, lists] of next) {
      const before = grouped.get(pbs)
      if (before === undefined) continue
      for (const key of Object.values(LIST_KEY)) {
        if (sameItems(lists[key], before[key])) lists[key] = before[key]
      }
    }
    return next
  }

  return (instances, jobs) => {
    if (jobs === lastJobs && instances === lastInstances) return lastOut
    if (jobs !== lastJobs) {
      grouped = regroup(jobs)
      lastJobs = jobs
    }
    const next = new Map<
      string,
      { instance: PbsInstance; lists: JobLists; out: PlainPbsInstance }
    >()
    lastOut = instances.map((instance) => {
      const lists = grouped.get(instance.id) ?? EMPTY_LISTS
      const before = outs.get(instance.id)
      const out =
        before !== undefined &&
        before.instance === instance &&
        (Object.keys(LIST_KEY) as PbsJobKind[]).every(
          (k) => before.lists[LIST_KEY[k]] === lists[LIST_KEY[k]],
        )
          ? before.out
          : {
              ...instance,
              lastSeen: instance.lastSeen > 0 ? toIso(instance.lastSeen / 1000) : ZERO,
              backupJobs: [],
              ...lists,
            }
      next.set(instance.id, { instance, lists, out })
      return out
    })
    outs = next
    lastInstances = instances
    return lastOut
  }
}

const EMPTY_LISTS: JobLists = { syncJobs: [], verifyJobs: [], pruneJobs: [], garbageJobs: [] }

function sameItems<T>(a: readonly T[], b: readonly T[]): boolean {
  return a.length === b.length && a.every((item, i) => item === b[i])
}

function toPlainJob(job: PbsJob, toIso: (seconds: number) => string): PlainPbsJob {
  const run = job.lastRun
  const at = run === undefined ? 0 : run.endTime > 0 ? run.endTime : run.startTime
  const failing = run !== undefined && (run.state === 'failed' || run.state === 'warning')
  return {
    id: job.jobId,
    store: job.store,
    ...(job.kind === 'sync' ? { remote: job.remote ?? '' } : {}),
    status: !job.enabled ? 'disabled' : (run?.state ?? 'unknown'),
    [LAST_KEY[job.kind]]: at > 0 ? toIso(at) : ZERO,
    nextRun: job.nextRun > 0 ? toIso(job.nextRun) : ZERO,
    ...(failing ? { error: run.status } : {}),
    schedule: job.schedule,
    duration: run?.duration ?? 0,
  }
}
