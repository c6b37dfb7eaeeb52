// Reads vzdump task logs (GET /nodes/{n}/tasks/{upid}/log: [{n, t}], n 1-based) and links a task
// to the backup job it ran for (reference/proxmox-api-backups-history.md §1.1, §2.3-2.4). Pure.
// The API names no job for a task: the only link is the logged command line
// (`INFO: starting new backup job: vzdump …`, pve-guest-common command_line, which leaves
// `job-id` out), so linking is a heuristic: see linkTaskToJob.
import type { BackupJob, BackupTaskGuest, JobRun } from '../../shared/model/backup-health.ts'
import { taskRunState } from '../../shared/model/backup-health.ts'
import type { BackupTask } from '../../shared/model/state.ts'
import { isRecord } from './coerce.ts'
import { parseVmidList } from './pve-backup-jobs.ts'

/** Lines of a failed task's log kept as its tail. */
export const LOG_TAIL_LINES = 20
/** A failed task's ERROR lines kept besides its tail (a guest's error is rarely near the end). */
export const LOG_ERROR_LINES = 10
/** Characters kept of one tail line. */
export const LOG_LINE_MAX = 300
/** Guests kept per task (a node runs far fewer in one job). */
export const TASK_GUESTS_MAX = 10_000

/** What a vzdump command line selects and where it writes. */
export interface VzdumpCommand {
  vmids: number[]
  all: boolean
  exclude: number[]
  pool?: string
  node?: string
  storage?: string
  mode?: string
}

/** What one task's log told: its command, per-guest results, and (failed tasks) the last lines. */
export interface TaskLogSummary {
  command?: VzdumpCommand
  guests: BackupTaskGuest[]
  logTail?: string[]
}

const COMMAND_PREFIX = 'INFO: starting new backup job: vzdump'
const STARTING = /^INFO: Starting Backup of VM (\d+)\b/
const FINISHED = /^INFO: Finished Backup of VM (\d+)\b/
const FAILED = /^ERROR: Backup of VM (\d+) failed - (.*)$/

// Splits a shell-quoted command (PVE's shellquote: single quotes, '\'' inside) into words.
function shellWords(text: string): string[] {
  const words: string[] = []
  let word = ''
  let has = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (c === "'") {
      const end = text.indexOf("'", i + 1)
      word += end < 0 ? text.slice(i + 1) : text.slice(i + 1, end)
      has = true
      i = end < 0 ? text.length : end
    } else if (c === '"') {
      const end = text.indexOf('"', i + 1)
      word += end < 0 ? text.slice(i + 1) : text.slice(i + 1, end)
      has = true
      i = end < 0 ? text.length : end
    } else if (c === '\\' && i + 1 < text.length) {
      word += text[++i]
      has = true
    } else if (c === ' ' || c === '\t') {
      if (has) words.push(word)
      word = ''
      has = false
    } else {
      word += c
      has = true
    }
  }
  if (has) words.push(word)
  return words
}

const FLAG_TRUE = new Set(['1', 'true', 'yes', 'on'])

/** Parses the logged `vzdump …` command (with or without the INFO prefix); undefined otherwise. */
export function parseVzdumpCommand(line: string): VzdumpCommand | undefined {
  let rest: string
  if (line.startsWith(COMMAND_PREFIX)) rest = line.slice(COMMAND_PREFIX.length)
  else if (line.startsWith('vzdump ')) rest = line.slice('vzdump'.length)
  else return undefined
  const words = shellWords(rest)
  const cmd: VzdumpCommand = { vmids: [], all: false, exclude: [] }
  const options = new Map<string, string>()
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!
    if (!word.startsWith('-')) {
      for (const vmid of parseVmidList(word)) cmd.vmids.push(vmid)
      continue
    }
    const eq = word.indexOf('=')
    const key = (eq < 0 ? word : word.slice(0, eq)).replace(/^-+/, '')
    if (eq >= 0) options.set(key, word.slice(eq + 1))
    else {
      const next = words[i + 1]
      // `--all` alone is a flag; PVE logs `--all 1`.
      if (next === undefined || next.startsWith('--')) options.set(key, '1')
      else options.set(key, words[++i]!)
    }
  }
  cmd.all = FLAG_TRUE.has((options.get('all') ?? '0').toLowerCase())
  cmd.exclude = parseVmidList(options.get('exclude'))
  if (cmd.exclude.length > 0) cmd.all = true
  const pool = options.get('pool')
  const node = options.get('node')
  const storage = options.get('storage')
  const mode = options.get('mode')
  if (pool) cmd.pool = pool
  if (node) cmd.node = node
  if (storage) cmd.storage = storage
  if (mode) cmd.mode = mode
  // Keyed now, while one log is read, not when thousands of tasks are linked at once.
  excludeKey(cmd)
  return cmd
}

/**
 * Folds a task log page by page, keeping only what the summary needs (the command, per-guest
 * results, a ring of the last lines): a 20,000-line log never sits in memory whole.
 */
export class TaskLogReader {
  private command: VzdumpCommand | undefined
  private readonly guests = new Map<number, BackupTaskGuest>()
  private readonly tail: string[] = []
  /** The first ERROR lines, with their line numbers (to know whether the tail holds them). */
  private readonly errors: { n: number; t: string }[] = []
  /** Lines read so far (the next `start`). */
  lines = 0
  /** Lines folded so far (1-based number of the last one). */
  private seen = 0

  /** Feeds one page of `[{n, t}]`; returns how many entries it held. */
  feed(page: unknown): number {
    const entries = Array.isArray(page) ? page : []
    for (const entry of entries) {
      const t = isRecord(entry) && typeof entry.t === 'string' ? entry.t : ''
      this.line(t)
    }
    this.lines += entries.length
    return entries.length
  }

  private line(t: string): void {
    const shown = t.length > LOG_LINE_MAX ? `${t.slice(0, LOG_LINE_MAX - 1)}…` : t
    this.tail.push(shown)
    if (this.tail.length > LOG_TAIL_LINES) this.tail.shift()
    this.seen++
    if (this.errors.length < LOG_ERROR_LINES && t.startsWith('ERROR:')) {
      this.errors.push({ n: this.seen, t: shown })
    }
    if (this.command === undefined && t.startsWith(COMMAND_PREFIX)) {
      this.command = parseVzdumpCommand(t)
      return
    }
    const c = t.charCodeAt(0)
    // Only INFO and ERROR lines can carry a result; skip the rest cheaply.
    if (c !== 73 /* I */ && c !== 69 /* E */) return
    let m = FINISHED.exec(t)
    if (m) return this.result(Number(m[1]), { vmid: Number(m[1]), ok: true })
    m = FAILED.exec(t)
    if (m) return this.result(Number(m[1]), { vmid: Number(m[1]), ok: false, error: m[2]! })
    m = STARTING.exec(t)
    // A guest that started and never finished (task aborted) counts as failed until a result.
    if (m && !this.guests.has(Number(m[1])))
      this.result(Number(m[1]), { vmid: Number(m[1]), ok: false })
  }

  private result(vmid: number, guest: BackupTaskGuest): void {
    if (this.guests.size >= TASK_GUESTS_MAX && !this.guests.has(vmid)) return
    this.guests.set(vmid, guest)
  }

  /** The summary; `failed` keeps the log tail (PVE's "no content" for an empty log is dropped). */
  summary(failed: boolean): TaskLogSummary {
    const out: TaskLogSummary = { guests: [...this.guests.values()] }
    if (this.command) out.command = this.command
    const tail = this.tail.filter((t) => t !== 'no content' || this.lines > 1)
    // The ERROR lines that scrolled out of the tail go first, then a gap marker: the tail of a
    // multi-guest run ends with other guests' INFO lines, not with the guest that failed.
    const firstInTail = this.seen - this.tail.length + 1
    const earlier = this.errors.filter((e) => e.n < firstInTail).map((e) => e.t)
    if (earlier.length > 0) tail.unshift(...earlier, '…')
    if (failed && tail.length > 0) out.logTail = tail
    return out
  }
}

// Exclusion lists as short keys (count and a hash of the sorted list), computed once per job and
// command: an `all` job of a large estate can exclude thousands of guests, and every task is
// compared with every job whenever the jobs change.
const excludeKeys = new WeakMap<object, string>()
function excludeKey(owner: BackupJob | VzdumpCommand): string {
  let key = excludeKeys.get(owner)
  if (key === undefined) {
    const sorted = [...owner.exclude].sort((a, b) => a - b)
    let hash = 0x811c9dc5
    for (const vmid of sorted) hash = Math.imul(hash ^ vmid, 0x01000193) >>> 0
    key = `${sorted.length}:${hash.toString(16)}`
    excludeKeys.set(owner, key)
  }
  return key
}
const vmidSets = new WeakMap<BackupJob, Set<number>>()
function vmidSet(job: BackupJob): Set<number> {
  let set = vmidSets.get(job)
  if (set === undefined) {
    set = new Set(job.vmids)
    vmidSets.set(job, set)
  }
  return set
}

/**
 * Whether `job` could have started a task on `node` that logged `cmd`. Decided (PVE's API names
 * no job): same storage; the same selection by Proxmox's precedence (pool, else a vmid list the
 * logged one is a subset of, since a "Run now" passes each node its own guests, else `all` with
 * the same exclusions); a node-restricted job only on its node; the mode when both name it.
 */
export function jobMatchesCommand(job: BackupJob, cmd: VzdumpCommand, node: string): boolean {
  if ((cmd.storage ?? '') !== job.storage) return false
  if (job.node !== undefined && (node !== job.node || (cmd.node ?? job.node) !== job.node))
    return false
  if (cmd.mode !== undefined && job.mode !== '' && cmd.mode !== job.mode) return false
  if (job.pool !== undefined) return cmd.pool === job.pool
  if (cmd.pool !== undefined) return false
  if (job.vmids.length > 0) {
    if (cmd.all || cmd.vmids.length === 0) return false
    const allowed = vmidSet(job)
    return cmd.vmids.every((v) => allowed.has(v))
  }
  if (!job.all) return false
  return cmd.all && cmd.vmids.length === 0 && excludeKey(cmd) === excludeKey(job)
}

/** The job a task ran for: the first match, enabled jobs before disabled ones; else undefined. */
export function linkTaskToJob(
  jobs: readonly BackupJob[],
  cmd: VzdumpCommand | undefined,
  node: string,
): BackupJob | undefined {
  if (!cmd) return undefined
  let disabled: BackupJob | undefined
  for (const job of jobs) {
    if (!jobMatchesCommand(job, cmd, node)) continue
    if (job.enabled) return job
    disabled ??= job
  }
  return disabled
}

/** Tasks of one run of a job start within this many seconds of each other (one per node). */
export const RUN_GROUP_S = 1800

/**
 * A job's last run from its linked tasks: the newest task, unless another task of the same run
 * (started within RUN_GROUP_S of it, on another node) failed; then that failure is the run's result.
 */
export function lastRunOf(tasks: readonly BackupTask[]): JobRun | undefined {
  let newest: BackupTask | undefined
  for (const t of tasks) if (!newest || t.startTime > newest.startTime) newest = t
  if (!newest) return undefined
  let pick = newest
  for (const t of tasks) {
    if (newest.startTime - t.startTime > RUN_GROUP_S) continue
    if (taskRunState(t.status) === 'failed' && taskRunState(pick.status) !== 'failed') pick = t
  }
  const upid = pick.id.slice(pick.instance.length + 1)
  return {
    upid,
    state: taskRunState(pick.status),
    status: pick.status,
    startTime: pick.startTime,
    endTime: pick.endTime,
    duration: pick.endTime > 0 ? Math.max(0, pick.endTime - pick.startTime) : 0,
    node: pick.node,
  }
}
