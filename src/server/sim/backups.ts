// Backup volumes on PVE storage and the nightly vzdump job that makes them. Volumes are kept
// compactly (per guest, a list of start times); size, notes, protection and verification are
// derived from a hash of (vmid, ctime), so 100,000 guests with a week or two of backups each stay small.

import type { GuestType, SimClusterModel, SimGuest } from './model.ts'
import { hash01 } from './prng.ts'
import { encryptionKey, inBackupJob, rootFraction } from './guest-profile.ts'
import { finishTask, startTask } from './tasks.ts'
import type { SimTask } from './tasks.ts'
import { emptyJobPlan, planBackupJobs, type BackupJobPlan } from './backup-jobs.ts'
import { planRun } from './backup-runs.ts'

const DAY = 86_400
const ORPHAN_KEEP_SEC = 14 * DAY
/** The error texts of a failed guest backup. */
export const MANUAL_ERRORS = [
  "VM {vmid} qmp command 'backup' failed - got timeout",
  'backup write data failed: command error: write_data upload error: pipelined request failed: connection reset',
  "command 'lxc-freeze -n {vmid}' failed: exit code 1",
] as const

/** Every backup of one guest on one store. */
export interface BackupSeries {
  vmid: number
  type: GuestType
  /** Notes from the job's `{{guestname}}` template: the guest's name when it was first backed up. */
  name: string
  /** Logical size of the guest's disk (what a PBS VM snapshot reports). */
  logical: number
  /** Typical compressed archive size (file backups) or data size (PBS containers). */
  typical: number
  encryption: string | undefined
  /** Backup start times (epoch seconds), ascending. */
  times: number[]
}

/** The backups on one storage: per node for local storage, node -1 for shared storage. */
export interface BackupStore {
  storage: string
  plugintype: string
  node: number
  series: Map<number, BackupSeries>
}

/** One guest's slot in a vzdump run: start and end (epoch seconds) and the outcome. */
export interface RunEntry {
  vmid: number
  start: number
  end: number
  outcome: 'ok' | 'warning' | 'error'
}

/** A vzdump task in progress on one node. */
export interface NodeRun {
  node: number
  task: SimTask
  store: BackupStore
  entries: RunEntry[]
  cursor: number
  warnings: number
  errors: number
  /** Single-guest runs report an error text instead of 'job errors'. */
  single: boolean
}

/** The backup side of a cluster: stores, the nightly job and the runs in progress. */
export interface BackupState {
  stores: BackupStore[]
  /** Storage the nightly job writes to. */
  target: string
  /** Minutes after midnight (UTC) the nightly job starts. */
  startMinute: number
  /** Backups kept per guest by the job's prune settings (protected ones are never pruned). */
  keep: number
  nextRunSec: number
  nextManualSec: number
  runs: NodeRun[]
  /** The jobs of /cluster/backup and the demo's backup cases (backup-jobs.ts). */
  plan: BackupJobPlan
}

/** A placeholder until the storages exist (the cluster model is built in steps). */
export function emptyBackupState(): BackupState {
  return {
    stores: [],
    target: 'local',
    startMinute: 60,
    keep: 7,
    nextRunSec: 0,
    nextManualSec: 0,
    runs: [],
    plan: emptyJobPlan(),
  }
}

/** Chooses the job's target (PBS, then NFS, then CephFS, then local) and schedule. */
export function createBackupState(
  cluster: SimClusterModel,
  nowSec: number,
  keepAll?: number,
): BackupState {
  const backupCapable = cluster.storages.filter((s) => s.content.includes('backup'))
  const preference = ['pbs', 'nfs', 'cephfs', 'dir']
  const target =
    preference
      .map((type) => backupCapable.find((s) => s.plugintype === type))
      .find((s) => s !== undefined)?.storage ?? 'local'
  const startMinute = 30 * Math.floor(hash01(cluster.seed, 31) * 5) // 00:00 .. 02:00
  const keep = keepAll || 7 + Math.floor(hash01(cluster.seed, 32) * 8)
  return {
    stores: [],
    target,
    startMinute,
    keep,
    nextRunSec: firstRunAfter(nowSec, startMinute),
    nextManualSec: nowSec + Math.floor(hash01(cluster.seed, 33) * DAY),
    runs: [],
    plan: planBackupJobs(cluster, target, startMinute, nowSec),
  }
}

/** Epoch seconds of the first daily run at `startMinute` that is after `sec`. */
export function firstRunAfter(sec: number, startMinute: number): number {
  const dayStart = Math.floor(sec / DAY) * DAY
  const today = dayStart + startMinute * 60
  return today > sec ? today : today + DAY
}

/** The store of a storage as seen from a node (local storages have one per node). */
export function findStore(
  cluster: SimClusterModel,
  storage: string,
  node: number,
): BackupStore | undefined {
  const def = cluster.storages.find((s) => s.storage === storage)
  if (def === undefined || !def.content.includes('backup')) return undefined
  const owner = def.shared === 1 ? -1 : node
  let store = cluster.backups.stores.find((s) => s.storage === storage && s.node === owner)
  if (store === undefined) {
    store = { storage, plugintype: def.plugintype, node: owner, series: new Map() }
    cluster.backups.stores.push(store)
  }
  return store
}

/** Records one backup of a guest started at `ctime`. */
export function addBackup(
  cluster: SimClusterModel,
  store: BackupStore,
  guest: SimGuest,
  ctime: number,
): void {
  let series = store.series.get(guest.vmid)
  if (series === undefined) {
    const used =
      guest.type === 'lxc'
        ? Math.max(guest.disk, guest.maxdisk * 0.1)
        : guest.maxdisk * rootFraction(cluster, guest.vmid)
    series = {
      vmid: guest.vmid,
      type: guest.type,
      name: guest.name,
      logical: guest.maxdisk,
      // vzdump archives compress to roughly half of the used data (reference §6.4).
      typical: Math.round(used * (store.plugintype === 'pbs' ? 1 : 0.45)),
      encryption: store.plugintype === 'pbs' ? encryptionKey(cluster, guest.vmid) : undefined,
      times: [],
    }
    store.series.set(guest.vmid, series)
  }
  series.times.push(ctime)
}

/** A volume is protected on about 1.5% of backups; pruning never removes it. */
export function isProtected(seed: number, vmid: number, ctime: number): boolean {
  return hash01(seed, vmid, ctime, 11) < 0.015
}

/** Keeps the newest `keep` unprotected backups of a series (plus every protected one). */
export function pruneSeries(seed: number, series: BackupSeries, keep: number): void {
  let kept = 0
  const out: number[] = []
  for (let i = series.times.length - 1; i >= 0; i--) {
    const t = series.times[i] as number
    if (isProtected(seed, series.vmid, t)) out.push(t)
    else if (kept < keep) {
      out.push(t)
      kept++
    }
  }
  out.reverse()
  series.times = out
}

/** Advances the nightly job and the occasional manual backups to `nowMs`. */
export function advanceBackups(cluster: SimClusterModel, nowMs: number): void {
  const state = cluster.backups
  const now = Math.floor(nowMs / 1000)
  while (state.nextRunSec <= now) {
    startNightly(cluster, state.nextRunSec)
    state.nextRunSec += DAY
  }
  while (state.nextManualSec <= now) {
    startManual(cluster, state.nextManualSec)
    state.nextManualSec += cluster.aux.int(4 * 3600, 36 * 3600)
  }
  state.runs = state.runs.filter((run) => !progressRun(cluster, run, now))
}

/** Guests a nightly run on `node` covers: running, not templates, in the job; vmid order. */
export function jobGuests(cluster: SimClusterModel, node: number): SimGuest[] {
  const out = cluster.guests.filter((g) => g.node === node && g.running && inBackupJob(cluster, g))
  return out.sort((a, b) => a.vmid - b.vmid)
}

/** What a nightly task runs: the nightly job's guests of one node, in order. */
export function nightlyRun(cluster: SimClusterModel, vmids: number[]): SimTask['run'] {
  const state = cluster.backups
  return { job: state.plan.jobs[0]?.id, storage: state.target, vmids: Int32Array.from(vmids) }
}

function startNightly(cluster: SimClusterModel, startSec: number): void {
  const state = cluster.backups
  dropOrphans(cluster, startSec)
  const def = cluster.storages.find((s) => s.storage === state.target)
  cluster.nodes.forEach((node, index) => {
    if (!node.online) return
    const store = findStore(cluster, state.target, index)
    if (store === undefined) return
    const guests = jobGuests(cluster, index)
    const task = startTask(cluster, index, 'vzdump', '', startSec)
    task.run = nightlyRun(
      cluster,
      guests.map((g) => g.vmid),
    )
    const entries = planRun(cluster, guests, startSec, def?.plugintype === 'pbs')
    state.runs.push({
      node: index,
      task,
      store,
      entries,
      cursor: 0,
      warnings: 0,
      errors: 0,
      single: false,
    })
  })
}

// Someone backs up one guest by hand to its node's local storage ("Backup now").
function startManual(cluster: SimClusterModel, startSec: number): void {
  const { aux } = cluster
  const guest = cluster.guests[aux.int(0, Math.max(0, cluster.guests.length - 1))]
  if (guest === undefined || !guest.running || guest.template === 1) return
  if (!(cluster.nodes[guest.node]?.online ?? false)) return
  const store = findStore(cluster, 'local', guest.node)
  if (store === undefined) return
  const task = startTask(cluster, guest.node, 'vzdump', String(guest.vmid), startSec)
  task.run = { storage: 'local', vmids: Int32Array.of(guest.vmid) }
  const entries = planRun(cluster, [guest], startSec, false)
  cluster.backups.runs.push({
    node: guest.node,
    task,
    store,
    entries,
    cursor: 0,
    warnings: 0,
    errors: 0,
    single: true,
  })
}

// Backups of destroyed guests are never pruned by the job; an admin clears them out after a
// while. Without this the demo's guest churn would pile up thousands of orphans a week.
function dropOrphans(cluster: SimClusterModel, nowSec: number): void {
  for (const store of cluster.backups.stores) {
    for (const [vmid, series] of store.series) {
      if (cluster.byVmid.has(vmid)) continue
      const newest = series.times[series.times.length - 1] ?? 0
      if (nowSec - newest > ORPHAN_KEEP_SEC) store.series.delete(vmid)
    }
  }
}

// Finishes the entries that ended by `now`; locks the guest in progress. True when the run is done.
function progressRun(cluster: SimClusterModel, run: NodeRun, now: number): boolean {
  // A member that drops out briefly (the simulator's outages last minutes) keeps dumping: its
  // vzdump runs locally, only the cluster cannot see it meanwhile.
  while (run.cursor < run.entries.length) {
    const entry = run.entries[run.cursor] as RunEntry
    if (entry.end > now) {
      lockInProgress(cluster, entry, now)
      return false
    }
    const guest = cluster.byVmid.get(entry.vmid)
    if (entry.outcome === 'error') run.errors++
    else if (guest !== undefined) {
      if (entry.outcome === 'warning') run.warnings++
      addBackup(cluster, run.store, guest, entry.start)
      const series = run.store.series.get(guest.vmid)
      if (series !== undefined && !run.single)
        pruneSeries(cluster.seed, series, cluster.backups.keep)
    }
    run.cursor++
  }
  const last = run.entries[run.entries.length - 1]
  finishTask(run.task, (last?.end ?? run.task.starttime) + 2, runStatus(run))
  return true
}

function lockInProgress(cluster: SimClusterModel, entry: RunEntry, now: number): void {
  if (entry.start > now) return
  const guest = cluster.byVmid.get(entry.vmid)
  if (guest === undefined || guest.lock !== undefined) return
  guest.lock = 'backup'
  guest.lockUntil = entry.end * 1000
}

function runStatus(run: NodeRun): string {
  return taskStatus(run.errors, run.warnings, run.single ? run.entries[0]?.vmid : undefined)
}

/**
 * PVE's final status of a vzdump task: 'job errors' for a multi-guest job with failures, the error
 * text itself for a single-guest run (`vmid`), 'WARNINGS: n', or 'OK'.
 */
export function taskStatus(errors: number, warnings: number, vmid?: number): string {
  if (errors > 0) {
    if (vmid === undefined) return 'job errors'
    const text = MANUAL_ERRORS[vmid % MANUAL_ERRORS.length] ?? MANUAL_ERRORS[0]
    return text.replace('{vmid}', String(vmid))
  }
  return warnings > 0 ? `WARNINGS: ${warnings}` : 'OK'
}
