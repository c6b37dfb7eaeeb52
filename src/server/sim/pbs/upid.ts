// PBS task ids (UPIDs) and the tasks the simulated schedule implies. A PBS UPID has an extra
// task-id field compared with PVE: UPID:<node>:<pid>:<pstart>:<taskid>:<starttime>:<type>:<id>:<authid>:

import { hashUnit } from './schedule.ts'

/** What a task needs to become a UPID. */
export interface TaskIdentity {
  node: string
  /** Salt for the pid, pstart and task counter, so one task always gets the same UPID. */
  salt: number
  starttime: number
  workerType: string
  workerId: string
  user: string
}

/** The numeric fields a UPID encodes, as the tasks list reports them. */
export interface UpidFields {
  upid: string
  pid: number
  pstart: number
}

/** systemd-style escaping PBS applies to worker ids: '/' -> '-', ':' -> \x3a, '-' -> \x2d. */
export function escapeWorkerId(id: string): string {
  let out = ''
  for (let i = 0; i < id.length; i++) {
    const c = id[i] ?? ''
    if (c === '/') out += '-'
    else if (/[A-Za-z0-9_]/.test(c) || (c === '.' && i > 0)) out += c
    else out += `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`
  }
  return out
}

/** Builds the UPID of a task (and the pid/pstart the tasks list repeats). */
export function createUpid(task: TaskIdentity): UpidFields {
  const pid = 1000 + Math.floor(hashUnit(task.salt, task.starttime, 1) * 60_000)
  const pstart = 100_000 + Math.floor(hashUnit(task.salt, task.starttime, 2) * 9_000_000)
  const taskId = Math.floor(hashUnit(task.salt, task.starttime, 3) * 4096)
  const hex = (n: number): string => n.toString(16).toUpperCase().padStart(8, '0')
  const upid =
    `UPID:${task.node}:${hex(pid)}:${hex(pstart)}:${hex(taskId)}:${hex(task.starttime)}:` +
    `${task.workerType}:${escapeWorkerId(task.workerId)}:${task.user}:`
  return { upid, pid, pstart }
}
