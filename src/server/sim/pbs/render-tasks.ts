// GET /nodes/localhost/tasks: the task log the schedule implies for the last few days (backup
// runs incl. failed and running ones, GC, prune and verify), newest first, filtered as PBS does.

import type { PbsSimModel, SimStore } from './model.ts'
import { simJobRuns } from './jobs.ts'
import { DAY_SEC, hashUnit, runDuration, runFailed, runStart } from './schedule.ts'
import { snapshotPath } from './render-content.ts'
import { createUpid } from './upid.ts'

const TASK_DAYS = 3

/** One task-list entry (TaskListItem); endtime and status are absent while running. */
export interface TaskEntry {
  upid: string
  node: string
  pid: number
  pstart: number
  starttime: number
  endtime?: number
  worker_type: string
  worker_id: string
  user: string
  status?: string
}

/** Query filters of the tasks list (already validated). */
export interface TaskQuery {
  start: number
  limit: number
  store?: string
  typefilter?: string
  statusfilter?: string[]
  userfilter?: string
  since?: number
  until?: number
  errors: boolean
  running: boolean
}

/** The filtered page of tasks and the total before paging. */
export function renderTasks(
  model: PbsSimModel,
  query: TaskQuery,
): { data: TaskEntry[]; total: number } {
  const matching = listTasks(model).filter((t) => matches(t, query))
  const page =
    query.limit === 0
      ? matching.slice(query.start)
      : matching.slice(query.start, query.start + query.limit)
  return { data: page, total: matching.length }
}

function matches(task: TaskEntry, q: TaskQuery): boolean {
  if (q.since !== undefined && task.starttime < q.since) return false
  if (q.until !== undefined && task.starttime > q.until) return false
  if (q.typefilter !== undefined && !task.worker_type.includes(q.typefilter)) return false
  if (q.userfilter !== undefined && !task.user.includes(q.userfilter)) return false
  if (q.store !== undefined && task.worker_id.split(':')[0] !== q.store) return false
  if (q.running && task.status !== undefined) return false
  if (q.errors && (task.status === undefined || task.status === 'OK')) return false
  if (q.statusfilter !== undefined && !q.statusfilter.includes(statusClass(task))) return false
  return true
}

function statusClass(task: TaskEntry): string {
  if (task.status === undefined) return 'unknown'
  if (task.status === 'OK') return 'ok'
  return task.status.startsWith('WARNINGS') ? 'warning' : 'error'
}

// Every task of the last TASK_DAYS days, newest first.
function listTasks(model: PbsSimModel): TaskEntry[] {
  const nowSec = Math.floor(model.nowMs / 1000)
  const tasks: TaskEntry[] = []
  for (const store of model.stores) backupTasks(model, store, nowSec, tasks)
  jobTasks(model, nowSec, tasks)
  return tasks.sort((a, b) => b.starttime - a.starttime)
}

function backupTasks(model: PbsSimModel, store: SimStore, nowSec: number, out: TaskEntry[]): void {
  const today = Math.floor(nowSec / DAY_SEC)
  for (const ns of store.namespaces) {
    for (const group of ns.groups) {
      for (let day = today - TASK_DAYS; day <= today; day++) {
        const start = runStart(group, day)
        if (start === undefined || start > nowSec || start < nowSec - TASK_DAYS * DAY_SEC) continue
        const end = start + runDuration(group, day)
        const status = runFailed(group, day)
          ? 'backup ended but finished flag is not set.'
          : hashUnit(group.salt, day, 5) < 0.02
            ? 'WARNINGS: 1'
            : 'OK'
        out.push(
          task(model, group.salt, {
            starttime: start,
            end: end <= nowSec ? end : undefined,
            status,
            type: 'backup',
            id: `${store.name}:${snapshotPath(ns.path, group)}`,
            user: group.owner,
          }),
        )
      }
    }
  }
}

// The scheduled job runs (sync, verify, prune, GC) jobs.ts derives, under their own UPIDs.
function jobTasks(model: PbsSimModel, nowSec: number, out: TaskEntry[]): void {
  for (const run of simJobRuns(model, nowSec, nowSec - TASK_DAYS * DAY_SEC)) {
    const { pid, pstart } = parseUpid(run.upid)
    out.push({
      upid: run.upid,
      node: model.host.hostname,
      pid,
      pstart,
      starttime: run.start,
      ...(run.end !== undefined ? { endtime: run.end, status: run.status } : {}),
      worker_type: run.type,
      worker_id: run.workerId,
      user: 'root@pam',
    })
  }
}

// pid and pstart are the UPID's second and third fields (hex).
function parseUpid(upid: string): { pid: number; pstart: number } {
  const parts = upid.split(':')
  return { pid: parseInt(parts[2] ?? '0', 16), pstart: parseInt(parts[3] ?? '0', 16) }
}

interface TaskSpec {
  starttime: number
  end: number | undefined
  status: string
  type: string
  id: string
  user: string
}

function task(model: PbsSimModel, salt: number, spec: TaskSpec): TaskEntry {
  const { upid, pid, pstart } = createUpid({
    node: model.host.hostname,
    salt,
    starttime: spec.starttime,
    workerType: spec.type,
    workerId: spec.id,
    user: spec.user,
  })
  return {
    upid,
    node: model.host.hostname,
    pid,
    pstart,
    starttime: spec.starttime,
    ...(spec.end !== undefined ? { endtime: spec.end, status: spec.status } : {}),
    worker_type: spec.type,
    worker_id: spec.id,
    user: spec.user,
  }
}
