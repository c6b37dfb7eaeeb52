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

/**
 * The guest's result in a task: its own entry in the task log when there is one (a guest that
 * succeeded inside a job that failed for others is 'ok'; a failed one carries its own error),
 * else the task's status.
 */
export function lastJobOf(task: BackupTask, vmid: number): LastJob {
  const entry = task.guests?.find((guest) => guest.vmid === vmid)
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
