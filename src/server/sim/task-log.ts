// GET /nodes/{n}/tasks/{upid}/log: the log of a task, generated on request from the task (nothing
// per guest is kept but the vmids a vzdump task ran), in the lines vzdump writes
// (reference/proxmox-api-backups-history.md §2.3-2.4; pve-guest-common VZDump/Plugin.pm): the
// logged command, per guest `Starting Backup of VM`, then `Finished Backup of VM` or
// `ERROR: Backup of VM n failed - …`, and the final `TASK OK` / `TASK WARNINGS: n` / `TASK ERROR: …`.

import type { SimClusterModel } from './model.ts'
import type { SimTask } from './tasks.ts'
import { MANUAL_ERRORS } from './backups.ts'
import { guestOutcome } from './backup-runs.ts'
import { hash01 } from './prng.ts'

const WARNINGS = [
  'WARN: no efidisk configured! Using temporary efivars disk.',
  "WARN: unable to read guest agent 'fsfreeze-status' - guest agent not running",
] as const

// The date part of the last stamp: a log's thousands of stamps fall on one or two days, and a
// Date formatted per line was the largest cost of serving a log at 100k guests.
let stampDay = Number.NaN
let stampDate = ''

/** `YYYY-MM-DD HH:MM:SS` (UTC) of an epoch second. */
export function stamp(sec: number): string {
  const whole = Math.floor(sec)
  const day = Math.floor(whole / 86_400)
  if (day !== stampDay) {
    stampDay = day
    stampDate = new Date(day * 86_400_000).toISOString().slice(0, 10)
  }
  return `${stampDate} ${clock(whole - day * 86_400)}`
}

const pad = (n: number) => (n < 10 ? `0${n}` : String(n))

function clock(seconds: number): string {
  const s = Math.max(0, Math.round(seconds))
  return `${pad(Math.floor(s / 3600))}:${pad(Math.floor(s / 60) % 60)}:${pad(s % 60)}`
}

// The command vzdump logs (command_line: vmids first, then the options, shell-quoted).
function commandLine(cluster: SimClusterModel, task: SimTask, node: string): string {
  const run = task.run!
  const job = cluster.backups.plan.jobs.find((j) => j.id === run.job)
  const parts = ['vzdump']
  if (job === undefined) {
    parts.push(...Array.from(run.vmids, String), '--node', node, '--storage', run.storage)
    parts.push('--mode', 'snapshot', '--compress', 'zstd', '--remove', '0')
    parts.push('--notes-template', "'{{guestname}}'", '--notification-mode', 'auto')
    return parts.join(' ')
  }
  if (job.vmids.length > 0) parts.push(...job.vmids.map(String))
  if (job.all) parts.push('--all', '1')
  if (job.exclude.length > 0) parts.push('--exclude', job.exclude.join(','))
  if (job.node !== undefined) parts.push('--node', job.node)
  parts.push('--storage', job.storage, '--mode', job.mode, '--compress', 'zstd', '--quiet', '1')
  parts.push('--notes-template', "'{{guestname}}'")
  parts.push('--prune-backups', `'keep-last=${cluster.backups.keep}'`)
  return parts.join(' ')
}

/** The whole log of a task as PVE stores it, one string per line. */
/**
 * Logs of finished tasks kept rendered: a reader pages through one in several requests, and the
 * collector reads up to 48 at once (about 400 KB each for a node of 1,000 guests).
 */
export const FINISHED_LOGS_KEPT = 64
const finishedLogs = new Map<SimTask, string[]>()

/**
 * The task's log. A finished task's log is a file that no longer changes: the last few rendered
 * are kept, so paging through one renders it once, not once per page.
 */
export function renderTaskLog(cluster: SimClusterModel, node: string, task: SimTask): string[] {
  if (task.endtime === undefined) return renderLines(cluster, node, task)
  const kept = finishedLogs.get(task)
  if (kept !== undefined) {
    finishedLogs.delete(task)
    finishedLogs.set(task, kept)
    return kept
  }
  const lines = renderLines(cluster, node, task)
  finishedLogs.set(task, lines)
  if (finishedLogs.size > FINISHED_LOGS_KEPT) finishedLogs.delete(finishedLogs.keys().next().value!)
  return lines
}

function renderLines(cluster: SimClusterModel, node: string, task: SimTask): string[] {
  if (task.run === undefined) return task.status === undefined ? [] : [`TASK ${finalWord(task)}`]
  const lines = [`INFO: starting new backup job: ${commandLine(cluster, task, node)}`]
  const { vmids } = task.run
  const ended = task.endtime !== undefined
  const span =
    ((task.endtime ?? task.starttime + 60) - task.starttime - 5) / Math.max(1, vmids.length)
  const single = task.id !== ''
  if (!ended) {
    const first = vmids[0]
    if (first !== undefined) {
      lines.push(
        `INFO: Starting Backup of VM ${first} (${cluster.byVmid.get(first)?.type ?? 'qemu'})`,
      )
      lines.push(`INFO: Backup started at ${stamp(task.starttime + 3)}`)
    }
    return lines
  }
  let failed = 0
  for (let i = 0; i < vmids.length; i++) {
    const vmid = vmids[i]!
    const guest = cluster.byVmid.get(vmid)
    const kind = guest?.type ?? 'qemu'
    const start = task.starttime + 3 + Math.floor(i * span)
    lines.push(`INFO: Starting Backup of VM ${vmid} (${kind})`)
    lines.push(`INFO: Backup started at ${stamp(start)}`)
    lines.push('INFO: status = running')
    if (guest !== undefined)
      lines.push(`INFO: ${kind === 'qemu' ? 'VM' : 'CT'} Name: ${guest.name}`)
    lines.push(`INFO: backup mode: snapshot`, 'INFO: ionice priority: 7')
    const outcome = guestOutcome(cluster, vmid, task.starttime)
    if (outcome === 'warning') lines.push(WARNINGS[Math.floor(hash01(vmid, start) * 2)]!)
    if (outcome === 'error') {
      failed++
      const error = single && task.status !== undefined ? task.status : guestError(cluster, vmid)
      lines.push(`ERROR: Backup of VM ${vmid} failed - ${error}`)
      lines.push(`INFO: Failed at ${stamp(start + span * 0.9)}`)
    } else {
      lines.push(`INFO: Finished Backup of VM ${vmid} (${clock(span * 0.9)})`)
      lines.push(`INFO: Backup finished at ${stamp(start + span * 0.9)}`)
    }
  }
  lines.push(`INFO: Backup job finished ${failed > 0 ? 'with errors' : 'successfully'}`)
  lines.push(`TASK ${finalWord(task)}`)
  return lines
}

function finalWord(task: SimTask): string {
  const status = task.status ?? 'OK'
  if (status === 'OK') return 'OK'
  if (status.startsWith('WARNINGS')) return status
  return `ERROR: ${status}`
}

/** PVE's paging: `start` lines skipped, `limit` lines (0 = to the end), n 1-based; "no content". */
export function pageTaskLog(
  lines: readonly string[],
  start: number,
  limit: number,
): { data: { n: number; t: string }[]; total: number } {
  if (lines.length === 0) return { data: [{ n: 1, t: 'no content' }], total: 1 }
  const from = Math.max(0, start)
  const to = limit === 0 ? lines.length : Math.min(lines.length, from + Math.max(0, limit))
  const data: { n: number; t: string }[] = []
  for (let i = from; i < to; i++) data.push({ n: i + 1, t: lines[i]! })
  return { data, total: lines.length }
}

/** The error a failed guest logs: a chronic failure's own, else one of the usual ones. */
function guestError(cluster: SimClusterModel, vmid: number): string {
  const chronic = cluster.backups.plan.failing.find((f) => f.vmid === vmid)
  if (chronic !== undefined) return chronic.error
  const text = MANUAL_ERRORS[vmid % MANUAL_ERRORS.length] ?? MANUAL_ERRORS[0]
  return text.replace('{vmid}', String(vmid))
}
