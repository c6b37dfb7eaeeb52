// The PBS jobs of one server, read every CADENCE_MS.pbsJobs: sync, verify and prune job lists, the
// GC status of every datastore and the job tasks of the last week, each kind only when the node's
// monitor flag asks for it. A kind whose call fails keeps its last good jobs (its alerts are held,
// never resolved) and marks nothing else down. A failed run's task log is read once, its tail
// kept per UPID. Unchanged jobs keep their object identity between reads.
import { AppError } from '../../shared/model/errors.ts'
import type { PbsJob, PbsJobKind } from '../../shared/model/backup-health.ts'
import { CADENCE_MS, DEFAULT_POLL_INTERVAL_MS, isDue } from './cadence.ts'
import { isRecord } from './coerce.ts'
import {
  toGcJobs,
  toPbsTasks,
  toPruneJobs,
  toSyncJobs,
  toVerifyJobs,
  withTaskRun,
  type PbsJobSource,
  type PbsTask,
} from './pbs-jobs.ts'

/** Which job kinds a PBS node monitors (monitorSyncJobs, …, monitorGarbageJobs). */
export type PbsJobFlags = Record<PbsJobKind, boolean>

/** Every kind on: a node's default. */
export const ALL_PBS_JOB_KINDS: PbsJobFlags = { sync: true, verify: true, prune: true, gc: true }

/** Tasks looked back on for the jobs' last runs. */
export const TASK_WINDOW_SEC = 7 * 86_400
/** Tasks per call: scheduled job runs of a week fit well inside. */
export const TASK_LIMIT = 500
/** Lines kept of a failed run's log, and the longest line kept. */
export const LOG_TAIL_LINES = 20
export const LOG_LINE_MAX = 300
/** Lines of the first log read: most logs end inside it. */
const LOG_PAGE = 500

/** What survives between reads. */
export interface PbsJobsMemory {
  /** Epoch ms of the last read attempt. */
  at: number
  /** Last good jobs per kind (runs already completed from the tasks). */
  byKind: Partial<Record<PbsJobKind, PbsJob[]>>
  /** Log tails of failed runs, by UPID. */
  logs: Map<string, string[]>
  /** The last output, and each job's serialised form for identity. */
  jobs: PbsJob[]
  keys: Map<string, { key: string; job: PbsJob }>
}

/** Empty memory: the first poll reads. */
export function createPbsJobsMemory(): PbsJobsMemory {
  return { at: -Infinity, byKind: {}, logs: new Map(), jobs: [], keys: new Map() }
}

/** What a read needs. */
export interface PbsJobsContext extends PbsJobSource {
  host: string
  call(path: string, query?: Record<string, string | number>): Promise<unknown>
  flags: PbsJobFlags
  /** Datastores known from the usage list (the GC fallback reads each one). */
  stores: readonly string[]
  memory: PbsJobsMemory
  now: number
  pollIntervalMs?: number
  warn(obj: object, msg: string): void
}

const KINDS: readonly PbsJobKind[] = ['sync', 'verify', 'prune', 'gc']
const ABSENT = Symbol('absent')

/** The jobs now: read when due, else the last ones. Never throws. */
export async function refreshPbsJobs(ctx: PbsJobsContext): Promise<PbsJob[]> {
  const { memory, flags } = ctx
  if (!KINDS.some((k) => flags[k])) return (memory.jobs = [])
  const poll = ctx.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS
  if (!isDue(memory.at, CADENCE_MS.pbsJobs, ctx.now, poll)) return memory.jobs
  memory.at = ctx.now
  const since = Math.floor(ctx.now / 1000) - TASK_WINDOW_SEC
  const readTasks = (typefilter: string) =>
    ctx.call('/nodes/localhost/tasks', { typefilter, since, limit: TASK_LIMIT }).then(toPbsTasks)
  const [lists, jobTasks, gcTasks] = await Promise.all([
    Promise.allSettled(KINDS.map((kind) => (flags[kind] ? readKind(ctx, kind) : skip()))),
    // typefilter is a substring match: 'job' finds syncjob, verificationjob and prunejob. The
    // worker type is checked again when matching, so a looser filter costs nothing wrong.
    flags.sync || flags.verify || flags.prune ? settle(readTasks('job')) : skip(),
    flags.gc ? settle(readTasks('garbage_collection')) : skip(),
  ])
  const tasks: PbsTask[] = []
  for (const part of [jobTasks, gcTasks]) {
    if (part instanceof Error) warnFailure(ctx, part, 'PBS task list failed')
    else if (Array.isArray(part)) tasks.push(...part)
  }
  KINDS.forEach((kind, i) => {
    const list = lists[i]
    if (!flags[kind]) delete memory.byKind[kind]
    else if (list?.status === 'fulfilled' && Array.isArray(list.value)) {
      memory.byKind[kind] = list.value.map((job) => withTaskRun(job, tasks))
    } else if (list?.status === 'rejected') {
      // Keep the last good jobs of this kind; nothing else is marked down.
      warnFailure(ctx, list.reason, `PBS ${kind} jobs failed`)
    }
  })
  const jobs = KINDS.flatMap((kind) => memory.byKind[kind] ?? [])
  await readLogTails(ctx, jobs)
  return (memory.jobs = keepIdentity(
    memory,
    jobs.map((job) => withLog(memory, job)),
  ))
}

async function skip(): Promise<undefined> {
  return undefined
}

async function settle<T>(p: Promise<T>): Promise<T | Error> {
  return p.catch((err: unknown) => (err instanceof Error ? err : new Error(String(err))))
}

async function readKind(ctx: PbsJobsContext, kind: PbsJobKind): Promise<PbsJob[]> {
  switch (kind) {
    case 'sync':
      return toSyncJobs(await ctx.call('/admin/sync'), ctx)
    case 'verify':
      return toVerifyJobs(await ctx.call('/admin/verify'), ctx)
    case 'prune': {
      // Prune jobs arrived in PBS 2.2.2: a missing endpoint means no prune jobs, not an error.
      const data = await absentOn404(ctx.call('/admin/prune'))
      return data === ABSENT ? [] : toPruneJobs(data, ctx)
    }
    case 'gc': {
      // /admin/gc lists every store's GC status since PBS 3.2; before, one call per store.
      const data = await absentOn404(ctx.call('/admin/gc'))
      if (data !== ABSENT) return toGcJobs(data, ctx)
      const each = await Promise.all(
        ctx.stores.map(async (store) =>
          toGcJobs(await ctx.call(`/admin/datastore/${encodeURIComponent(store)}/gc`), ctx, store),
        ),
      )
      return each.flat()
    }
  }
}

async function absentOn404(p: Promise<unknown>): Promise<unknown> {
  try {
    return await p
  } catch (err) {
    const status = err instanceof AppError ? err.params.status : undefined
    if (status === 404 || status === 501) return ABSENT
    throw err
  }
}

// One log read per failed run (cached by UPID); tails of runs no longer failing are dropped.
async function readLogTails(ctx: PbsJobsContext, jobs: readonly PbsJob[]): Promise<void> {
  const wanted = new Set<string>()
  for (const job of jobs) {
    const run = job.lastRun
    if (run?.state === 'failed' && run.upid !== '') wanted.add(run.upid)
  }
  for (const upid of ctx.memory.logs.keys()) if (!wanted.has(upid)) ctx.memory.logs.delete(upid)
  for (const upid of wanted) {
    if (ctx.memory.logs.has(upid)) continue
    try {
      ctx.memory.logs.set(upid, await readLogTail(ctx, upid))
    } catch (err) {
      warnFailure(ctx, err, 'PBS task log failed')
    }
  }
}

/**
 * The last LOG_TAIL_LINES lines of a task log, each at most LOG_LINE_MAX characters. Our client
 * drops the answer's `total`, so a log longer than one page has its end found by probing single
 * lines (doubling, then halving: about 2·log2(lines) tiny calls), then its tail is read.
 */
export async function readLogTail(
  ctx: Pick<PbsJobsContext, 'call'>,
  upid: string,
): Promise<string[]> {
  const path = `/nodes/localhost/tasks/${encodeURIComponent(upid)}/log`
  // PBS's `start` is the first line's number (start=0 and start=1 both begin at line 1).
  const read = async (start: number, limit: number) =>
    toLines(await ctx.call(path, { start, limit }), start)
  const first = await read(1, LOG_PAGE)
  if (first.length < LOG_PAGE) return tailOf(first)
  const exists = async (n: number) => (await read(n, 1)).length > 0
  let known = LOG_PAGE
  let beyond = LOG_PAGE * 2
  while (beyond < MAX_LOG_LINES && (await exists(beyond))) {
    known = beyond
    beyond *= 2
  }
  while (beyond - known > 1) {
    const mid = Math.floor((known + beyond) / 2)
    if (await exists(mid)) known = mid
    else beyond = mid
  }
  return tailOf(await read(Math.max(1, known - LOG_TAIL_LINES + 1), LOG_TAIL_LINES))
}

/** Lines probed for at most; a longer log has its tail taken there. */
const MAX_LOG_LINES = 1 << 24

// Lines numbered `start` and after; a line without a number takes the next one. PBS answers a
// start past the end with no line, or (PVE-style) a 'no content' line numbered 1: both are none.
function toLines(data: unknown, start: number): string[] {
  if (!Array.isArray(data)) return []
  const out: string[] = []
  let last = start - 1
  for (const line of data) {
    if (!isRecord(line)) continue
    const n = typeof line.n === 'number' ? line.n : last + 1
    if (n <= last) continue
    last = n
    const text = typeof line.t === 'string' ? line.t : ''
    out.push(text.length > LOG_LINE_MAX ? `${text.slice(0, LOG_LINE_MAX - 1)}…` : text)
  }
  return out
}

function tailOf(lines: string[]): string[] {
  return lines.slice(-LOG_TAIL_LINES)
}

function withLog(memory: PbsJobsMemory, job: PbsJob): PbsJob {
  const run = job.lastRun
  const tail = run?.state === 'failed' ? memory.logs.get(run.upid) : undefined
  if (tail === undefined) {
    if (job.logTail === undefined) return job
    const { logTail: _drop, ...rest } = job
    return rest
  }
  return { ...job, logTail: tail }
}

// The previous object of a job whose content did not change, so the hub's diff stays empty.
function keepIdentity(memory: PbsJobsMemory, jobs: PbsJob[]): PbsJob[] {
  const next = new Map<string, { key: string; job: PbsJob }>()
  const out = jobs.map((job) => {
    const key = JSON.stringify(job)
    const before = memory.keys.get(job.id)
    const kept = before !== undefined && before.key === key ? before.job : job
    next.set(job.id, { key, job: kept })
    return kept
  })
  memory.keys = next
  return out
}

function warnFailure(ctx: PbsJobsContext, err: unknown, msg: string): void {
  const code = err instanceof AppError ? err.code : 'UNEXPECTED'
  ctx.warn({ instance: ctx.instance, code }, msg)
}
