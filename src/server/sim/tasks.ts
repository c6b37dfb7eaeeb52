// The node task lists (/nodes/{n}/tasks): vzdump runs kept for weeks, guest power operations kept
// briefly. UPIDs carry the real hex fields: pid, pstart (jiffies since boot) and start time.

import type { SimClusterModel } from './model.ts'
import { hashInt } from './prng.ts'

// PVE's task index holds about this many entries; vzdump runs are kept apart so a busy day of
// starts and stops never pushes the backup history out.
const BACKUP_KEEP = 400
const OTHER_KEEP = 300
const PID_MAX = 4_194_304

/** What a vzdump task ran: its job (none for "Backup now"), target storage and guests in order. */
export interface SimTaskRun {
  job?: string
  storage: string
  vmids: Int32Array
}

/** One task of a node. Running tasks have neither `endtime` nor `status`. */
export interface SimTask {
  upid: string
  pid: number
  pstart: number
  starttime: number
  endtime?: number
  type: string
  id: string
  user: string
  status?: string
  /** vzdump tasks: what the log (task-log.ts) is generated from. */
  run?: SimTaskRun
}

/** Task lists per node index, oldest first. */
export interface TaskState {
  backup: SimTask[][]
  other: SimTask[][]
  lastPid: number[]
}

/** Empty task lists for a cluster of `nodes` members. */
export function createTaskState(nodes: number, seed: number): TaskState {
  return {
    backup: Array.from({ length: nodes }, () => []),
    other: Array.from({ length: nodes }, () => []),
    lastPid: Array.from({ length: nodes }, (_, i) => 1000 + (hashInt(seed, i, 77) % 900_000)),
  }
}

/** Records a task started at `startSec` on a node; finish it with finishTask. */
export function startTask(
  cluster: SimClusterModel,
  node: number,
  type: string,
  id: string,
  startSec: number,
  user = 'root@pam',
): SimTask {
  const { tasks } = cluster
  const nodeName = cluster.nodes[node]?.name ?? 'localhost'
  const pid = ((tasks.lastPid[node] ?? 1000) + 1 + cluster.aux.int(0, 4000)) % PID_MAX
  tasks.lastPid[node] = pid
  const bootAt = cluster.nodes[node]?.bootAt ?? 0
  // Tasks from before the last reboot belong to an earlier boot: any plausible jiffies value.
  const pstart =
    startSec > bootAt ? (startSec - bootAt) * 100 : 100_000 + (hashInt(pid, startSec) % 9e8)
  const task: SimTask = {
    upid: formatUpid(nodeName, pid, pstart, startSec, type, id, user),
    pid,
    pstart,
    starttime: startSec,
    type,
    id,
    user,
  }
  const list = (type === 'vzdump' ? tasks.backup : tasks.other)[node]
  if (list !== undefined) {
    list.push(task)
    const keep = type === 'vzdump' ? BACKUP_KEEP : OTHER_KEEP
    if (list.length > keep) list.splice(0, list.length - keep)
  }
  return task
}

/** Marks a task as finished with PVE's status text ('OK', 'WARNINGS: 1', an error). */
export function finishTask(task: SimTask, endSec: number, status: string): void {
  task.endtime = Math.max(task.starttime, endSec)
  task.status = status
}

/** Records a short task that is already over (guest power operations, create, destroy). */
export function recordTask(
  cluster: SimClusterModel,
  node: number,
  type: string,
  id: string,
  startSec: number,
): void {
  const task = startTask(cluster, node, type, id, startSec)
  finishTask(task, startSec + cluster.aux.int(1, 12), 'OK')
}

/** `UPID:node:pid:pstart:starttime:type:id:user:`, hex fields upper-case and 8 wide. */
export function formatUpid(
  node: string,
  pid: number,
  pstart: number,
  starttime: number,
  type: string,
  id: string,
  user: string,
): string {
  const hex = (n: number): string => n.toString(16).toUpperCase().padStart(8, '0')
  return `UPID:${node}:${hex(pid)}:${hex(pstart)}:${hex(starttime)}:${type}:${id}:${user}:`
}

/** Query parameters /nodes/{n}/tasks accepts. */
export const TASK_PARAMS = [
  'start',
  'limit',
  'userfilter',
  'typefilter',
  'vmid',
  'errors',
  'source',
  'since',
  'until',
  'statusfilter',
] as const

/** Parsed filters of a task query. */
export interface TaskQuery {
  start: number
  limit: number
  typefilter?: string
  userfilter?: string
  vmid?: number
  errors: boolean
  source: 'archive' | 'active' | 'all'
  since?: number
  until?: number
  statusfilter?: string[]
}

/** Filters, sorts (newest first) and pages a node's tasks; `total` counts every match. */
export function renderTasks(
  cluster: SimClusterModel,
  node: number,
  q: TaskQuery,
): { data: object[]; total: number } {
  const all = [...(cluster.tasks.backup[node] ?? []), ...(cluster.tasks.other[node] ?? [])]
  const nodeName = cluster.nodes[node]?.name ?? ''
  const matched = all.filter((t) => matches(t, q))
  matched.sort((a, b) => b.starttime - a.starttime)
  const page = matched.slice(q.start, q.start + q.limit)
  return { data: page.map((t) => renderTask(t, nodeName)), total: matched.length }
}

function matches(t: SimTask, q: TaskQuery): boolean {
  const running = t.status === undefined
  if (q.source === 'archive' && running) return false
  if (q.source === 'active' && !running) return false
  if (q.typefilter !== undefined && t.type !== q.typefilter) return false
  if (q.userfilter !== undefined && !t.user.toLowerCase().includes(q.userfilter.toLowerCase()))
    return false
  if (q.vmid !== undefined && t.id !== String(q.vmid)) return false
  if (q.errors && (running || t.status === 'OK')) return false
  if (q.since !== undefined && t.starttime < q.since) return false
  if (q.until !== undefined && t.starttime > q.until) return false
  if (q.statusfilter !== undefined && !q.statusfilter.includes(statusClass(t))) return false
  return true
}

// PVE's statusfilter classes: ok, warning, error, unknown (running tasks count as unknown).
function statusClass(t: SimTask): string {
  if (t.status === undefined) return 'unknown'
  if (t.status === 'OK') return 'ok'
  if (t.status.startsWith('WARNINGS')) return 'warning'
  return 'error'
}

function renderTask(t: SimTask, node: string): object {
  const entry: Record<string, unknown> = {
    upid: t.upid,
    node,
    pid: t.pid,
    pstart: t.pstart,
    starttime: t.starttime,
    type: t.type,
    id: t.id,
    user: t.user,
  }
  if (t.endtime !== undefined) entry.endtime = t.endtime
  if (t.status !== undefined) entry.status = t.status
  return entry
}
