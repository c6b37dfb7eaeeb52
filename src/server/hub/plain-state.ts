// The state as the plain (reference) dialect carries it: every time the reference sends as an
// RFC 3339 string in both of its state forms becomes one here (reference/wire-protocol.md §2.1,
// §2.6-2.8: backups, tasks, PBS lastSeen, disk lastChecked), where our state and the delta dialect
// keep epoch numbers. The reference UI parses these with `new Date(...)` and de-duplicates PVE/PBS
// backups by them, so a number there dates every backup in January 1970. Times the reference sends
// as ms in rawData (node lastSeen, Ceph lastUpdated, lastUpdate) stay ms, as rawData has them.
import type {
  BackupTask,
  GuestSnapshot,
  PbsBackup,
  PhysicalDisk,
  State,
  StorageBackup,
} from '../../shared/model/state.ts'
import { createPlainGuestsConverter } from './plain-guests.ts'
import { createPlainPbsConverter, type PlainPbsInstance } from './plain-pbs.ts'

export type { PlainPbsInstance, PlainPbsJob } from './plain-pbs.ts'

/** Go's zero `time.Time`: what the reference sends for a task still running (endTime). */
export const ZERO_TIME = '0001-01-01T00:00:00Z'

type WithIso<T, K extends keyof T> = Omit<T, K> & { [P in K]: string }

/** A PBS backup on the plain dialect. */
export type PlainPbsBackup = WithIso<PbsBackup, 'backupTime'>
/** A storage backup on the plain dialect: `time` as a string, `ctime` stays seconds (§2.8). */
export type PlainStorageBackup = StorageBackup & { time: string }
/** A snapshot on the plain dialect. */
export type PlainGuestSnapshot = WithIso<GuestSnapshot, 'time'>
/** A vzdump task on the plain dialect. */
export type PlainBackupTask = WithIso<BackupTask, 'startTime' | 'endTime'>

/** A physical disk on the plain dialect (§2.6). */
export type PlainPhysicalDisk = WithIso<PhysicalDisk, 'lastChecked'>

/**
 * Our own collections that the plain dialect never carries (issue 26): the reference has no such
 * keys; the PBS jobs reach its clients inside each PBS instance instead.
 */
export const NOT_ON_PLAIN = ['backupJobs', 'backupCoverage', 'pbsJobs', 'guestBackups'] as const

/**
 * The state on the plain dialect: the PVE backup collections grouped as the reference's
 * `pveBackups` object, never as our top-level keys; PBS jobs inside their instance.
 */
export type PlainState = Omit<
  State,
  | 'pbsBackups'
  | 'storageBackups'
  | 'guestSnapshots'
  | 'backupTasks'
  | 'pbs'
  | 'physicalDisks'
  | (typeof NOT_ON_PLAIN)[number]
> & {
  pbs: PlainPbsInstance[]
  physicalDisks: PlainPhysicalDisk[]
  pbsBackups: PlainPbsBackup[]
  pveBackups: {
    backupTasks: PlainBackupTask[]
    storageBackups: PlainStorageBackup[]
    guestSnapshots: PlainGuestSnapshot[]
  }
}

/** RFC 3339 in UTC for epoch seconds, without Go's absent zero fraction; zero time if unknown. */
export function toRfc3339(seconds: number): string {
  if (!Number.isFinite(seconds)) return ZERO_TIME
  const iso = new Date(seconds * 1000).toISOString()
  return iso.endsWith('.000Z') ? `${iso.slice(0, -5)}Z` : iso
}

/** RFC 3339 for epoch ms; zero time when never set (0). */
function msToRfc3339(ms: number): string {
  return ms > 0 ? toRfc3339(ms / 1000) : ZERO_TIME
}

/**
 * One-slot memo: the backup lists keep their identity between refreshes (every ~10th poll). When
 * a list changed, its unchanged records are still the same objects (the collectors reuse them),
 * so each keeps its converted copy: a backup tick converts the changed records only.
 */
function memoList<T extends object, U>(convert: (item: T) => U): (list: readonly T[]) => U[] {
  let lastIn: readonly T[] | null = null
  let lastOut: U[] = []
  // Weak: a record dropped by the collectors takes its copy with it.
  const converted = new WeakMap<T, U>()
  return (list) => {
    if (list !== lastIn) {
      lastIn = list
      lastOut = list.map((item) => {
        let out = converted.get(item)
        if (out === undefined) converted.set(item, (out = convert(item)))
        return out
      })
    }
    return lastOut
  }
}

/**
 * A converter from our state to the plain dialect's. Runs once per publication for all plain
 * clients; each backup list is converted again only when its array changed.
 */
export function createPlainStateConverter(): (state: State) => PlainState {
  const pbs = memoList<PbsBackup, PlainPbsBackup>((b) => ({
    ...b,
    backupTime: toRfc3339(b.backupTime),
  }))
  const storage = memoList<StorageBackup, PlainStorageBackup>((b) => ({
    ...b,
    time: toRfc3339(b.ctime),
  }))
  const snapshots = memoList<GuestSnapshot, PlainGuestSnapshot>((s) => ({
    ...s,
    time: toRfc3339(s.time),
  }))
  const tasks = memoList<BackupTask, PlainBackupTask>((t) => ({
    ...t,
    startTime: toRfc3339(t.startTime),
    endTime: t.endTime > 0 ? toRfc3339(t.endTime) : ZERO_TIME,
  }))
  const pbsInstances = createPlainPbsConverter(toRfc3339)
  const disks = memoList<PhysicalDisk, PlainPhysicalDisk>((d) => ({
    ...d,
    lastChecked: msToRfc3339(d.lastChecked),
  }))
  const vms = createPlainGuestsConverter()
  const containers = createPlainGuestsConverter()
  let lastPlainPve: PlainState['pveBackups'] | null = null
  return (state) => {
    const {
      storageBackups,
      guestSnapshots,
      backupTasks,
      backupJobs: _backupJobs,
      backupCoverage: _backupCoverage,
      pbsJobs,
      guestBackups: _guestBackups,
      ...rest
    } = state
    const next = {
      backupTasks: tasks(backupTasks),
      storageBackups: storage(storageBackups),
      guestSnapshots: snapshots(guestSnapshots),
    }
    // The same object while no list changed, as the reference's clients saw it before.
    if (
      !lastPlainPve ||
      next.backupTasks !== lastPlainPve.backupTasks ||
      next.storageBackups !== lastPlainPve.storageBackups ||
      next.guestSnapshots !== lastPlainPve.guestSnapshots
    ) {
      lastPlainPve = next
    }
    return {
      ...rest,
      vms: vms(state.vms, state.nodes),
      containers: containers(state.containers, state.nodes),
      pbs: pbsInstances(state.pbs, pbsJobs),
      physicalDisks: disks(state.physicalDisks),
      pbsBackups: pbs(state.pbsBackups),
      pveBackups: lastPlainPve,
    }
  }
}
