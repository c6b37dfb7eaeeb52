// GET /admin/sync, /admin/verify, /admin/prune (job config + JobScheduleStatus), /admin/gc (one
// GarbageCollectionJobStatus per store) and the task log of a job run, rendered from jobs.ts.

import type { PbsSimModel, SimStore } from './model.ts'
import { simJobs, type SimJob, type SimJobRun } from './jobs.ts'
import { namespaceSnapshots, verificationOf, verifyVictims } from './schedule.ts'
import { snapshotPath } from './render-content.ts'
import type { StoreView } from './store-view.ts'

const nowOf = (model: PbsSimModel): number => Math.floor(model.nowMs / 1000)

/** The list of one job kind, as PBS answers it. */
export function renderJobList(model: PbsSimModel, kind: SimJob['kind']): unknown[] {
  return simJobs(model, nowOf(model))
    .filter((job) => job.kind === kind)
    .map((job) => ({
      id: job.id,
      store: job.store,
      schedule: job.schedule,
      ...(job.disabled ? { disable: true } : {}),
      ...job.extra,
      ...scheduleStatus(job),
    }))
}

/** A store's GC status with its schedule status (the counters come from render-store.ts). */
export function renderGcJobStatus(model: PbsSimModel, view: StoreView): Record<string, unknown> {
  const job = simJobs(model, nowOf(model)).find(
    (j) => j.kind === 'gc' && j.store === view.store.name,
  )
  const last = job?.runs.find((r) => r.end !== undefined)
  return {
    store: view.store.name,
    ...(job !== undefined ? { schedule: job.schedule, 'next-run': job.nextRun } : {}),
    ...(last?.end !== undefined
      ? {
          'last-run-endtime': last.end,
          'last-run-state': last.status,
          duration: last.end - last.start,
        }
      : {}),
  }
}

/** The finished GC run whose counters the status reports, if any. */
export function lastGcRun(model: PbsSimModel, store: SimStore): SimJobRun | undefined {
  const job = simJobs(model, nowOf(model)).find((j) => j.kind === 'gc' && j.store === store.name)
  return job?.runs.find((r) => r.end !== undefined)
}

// JobScheduleStatus: never run = next-run only; running = last-run-upid only; finished = all.
function scheduleStatus(job: SimJob): Record<string, unknown> {
  const last = job.runs[0]
  return {
    ...(job.nextRun !== undefined ? { 'next-run': job.nextRun } : {}),
    ...(last !== undefined ? { 'last-run-upid': last.upid } : {}),
    ...(last?.end !== undefined
      ? { 'last-run-state': last.status, 'last-run-endtime': last.end }
      : {}),
  }
}

type LogLine = { n: number; t: string }
// The last log rendered per model: a collector reads one log in several pages and probes.
const logMemo = new WeakMap<PbsSimModel, { revision: number; upid: string; lines: LogLine[] }>()

/** Lines `{n, t}` of a job run's log; PBS's 'no content' line for any other UPID. */
export function renderJobLog(model: PbsSimModel, upid: string): LogLine[] {
  const memo = logMemo.get(model)
  if (memo !== undefined && memo.revision === model.revision && memo.upid === upid) {
    return memo.lines
  }
  const lines = buildJobLog(model, upid)
  logMemo.set(model, { revision: model.revision, upid, lines })
  return lines
}

function buildJobLog(model: PbsSimModel, upid: string): LogLine[] {
  const now = nowOf(model)
  const run = simJobs(model, now)
    .flatMap((j) => j.runs)
    .find((r) => r.upid === upid)
  if (run === undefined) return [{ n: 1, t: 'no content' }]
  const lines = logLines(model, run, now)
  return lines.map((t, i) => ({ n: i + 1, t }))
}

function logLines(model: PbsSimModel, run: SimJobRun, now: number): string[] {
  const store = model.stores.find((s) => s.name === run.store)
  const stamp = (offset: number): string => new Date((run.start + offset) * 1000).toISOString()
  const head = `${stamp(0)}: starting ${run.type} on datastore '${run.store}'`
  const tail = run.end === undefined ? [] : [endLine(run.status)]
  if (run.type !== 'verificationjob' || store === undefined) {
    return [head, `${stamp(1)}: ${run.type} worker ${run.workerId}`, ...tail]
  }
  // A verify run lists every group, then the snapshots that failed and the task's error.
  const lines = [`${stamp(0)}: verify datastore ${store.name}`]
  const failed: string[] = []
  let groups = 0
  for (const ns of store.namespaces) {
    const lists = namespaceSnapshots(store, ns, now)
    ns.groups.forEach((group, i) => {
      groups++
      const snapshots = (lists[i] ?? []).filter(
        (s) => verificationOf(store, s, now)?.at === run.start,
      )
      lines.push(
        `verify group ${store.name}:${snapshotPath(ns.path, group)} (${snapshots.length} snapshots)`,
      )
      if (run.status === 'OK' || !verifyVictims(store).has(group)) return
      for (const snapshot of snapshots) {
        const path = `${snapshotPath(ns.path, group)}/${new Date(snapshot.time * 1000).toISOString().replace('.000Z', 'Z')}`
        lines.push(`verify ${store.name}:${path}`)
        lines.push(
          `can't verify chunk, load failed - store '${store.name}', unable to load chunk ` +
            `'${chunkDigest(snapshot.time)}' - blob too small (0 bytes).`,
        )
        lines.push(`verify ${store.name}:${path} failed: chunks could not be verified`)
        failed.push(path)
      }
    })
  }
  lines.push(`percentage done: 100.00% (${groups}/${groups} groups)`)
  if (run.status !== 'OK') {
    lines.push('Failed to verify the following snapshots/groups:')
    for (const path of failed) lines.push(`\t${path}`)
  }
  return [...lines, ...tail]
}

function endLine(status: string): string {
  if (status === 'OK') return 'TASK OK'
  return status.startsWith('WARNINGS') ? `TASK ${status}` : `TASK ERROR: ${status}`
}

// A stable 64-hex-digit chunk digest for the log line.
function chunkDigest(seed: number): string {
  let out = ''
  let x = seed >>> 0
  while (out.length < 64) {
    x = (Math.imul(x ^ (x >>> 15), 2246822519) + 0x9e3779b9) >>> 0
    out += x.toString(16).padStart(8, '0')
  }
  return out.slice(0, 64)
}
