// Maps PVE backup jobs (GET /cluster/backup) and the guests in no job (GET /cluster/backup-info/
// not-backed-up) to BackupJob and BackupCoverage (reference/proxmox-api-backups-history.md §1.1,
// §1.3). Pure. Facts relied on: `vmid` and `exclude` are strings ("101,102"; a list type, so a
// bare number also occurs), `enabled` defaults to 1, `next-run` is set for disabled jobs too,
// legacy vzdump.cron jobs carry no `type`, and not-backed-up counts disabled jobs as coverage
// (the coverage builder decides "covered by an enabled job" from the jobs' exact selections).
import type { BackupCoverage, BackupJob } from '../../shared/model/backup-health.ts'
import type { GuestType } from '../../shared/model/state.ts'
import { isRecord, toOptionalNumber, toOptionalString } from './coerce.ts'

/** Parses a PVE vmid list ("101,102", "101 102", 101, ["101"]) to unique integers, in order. */
export function parseVmidList(value: unknown): number[] {
  const parts: unknown[] = Array.isArray(value)
    ? value
    : typeof value === 'number'
      ? [value]
      : typeof value === 'string'
        ? value.split(/[\s,;]+/)
        : []
  const out: number[] = []
  const seen = new Set<number>()
  for (const part of parts) {
    const n = toOptionalNumber(typeof part === 'string' ? part.trim() : part)
    if (n === undefined || !Number.isInteger(n) || n <= 0 || seen.has(n)) continue
    seen.add(n)
    out.push(n)
  }
  return out
}

// Perl booleans arrive as 0/1, "0"/"1" or true/false; absent means the default.
function readFlag(value: unknown, fallback: boolean): boolean {
  if (value === undefined || value === null || value === '') return fallback
  if (typeof value === 'boolean') return value
  const n = toOptionalNumber(value)
  return n === undefined ? fallback : n !== 0
}

/** Maps one job entry; undefined when it has no id or is not a vzdump job. */
export function toBackupJob(entry: unknown, instance: string): BackupJob | undefined {
  if (!isRecord(entry)) return undefined
  const jobId = toOptionalString(entry.id)
  // Legacy vzdump.cron entries have no `type`; jobs.cfg lists only vzdump jobs here anyway.
  if (!jobId || (entry.type !== undefined && entry.type !== 'vzdump')) return undefined
  const exclude = parseVmidList(entry.exclude)
  const pool = toOptionalString(entry.pool)
  const node = toOptionalString(entry.node)
  const comment = toOptionalString(entry.comment)
  const nextRun = toOptionalNumber(entry['next-run'])
  const job: BackupJob = {
    id: `${instance}-${jobId}`,
    instance,
    jobId,
    schedule: toOptionalString(entry.schedule) ?? '',
    storage: toOptionalString(entry.storage) ?? '',
    enabled: readFlag(entry.enabled, true),
    nextRun: nextRun !== undefined && Number.isFinite(nextRun) ? nextRun : 0,
    vmids: parseVmidList(entry.vmid),
    // `exclude` implies `all` (vzdump's own rule).
    all: readFlag(entry.all, false) || exclude.length > 0,
    exclude,
    mode: toOptionalString(entry.mode) ?? 'snapshot',
  }
  if (pool) job.pool = pool
  if (node) job.node = node
  if (comment) job.comment = comment
  return job
}

/** Maps a /cluster/backup answer, in its order (legacy jobs first, then jobs.cfg). */
export function toBackupJobs(raw: unknown, instance: string): BackupJob[] {
  const out: BackupJob[] = []
  for (const entry of Array.isArray(raw) ? raw : []) {
    const job = toBackupJob(entry, instance)
    if (job) out.push(job)
  }
  return out
}

/** Maps a not-backed-up answer to the instance's one coverage record, guests by vmid. */
export function toBackupCoverage(
  raw: unknown,
  instance: string,
  collectedAt: number,
): BackupCoverage {
  const notBackedUp: BackupCoverage['notBackedUp'] = []
  for (const entry of Array.isArray(raw) ? raw : []) {
    if (!isRecord(entry)) continue
    const vmid = toOptionalNumber(entry.vmid)
    if (vmid === undefined || !Number.isInteger(vmid)) continue
    const type: GuestType = entry.type === 'lxc' ? 'lxc' : 'qemu'
    const name = toOptionalString(entry.name)
    notBackedUp.push(name ? { vmid, type, name } : { vmid, type })
  }
  notBackedUp.sort((a, b) => a.vmid - b.vmid)
  return { id: instance, instance, notBackedUp, collectedAt }
}

/** Equality of two coverage lists (the read time aside): an unchanged list keeps its record. */
export function sameCoverage(a: BackupCoverage | undefined, b: BackupCoverage): boolean {
  if (!a || a.notBackedUp.length !== b.notBackedUp.length) return false
  return a.notBackedUp.every((g, i) => {
    const o = b.notBackedUp[i]!
    return g.vmid === o.vmid && g.type === o.type && g.name === o.name
  })
}
