// One backup summary per guest, plus one per orphaned backup group (GuestBackup, the
// `guestBackups` collection): what the alert engine and the Backups tab's coverage view read.
// Pure, written as steps so the server runs it in event-loop slices. Rules:
// - newest: the newest PVE storage backup (qemu/lxc, by ctime) or PBS vm/ct backup (backupTime)
//   of the guest; snapshots never count. A storage backup duplicating a PBS backup (same vmid and
//   time: a PBS storage's listing) counts once, as the PBS backup.
// - attribution as the Backups tab: storage backups by (instance, vmid); PBS backups by
//   resolvePbsGuest (type and vmid, the twin's instance when known, the comment, else the first).
// - orphans: storage backups whose (instance, vmid) has no guest, under that instance; PBS backups
//   whose (type, vmid) no guest of any instance has, under the PBS id; a PBS backup whose twin's
//   instance has no guest of that vmid joins that instance's orphan group. Host backups never.
// - coverage: job-selection.ts; lastJob: last-job.ts; verifyFailed: PBS verification 'failed'.
import type { BackupCoverage, BackupJob, GuestBackup } from '../../model/backup-health.ts'
import { runSteps } from '../../model/delta-steps.ts'
import type { BackupTask, Guest, PbsBackup, StorageBackup } from '../../model/state.ts'
import { resolvePbsGuest } from '../backups-guests.ts'
import {
  indexBackupSteps,
  isNewer,
  STEP_ITEMS,
  type BackupAggregate,
  type BackupIndex,
} from './backup-index.ts'
import { coverageOf, indexJobs, type JobIndex } from './job-selection.ts'
import { indexTasks, lastJobOf, type TaskIndex } from './last-job.ts'

/** The state collections a summary reads. */
export interface GuestBackupInputs {
  vms: readonly Guest[]
  containers: readonly Guest[]
  storageBackups: readonly StorageBackup[]
  pbsBackups: readonly PbsBackup[]
  backupTasks: readonly BackupTask[]
  backupJobs: readonly BackupJob[]
  backupCoverage: readonly BackupCoverage[]
}

/** Summarise from scratch, at once (tests, small estates). */
export function summariseGuestBackups(inputs: GuestBackupInputs): GuestBackup[] {
  const backups = runSteps(indexBackupSteps(inputs.storageBackups, inputs.pbsBackups))
  const guests = [...inputs.vms, ...inputs.containers]
  const jobs = indexJobs(inputs.backupJobs, inputs.backupCoverage)
  return runSteps(summariseSteps(guests, backups, jobs, indexTasks(inputs.backupTasks)))
}

interface Orphan extends BackupAggregate {
  id: string
  instance: string
  vmid: number
  type: Guest['type']
}

const NO_BACKUPS: BackupAggregate = {
  newest: 0,
  source: 'pve',
  location: '',
  size: 0,
  count: 0,
  verifyFailed: 0,
}

/**
 * The summaries: guests in order, then orphan groups by id. An unchanged summary is the object
 * from `previous` (by id), so a state diff sends only the changed ones.
 */
export function* summariseSteps(
  guests: readonly Guest[],
  backups: BackupIndex,
  jobs: JobIndex,
  tasks: TaskIndex,
  previous?: ReadonlyMap<string, GuestBackup>,
): Generator<void, GuestBackup[], void> {
  // Guests by (instance, vmid) (first wins), by type and vmid (named ones, for PBS attribution
  // as indexGuestNames does), and which (type, vmid) any guest has.
  const byInstance = new Map<string, number>()
  const named = new Map<string, Guest[]>()
  const anyTyped = new Set<string>()
  for (let i = 0; i < guests.length; i++) {
    const guest = guests[i]!
    if (i % STEP_ITEMS === 0) yield
    const key = `${guest.instance}\u0000${guest.vmid}`
    if (!byInstance.has(key)) byInstance.set(key, i)
    const typed = `${guest.type === 'lxc' ? 'ct' : 'vm'}/${guest.vmid}`
    anyTyped.add(typed)
    if (!guest.name) continue
    const list = named.get(typed)
    if (list) list.push(guest)
    else named.set(typed, [guest])
  }
  const sums = new Map<number, BackupAggregate>()
  const orphans = new Map<string, Orphan>()
  const addTo = (at: number, group: BackupAggregate) => {
    const sum = sums.get(at)
    if (sum) merge(sum, group)
    else sums.set(at, { ...group })
  }
  const addOrphan = (
    instance: string,
    type: Guest['type'],
    vmid: number,
    group: BackupAggregate,
  ) => {
    const id = `orphan-${instance}-${type === 'lxc' ? 'ct' : 'vm'}-${vmid}`
    const known = orphans.get(id)
    if (known) merge(known, group)
    else orphans.set(id, { ...group, id, instance, vmid, type })
  }
  for (let i = 0; i < backups.pve.length; i++) {
    const group = backups.pve[i]!
    if (i % STEP_ITEMS === 0) yield
    const at = byInstance.get(`${group.instance}\u0000${group.vmid}`)
    if (at !== undefined) addTo(at, group)
    else addOrphan(group.instance, group.type, group.vmid, group)
  }
  for (let i = 0; i < backups.pbs.length; i++) {
    const group = backups.pbs[i]!
    if (i % STEP_ITEMS === 0) yield
    const typed = `${group.backupType}/${group.vmid}`
    const guest = resolvePbsGuest(named.get(typed), group, group.twin)
    const type = group.backupType === 'ct' ? 'lxc' : 'qemu'
    const vmid = Number(group.vmid)
    if (guest) addTo(byInstance.get(`${guest.instance}\u0000${guest.vmid}`)!, group)
    else if (group.twin) {
      // Listed on that instance, whose guests have no such vmid: that instance's orphan.
      if (!byInstance.has(`${group.twin}\u0000${group.vmid}`))
        addOrphan(group.twin, type, vmid, group)
    } else if (!anyTyped.has(typed)) addOrphan(`pbs-${group.pbs}`, type, vmid, group)
  }
  const out: GuestBackup[] = []
  const keep = (next: GuestBackup) => {
    const old = previous?.get(next.id)
    out.push(old && sameGuestBackup(old, next) ? old : next)
  }
  for (let i = 0; i < guests.length; i++) {
    const guest = guests[i]!
    if (i % STEP_ITEMS === 0) yield
    const task = tasks.get(guest.instance)?.get(guest.vmid)
    const summary = toSummary(sums.get(i) ?? NO_BACKUPS, {
      id: guest.id,
      instance: guest.instance,
      node: guest.node,
      vmid: guest.vmid,
      type: guest.type,
      name: guest.name,
      template: guest.template === true,
      orphaned: false,
      coverage: coverageOf(jobs, guest),
    })
    if (task) summary.lastJob = lastJobOf(task, guest.vmid)
    keep(summary)
  }
  const orphanIds = [...orphans.keys()].sort()
  for (let i = 0; i < orphanIds.length; i++) {
    const orphan = orphans.get(orphanIds[i]!)!
    if (i % STEP_ITEMS === 0) yield
    const { id, instance, vmid, type } = orphan
    // No guest, so no job can be said to cover it and no node to show.
    const base = { id, instance, node: '', vmid, type, name: '', template: false, orphaned: true }
    keep(toSummary(orphan, { ...base, coverage: 'unknown' }))
  }
  return out
}

function merge(into: BackupAggregate, group: BackupAggregate): void {
  if (group.count === 0) return
  if (into.count === 0 || isNewer(group.newest, group.location, group.size, into)) {
    into.newest = group.newest
    into.source = group.source
    into.location = group.location
    into.size = group.size
  }
  into.count += group.count
  into.verifyFailed += group.verifyFailed
}

type Identity = Pick<
  GuestBackup,
  'id' | 'instance' | 'node' | 'vmid' | 'type' | 'name' | 'template' | 'orphaned' | 'coverage'
>

function toSummary(sum: BackupAggregate, identity: Identity): GuestBackup {
  const summary: GuestBackup = {
    ...identity,
    newest: sum.count > 0 ? sum.newest : 0,
    count: sum.count,
    verifyFailed: sum.verifyFailed,
  }
  if (sum.count > 0) {
    summary.newestSource = sum.source
    summary.newestLocation = sum.location
    summary.newestSize = sum.size
  }
  return summary
}

/** Field-by-field equality of two summaries (lastJob included). */
export function sameGuestBackup(a: GuestBackup, b: GuestBackup): boolean {
  for (const key of Object.keys(b) as (keyof GuestBackup)[]) {
    if (key !== 'lastJob' && a[key] !== b[key]) return false
  }
  if (Object.keys(a).length !== Object.keys(b).length) return false
  const x = a.lastJob
  const y = b.lastJob
  if (!x || !y) return x === y
  return (
    x.state === y.state &&
    x.time === y.time &&
    x.taskId === y.taskId &&
    x.jobId === y.jobId &&
    x.error === y.error
  )
}
