// The jobs of a simulated PBS (issue 26), as pure functions of the model and the clock, the same
// on every instance and seed so the demo shows each case from its first seconds:
//   sync   's-offsite'   local sync main -> offsite, hourly at :15, every run OK;
//   verify 'v-weekly'    main, Sundays 07:00; its last run FAILED (a few snapshots failed);
//   prune  'p-main'      main, daily 05:30, OK; 'p-offsite' offsite, DISABLED (no next-run);
//   gc     'main'        daily at the store's gc-schedule (06:00), OK; 'offsite' scheduled daily
//                        (10:00) but its last run was two days ago: next-run is 14-38 h in the
//                        past with no run since (overdue).
// Task entries (render-tasks.ts) and task logs come from the same runs, so the job status, the
// task list and the log agree.

import type { PbsSimModel, SimStore } from './model.ts'
import { DAY_SEC, hashUnit, lastDailyRun } from './schedule.ts'
import { createUpid } from './upid.ts'

const HOUR = 3600
export const SYNC_JOB = 's-offsite'
export const VERIFY_FAILED_STATUS = 'verification failed - please check the log for details'

/** One scheduled run of a job. */
export interface SimJobRun {
  type: 'syncjob' | 'verificationjob' | 'prunejob' | 'garbage_collection'
  workerId: string
  store: string
  start: number
  /** Absent while running. */
  end?: number
  status: string
  upid: string
}

/** A job as its list renders it, plus the runs the task list shows. */
export interface SimJob {
  kind: 'sync' | 'verify' | 'prune' | 'gc'
  id: string
  store: string
  schedule: string
  disabled: boolean
  nextRun?: number
  /** Newest first; the first is the job's last run. */
  runs: SimJobRun[]
  extra: Record<string, unknown>
}

/** Every job of the instance at `nowSec`. */
export function simJobs(model: PbsSimModel, nowSec: number): SimJob[] {
  const main = model.stores.find((s) => s.name === 'main')
  const offsite = model.stores.find((s) => s.name === 'offsite')
  const out: SimJob[] = []
  if (main !== undefined && offsite !== undefined) out.push(syncJob(model, offsite, nowSec))
  if (main !== undefined) out.push(verifyJob(model, main, nowSec))
  for (const store of model.stores) out.push(pruneJob(model, store, nowSec))
  for (const store of model.stores) out.push(gcJob(model, store, nowSec))
  return out
}

function syncJob(model: PbsSimModel, store: SimStore, nowSec: number): SimJob {
  // Hourly at :15; each run takes two minutes.
  const last = Math.floor((nowSec - 15 * 60) / HOUR) * HOUR + 15 * 60
  const workerId = `-:main:${store.name}::${SYNC_JOB}`
  const runs = [0, 1, 2].map((back) =>
    run(model, 'syncjob', workerId, store, last - back * HOUR, 120, nowSec, 'OK'),
  )
  return {
    kind: 'sync',
    id: SYNC_JOB,
    store: store.name,
    schedule: 'hourly',
    disabled: false,
    nextRun: last + HOUR,
    runs,
    extra: { 'remote-store': 'main', 'remove-vanished': false, comment: 'Local copy to offsite' },
  }
}

function verifyJob(model: PbsSimModel, store: SimStore, nowSec: number): SimJob {
  const policy = store.verify
  const startSec = policy.kind === 'weekly' ? policy.startSec : 7 * HOUR
  const job = policy.kind === 'weekly' ? policy.job : 'v-weekly'
  // Sundays: the most recent one whose start has passed.
  let day = Math.floor((nowSec - startSec) / DAY_SEC)
  while ((((day + 4) % 7) + 7) % 7 !== 0) day--
  const last = day * DAY_SEC + startSec
  const workerId = `${store.name}:${job}`
  const runs = [0, 1].map((back) =>
    run(
      model,
      'verificationjob',
      workerId,
      store,
      last - back * 7 * DAY_SEC,
      3600,
      nowSec,
      back === 0 ? VERIFY_FAILED_STATUS : 'OK',
    ),
  )
  return {
    kind: 'verify',
    id: job,
    store: store.name,
    schedule: 'sun 07:00',
    disabled: false,
    nextRun: last + 7 * DAY_SEC,
    runs,
    extra: { 'ignore-verified': true, 'outdated-after': 30, comment: 'Weekly verification' },
  }
}

function pruneJob(model: PbsSimModel, store: SimStore, nowSec: number): SimJob {
  const disabled = store.name !== 'main'
  const last = lastDailyRun(store.pruneStartSec, nowSec)
  const runs = disabled
    ? []
    : [0, 1, 2].map((back) =>
        run(model, 'prunejob', store.name, store, last - back * DAY_SEC, 40, nowSec, 'OK'),
      )
  return {
    kind: 'prune',
    id: `p-${store.name}`,
    store: store.name,
    schedule: clockOf(store.pruneStartSec),
    disabled,
    // A disabled prune job has no next-run (reference §3.2).
    ...(disabled ? {} : { nextRun: last + DAY_SEC }),
    runs,
    extra: { 'keep-daily': 7, 'keep-weekly': 4 },
  }
}

/** GC of one store; the offsite one has missed its runs of the last two days. */
export function gcJob(model: PbsSimModel, store: SimStore, nowSec: number): SimJob {
  const overdue = store.name === 'offsite'
  const scheduled = lastDailyRun(store.gcStartSec, nowSec)
  // Overdue: the last run is two scheduled runs back; the next-run PBS reports is the first
  // missed one, which lies in the past.
  const last = overdue ? scheduled - 2 * DAY_SEC : scheduled
  const duration = 300 + Math.floor(hashUnit(model.seed, last, 8) * 2400)
  const runs = [0, 1, 2].map((back) =>
    run(
      model,
      'garbage_collection',
      store.name,
      store,
      last - back * DAY_SEC,
      duration,
      nowSec,
      'OK',
    ),
  )
  return {
    kind: 'gc',
    id: store.name,
    store: store.name,
    schedule: clockOf(store.gcStartSec),
    disabled: false,
    nextRun: last + DAY_SEC,
    runs,
    extra: {},
  }
}

function run(
  model: PbsSimModel,
  type: SimJobRun['type'],
  workerId: string,
  store: SimStore,
  start: number,
  duration: number,
  nowSec: number,
  status: string,
): SimJobRun {
  const end = start + duration
  const upid = jobRunUpid(model, store, type, workerId, start)
  return {
    type,
    workerId,
    store: store.name,
    start,
    ...(end <= nowSec ? { end } : {}),
    status: end <= nowSec ? status : 'running',
    upid,
  }
}

/** A daily calendar event `HH:MM` for seconds after midnight (the datastore config's form). */
export function clockOf(sec: number): string {
  const hh = String(Math.floor(sec / 3600) % 24).padStart(2, '0')
  return `${hh}:${String(Math.floor(sec / 60) % 60).padStart(2, '0')}`
}

/** The UPID of a scheduled job run (snapshot verification states name the verify run's). */
export function jobRunUpid(
  model: PbsSimModel,
  store: SimStore,
  type: SimJobRun['type'],
  workerId: string,
  start: number,
): string {
  return createUpid({
    node: model.host.hostname,
    salt: model.seed + store.name.length,
    starttime: start,
    workerType: type,
    workerId,
    user: 'root@pam',
  }).upid
}

/** The runs of every job at `nowSec` that started in the window (for the task list). */
export function simJobRuns(model: PbsSimModel, nowSec: number, sinceSec: number): SimJobRun[] {
  return simJobs(model, nowSec)
    .flatMap((job) => job.runs)
    .filter((r) => r.start <= nowSec && r.start >= sinceSec)
}
