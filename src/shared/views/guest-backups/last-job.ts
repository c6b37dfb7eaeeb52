// A guest's newest vzdump result (GuestBackup.lastJob) from the collected backup tasks. Pure.
import { taskRunState, type GuestBackup } from '../../model/backup-health.ts'
import type { BackupTask } from '../../model/state.ts'

export type LastJob = NonNullable<GuestBackup['lastJob']>

/** instance → vmid → the newest task that ran for that guest. */
export type TaskIndex = Map<string, Map<number, BackupTask>>

/** Later start wins; then the later end; then the greater id (never depends on list order). */
function isNewerTask(task: BackupTask, than: BackupTask): boolean {
  if (task.startTime !== than.startTime) return task.startTime > than.startTime
  if (task.endTime !== than.endTime) return task.endTime > than.endTime
  return task.id > than.id
}

/**
 * Index the tasks by the guests they ran for: a single-guest task names its vmid; a job's task
 * (vmid 0) names its guests in `guests` (read from its log). A task that names no guest counts
 * for none: nothing is guessed from the job's selection.
 */
export function indexTasks(tasks: readonly BackupTask[]): TaskIndex {
  const index: TaskIndex = new Map()
  const add = (task: BackupTask, vmid: number) => {
    let byVmid = index.get(task.instance)
    if (!byVmid) index.set(task.instance, (byVmid = new Map()))
    const known = byVmid.get(vmid)
    if (!known || isNewerTask(task, known)) byVmid.set(vmid, task)
  }
  for (const task of tasks) {
    if (task.vmid) add(task, task.vmid)
    for (const guest of task.guests ?? []) if (guest.vmid !== task.vmid) add(task, guest.vmid)
  }
  return index
}

type TaskGuest = NonNullable<BackupTask['guests']>[number]

/** A task's entries by vmid, built on the first look (a task's list is never changed in place). */
const guestsByVmid = new WeakMap<readonly TaskGuest[], Map<number, TaskGuest>>()
/** Below this many entries a scan is as cheap as the map. */
const SCAN_MAX = 16

/**
 * The task log's entry for `vmid`. A node's job task names up to thousands of guests, and every
 * one of them asks for its own entry: one scan each made the summaries quadratic in the guests
 * per node (1,000 per node in the 100k demo).
 */
function guestEntry(task: BackupTask, vmid: number): TaskGuest | undefined {
  const guests = task.guests
  if (!guests) return undefined
  if (guests.length <= SCAN_MAX) return guests.find((guest) => guest.vmid === vmid)
  let byVmid = guestsByVmid.get(guests)
  if (!byVmid) {
    byVmid = new Map()
    // The first entry of a vmid wins, as find() would have it.
    for (const guest of guests) if (!byVmid.has(guest.vmid)) byVmid.set(guest.vmid, guest)
    guestsByVmid.set(guests, byVmid)
  }
  return byVmid.get(vmid)
}

/**
 * The guest's result in a task: its own entry in the task log when there is one (a guest that
 * succeeded inside a job that failed for others is 'ok'; a failed one carries its own error),
 * else the task's status.
 */
export function lastJobOf(task: BackupTask, vmid: number): LastJob {
  const entry = guestEntry(task, vmid)
  const taskState = taskRunState(task.status)
  const state = entry
    ? entry.ok
      ? taskState === 'failed'
        ? 'ok'
        : taskState
      : 'failed'
    : taskState
  const error = state === 'failed' ? (entry?.error ?? task.error) : undefined
  const job: LastJob = { state, time: task.endTime || task.startTime, taskId: task.id }
  if (task.jobId !== undefined) job.jobId = task.jobId
  if (error !== undefined) job.error = error
  return job
}

/** Whether two last jobs read the same. */
export function sameLastJob(a: LastJob, b: LastJob): boolean {
  return (
    a.state === b.state &&
    a.time === b.time &&
    a.taskId === b.taskId &&
    a.jobId === b.jobId &&
    a.error === b.error
  )
}
