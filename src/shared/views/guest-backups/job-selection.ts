// Which PVE backup jobs select a guest, and the guest's coverage state. Pure.
// Selection as vzdump's get_included_guests (reference/proxmox-api-backups-history.md §1.2):
// `pool` first, then the `vmid` list, then `all` minus `exclude`; a job with none of them selects
// nothing; `node` drops guests that live on other nodes.
import type { BackupCoverage, BackupJob, CoverageState } from '../../model/backup-health.ts'
import type { Guest } from '../../model/state.ts'

/** The guest fields a job selection reads. */
export type SelectableGuest = Pick<Guest, 'vmid' | 'node' | 'pool'>

/** A job's selection as a predicate; builds its vmid sets once (jobs may list thousands). */
export function createJobSelector(job: BackupJob): (guest: SelectableGuest) => boolean {
  const node = job.node || undefined
  const onNode = (guest: SelectableGuest) => node === undefined || guest.node === node
  if (job.pool) {
    const pool = job.pool
    return (guest) => guest.pool === pool && onNode(guest)
  }
  if (job.vmids.length > 0) {
    const vmids = new Set(job.vmids)
    return (guest) => vmids.has(guest.vmid) && onNode(guest)
  }
  if (job.all) {
    const exclude = new Set(job.exclude)
    return (guest) => !exclude.has(guest.vmid) && onNode(guest)
  }
  return () => false
}

/** Whether a backup job selects a guest (one-off form of createJobSelector). */
export function backupJobSelects(job: BackupJob, guest: SelectableGuest): boolean {
  return createJobSelector(job)(guest)
}

/** The jobs of each instance, prepared for coverage lookups. */
export interface JobIndex {
  /** Instances whose jobs have been read (a BackupCoverage record exists). */
  read: Set<string>
  /** instance → its jobs' selectors and enabled flags. */
  byInstance: Map<string, { enabled: boolean; selects: (guest: SelectableGuest) => boolean }[]>
}

/** Index jobs by instance; `coverage` says which instances' jobs were read at all. */
export function indexJobs(
  jobs: readonly BackupJob[],
  coverage: readonly BackupCoverage[],
): JobIndex {
  const read = new Set<string>()
  for (const record of coverage) read.add(record.instance)
  const byInstance: JobIndex['byInstance'] = new Map()
  for (const job of jobs) {
    let list = byInstance.get(job.instance)
    if (!list) byInstance.set(job.instance, (list = []))
    list.push({ enabled: job.enabled, selects: createJobSelector(job) })
  }
  return { read, byInstance }
}

/**
 * enabled: an enabled job selects the guest; disabled: only disabled ones do; none: no job does;
 * unknown: its instance's jobs have not been read (no BackupCoverage record for it).
 */
export function coverageOf(
  index: JobIndex,
  guest: SelectableGuest & Pick<Guest, 'instance'>,
): CoverageState {
  if (!index.read.has(guest.instance)) return 'unknown'
  let state: CoverageState = 'none'
  for (const job of index.byInstance.get(guest.instance) ?? []) {
    if (!job.selects(guest)) continue
    if (job.enabled) return 'enabled'
    state = 'disabled'
  }
  return state
}
