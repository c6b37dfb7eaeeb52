// The PBS simulator's model: one instance is a host plus datastores whose namespaces hold backup
// groups on a schedule. Snapshots are not stored: schedule.ts derives them from a group and the
// clock, so a tick only moves the clock and bumps the revision (which invalidates cached replies).

/** PBS backup types (pbs-api-types BackupType). */
export const BACKUP_TYPES = ['vm', 'ct', 'host'] as const
export type BackupType = (typeof BACKUP_TYPES)[number]

/** A guest of the PVE estate whose backups the simulated PBS holds. */
export interface SimPbsGuest {
  vmid: number
  type: 'qemu' | 'lxc'
  name: string
}

/** Prune options as PBS names them (keep-last, keep-daily, keep-weekly). */
export interface Retention {
  last?: number
  daily?: number
  weekly?: number
}

/** One file of a snapshot and how its size evolves. */
export interface SimArchive {
  filename: string
  /** Bytes on the model's base day. */
  baseSize: number
  /** Relative growth per day: 0 for a fixed-size disk image, > 0 for file-level archives. */
  growthPerDay: number
  /** Index archives (.fidx/.didx) count towards GC's index-data-bytes; blobs do not. */
  index: boolean
}

/** A backup group: one guest (or host) in one namespace. */
export interface SimGroup {
  type: BackupType
  id: string
  owner: string
  /** Snapshot comment: the guest name, as vzdump's notes-template `{{guestname}}` writes it. */
  comment?: string
  /** Seconds after UTC midnight when this group's run starts (may pass 86400: after midnight). */
  startSec: number
  durationSec: number
  /** 1 = nightly; 7 = weekly on `weekday` (0 = Sunday). */
  everyDays: 1 | 7
  weekday: number
  archives: SimArchive[]
  encrypted: boolean
  /** Encryption key fingerprint (hex pairs), set when encrypted. */
  keyFingerprint?: string
  /** Share of the first snapshot's logical bytes that lands in the chunk store (used x compression). */
  uniqueFraction: number
  /** Share of new chunks each further snapshot adds. */
  changePerRun: number
  /** Epoch day of the group's one protected snapshot, if any. */
  protectedDay?: number
  /** Hash salt: every per-day decision about this group is a function of (salt, day). */
  salt: number
}

/** A namespace and the groups it holds. '' is the root namespace. */
export interface SimNamespace {
  path: string
  comment?: string
  retention: Retention
  groups: SimGroup[]
}

/** How snapshots of a store get verified. */
export type VerifyPolicy =
  { kind: 'weekly'; job: string; weekday: number; startSec: number } | { kind: 'new' }

/** One datastore. */
export interface SimStore {
  name: string
  comment?: string
  path: string
  total: number
  /** Bytes used besides the chunks (snapshot directories, logs, filesystem metadata). */
  overhead: number
  namespaces: SimNamespace[]
  /** Daily garbage collection and prune start, seconds after UTC midnight. */
  gcStartSec: number
  pruneStartSec: number
  verify: VerifyPolicy
  /** Usage growth per day, shaping the history and estimated-full-date. */
  growthPerDay: number
  /** Set on the store that fills steadily: its used bytes follow this line (history.ts). */
  fill?: { fromSec: number; fromUsed: number; perSec: number }
}

/** Hardware and OS of the simulated PBS host. */
export interface SimPbsHost {
  hostname: string
  cpuModel: string
  sockets: number
  cpus: number
  memTotal: number
  swapTotal: number
  rootTotal: number
  rootUsed: number
  bootMs: number
}

/** One simulated PBS instance. */
export interface PbsSimModel {
  name: string
  index: number
  seed: number
  /** Bumped on every change; replies are cached per revision. */
  revision: number
  nowMs: number
  /** Epoch day the archive sizes are based on (the day the model was built). */
  baseDay: number
  host: SimPbsHost
  stores: SimStore[]
  /** Store name -> error text: content reads on that store answer 500 (test control). */
  failing: Map<string, string>
}
