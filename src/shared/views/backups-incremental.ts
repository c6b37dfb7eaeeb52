// Incremental backup normalisation: the worker's store keeps an entity object until a delta
// changes it (then it replaces the object) and keeps each collection's array until that collection
// changes. So between two updates, a source object that is the same object at the same relative
// place needs no new record: only replaced, added and dependent records are rebuilt, and the
// columns of the others are copied. Pure; the result equals normaliseBackups' from scratch
// (tests/unit/shared/views/backups-incremental.test.ts), guest group numbers aside.
//
// What a record depends on besides its own source object:
// - guest names (by instance, node and vmid; by type and vmid for PBS): the guests array changes
//   identity only when guests are added, removed, renamed or moved, and then only the records of
//   the vmids whose names changed are rebuilt;
// - a storage backup is left out when a PBS backup has its timestamp and vmid (spec 000 §5), so a
//   PBS key appearing or vanishing re-evaluates the storage backups of that key;
// - a PBS backup's guest is looked up in its PVE twin's instance, so a twin change rebuilds the
//   PBS backups of that key.
import type { GuestSnapshot, PbsBackup, StorageBackup } from '../model/state.ts'
import { localDay } from './backups-dates.ts'
import {
  createGroupInterner,
  createNodeIdInterner,
  fromPbsBackup,
  fromSnapshot,
  fromStorageBackup,
  indexGuestNames,
  isIgnoredStorageBackup,
  toHaystack,
  type BackupNodeCounts,
  type BackupSources,
  type GuestNames,
  type NormalisedBackups,
} from './backups-normalize.ts'
import {
  changedVmids,
  deleteKey,
  forAdded,
  forRemoved,
  getKey,
  hasKey,
  markWhere,
  matchItems,
  setKey,
  twinOf,
  type KeyCounts,
} from './backups-match.ts'
import {
  countClass,
  countPlace,
  createClassCounts,
  createColumns,
  type Columns,
} from './backups-incremental-counts.ts'
import type { BackupRecord } from './backups-types.ts'

/** Slot of a storage backup that is not a backup (iso, vztmpl). */
const IGNORED = -1
/** Slot of a storage backup that is the PVE side of a PBS backup. */
const DUPLICATE = -2

/** One source collection as last normalised: its array and, per entry, a record index or status. */
interface Side<T> {
  items: readonly T[]
  slots: Int32Array
}

/** A normaliser that keeps its previous result and rebuilds only what changed. */
export type BackupNormaliser = (sources: BackupSources) => NormalisedBackups

/** Create an incremental normaliser (one per pipeline). */
export function createBackupNormaliser(): BackupNormaliser {
  let last: NormalisedBackups | null = null
  let lastSources: BackupSources | null = null
  let names: GuestNames = indexGuestNames([])
  let snapshots: Side<GuestSnapshot> = emptySide()
  let storage: Side<StorageBackup> = emptySide()
  let pbs: Side<PbsBackup> = emptySide()
  let pbsKeys: KeyCounts<number> = new Map()
  let twins: KeyCounts<Map<string, number>> = new Map()
  let nodeIdOf = createNodeIdInterner()
  let groups = createGroupInterner()
  // Columns are written into the buffers of the result before the last one: at a million records
  // a fresh set per update was most of the worker's garbage, and so of its GC pauses.
  let current: Columns | null = null
  let spare: Columns | null = null
  let hostCount = 0
  let nodeCounts: BackupNodeCounts = { pve: new Map(), pbs: new Map() }
  let classCounts = createClassCounts()
  const take = (count: number): Columns => {
    let columns = spare
    spare = null
    if (!columns || columns.days.length < count) columns = createColumns(count + (count >> 3) + 16)
    columns.records.length = count
    columns.classes.length = count
    columns.nodeIds.length = count
    return columns
  }
  const reset = () => {
    last = null
    names = indexGuestNames([])
    snapshots = emptySide()
    storage = emptySide()
    pbs = emptySide()
    pbsKeys = new Map()
    twins = new Map()
    nodeIdOf = createNodeIdInterner()
    groups = createGroupInterner()
    current = null
    spare = null
    hostCount = 0
    nodeCounts = { pve: new Map(), pbs: new Map() }
    classCounts = createClassCounts()
  }

  return (sources) => {
    const prior = lastSources
    if (
      last &&
      prior &&
      prior.guests === sources.guests &&
      prior.guestSnapshots === sources.guestSnapshots &&
      prior.storageBackups === sources.storageBackups &&
      prior.pbsBackups === sources.pbsBackups
    ) {
      return last
    }
    // Group numbers of names no longer present are never reused: start over once they pile up.
    if (last && groups.size() > 4 * last.records.length + 1000) reset()
    const guestsChanged = !last || !prior || prior.guests !== sources.guests
    // Nothing to compare with: every record is built, so no change tracking is needed.
    const cold = !last
    lastSources = sources

    // 1. Which source objects are the ones normalised last time.
    const snapMatch = matchItems(snapshots.items, sources.guestSnapshots)
    const storMatch = matchItems(storage.items, sources.storageBackups)
    const pbsMatch = matchItems(pbs.items, sources.pbsBackups)

    // 2. Guest names: rebuild the records of the vmids whose resolved names may have changed.
    if (guestsChanged) {
      const next = indexGuestNames(sources.guests)
      const changed = last ? changedVmids(names, next) : new Set<string>()
      names = next
      if (changed.size > 0) {
        const numeric = new Set<number>()
        for (const vmid of changed) if (/^\d+$/.test(vmid)) numeric.add(Number(vmid))
        markWhere(snapMatch, sources.guestSnapshots, (s) => numeric.has(s.vmid))
        markWhere(storMatch, sources.storageBackups, (s) => numeric.has(s.vmid))
        markWhere(pbsMatch, sources.pbsBackups, (b) => changed.has(b.vmid))
      }
    }

    // 3. PBS keys: which (time, vmid) keys appeared or vanished.
    const keyBefore: KeyCounts<boolean> = new Map()
    const bumpKey = (time: number, vmid: string, by: number) => {
      const had = getKey(pbsKeys, time, vmid) ?? 0
      if (!cold && getKey(keyBefore, time, vmid) === undefined) {
        setKey(keyBefore, time, vmid, had > 0)
      }
      const now = had + by
      if (now > 0) setKey(pbsKeys, time, vmid, now)
      else deleteKey(pbsKeys, time, vmid)
    }
    forRemoved(pbsMatch, pbs.items, (b) => bumpKey(b.backupTime, b.vmid, -1))
    forAdded(pbsMatch, sources.pbsBackups, (b) => bumpKey(b.backupTime, b.vmid, 1))
    const flipped: KeyCounts<boolean> = new Map()
    for (const [time, byVmid] of keyBefore) {
      for (const [vmid, had] of byVmid) {
        const has = getKey(pbsKeys, time, vmid) !== undefined
        if (had !== has) setKey(flipped, time, vmid, true)
      }
    }

    // 4. Storage backups: re-evaluate duplicates of flipped keys; keep the twins current.
    const twinBefore: KeyCounts<string | undefined> = new Map()
    const bumpTwin = (backup: StorageBackup, by: number) => {
      const vmid = String(backup.vmid)
      const time = backup.ctime
      if (!cold && !hasKey(twinBefore, time, vmid)) {
        setKey(twinBefore, time, vmid, twinOf(twins, time, vmid))
      }
      let byInstance = getKey(twins, time, vmid)
      if (!byInstance) setKey(twins, time, vmid, (byInstance = new Map()))
      const count = (byInstance.get(backup.instance) ?? 0) + by
      if (count > 0) byInstance.set(backup.instance, count)
      else byInstance.delete(backup.instance)
      if (byInstance.size === 0) deleteKey(twins, time, vmid)
    }
    if (flipped.size > 0) {
      // The time first: a vmid text per storage backup was a string for each of them per update.
      markWhere(storMatch, sources.storageBackups, (s) => {
        const byVmid = flipped.get(s.ctime)
        return byVmid !== undefined && byVmid.has(String(s.vmid))
      })
    }
    // Twin counts of what was a duplicate and is gone or re-evaluated.
    const storSlots = new Int32Array(sources.storageBackups.length)
    for (let j = 0; j < storage.items.length; j++) {
      if (storMatch.reused[j] !== 1 && storage.slots[j] === DUPLICATE) {
        bumpTwin(storage.items[j]!, -1)
      }
    }
    const storFresh = storMatch.fresh
    for (let i = 0; i < storSlots.length; i++) {
      if (storFresh[i] === 0) {
        storSlots[i] = storage.slots[storMatch.prev[i]!]!
        continue
      }
      const backup = sources.storageBackups[i]!
      if (isIgnoredStorageBackup(backup)) storSlots[i] = IGNORED
      else if (hasKey(pbsKeys, backup.ctime, String(backup.vmid))) {
        storSlots[i] = DUPLICATE
        bumpTwin(backup, 1)
      } else storSlots[i] = 0
    }

    // 5. PBS backups whose twin instance changed are renamed.
    const twinChanged: KeyCounts<boolean> = new Map()
    for (const [time, byVmid] of twinBefore) {
      for (const [vmid, before] of byVmid) {
        if (before !== twinOf(twins, time, vmid)) setKey(twinChanged, time, vmid, true)
      }
    }
    if (twinChanged.size > 0) {
      markWhere(pbsMatch, sources.pbsBackups, (b) => hasKey(twinChanged, b.backupTime, b.vmid))
    }

    // 6. The records and their columns: copied for kept records, built for the rest.
    const previous = last
    let count = sources.guestSnapshots.length + sources.pbsBackups.length
    for (let i = 0; i < storSlots.length; i++) if (storSlots[i]! >= 0) count++
    const columns = take(count)
    const { records, classes, nodeIds } = columns
    const days = columns.days.subarray(0, count)
    const times = columns.times.subarray(0, count)
    const guestGroups = columns.groups.subarray(0, count)
    const before = previous ?? EMPTY_RESULT
    const remap = new Int32Array(previous ? previous.records.length : 0).fill(-1)
    const added: number[] = []
    const oldHaystacks = previous ? builtHaystacks.get(previous) : undefined
    const haystackList: string[] | undefined = oldHaystacks ? new Array<string>(count) : undefined
    let n = 0
    // Kept records come in runs (old indices from..from+length at new index at..): the typed
    // columns of a run are copied in one call.
    let runFrom = 0
    let runAt = 0
    let runLength = 0
    const flush = () => {
      if (runLength === 0) return
      const end = runFrom + runLength
      days.set(before.days.subarray(runFrom, end), runAt)
      times.set(before.times.subarray(runFrom, end), runAt)
      guestGroups.set(before.guestGroups.subarray(runFrom, end), runAt)
      for (let k = 0; k < runLength; k++) {
        const from = runFrom + k
        const to = runAt + k
        records[to] = before.records[from]!
        classes[to] = before.classes[from]!
        nodeIds[to] = before.nodeIds[from]!
        if (haystackList) haystackList[to] = oldHaystacks![from]!
        remap[from] = to
      }
      runLength = 0
    }
    const keep = (from: number) => {
      if (runLength > 0 && from === runFrom + runLength) runLength++
      else {
        flush()
        runFrom = from
        runAt = n
        runLength = 1
      }
      return n++
    }
    const build = (record: BackupRecord) => {
      flush()
      records[n] = record
      days[n] = localDay(record.backupTime)
      times[n] = record.backupTime
      classes[n] = record.backupType
      nodeIds[n] = nodeIdOf(record)
      guestGroups[n] = groups.groupOf(record)
      if (haystackList) haystackList[n] = toHaystack(record)
      added.push(n)
      return n++
    }

    const snapSlots = new Int32Array(sources.guestSnapshots.length)
    for (let i = 0; i < snapSlots.length; i++) {
      snapSlots[i] =
        snapMatch.fresh[i] === 0
          ? keep(snapshots.slots[snapMatch.prev[i]!]!)
          : build(fromSnapshot(sources.guestSnapshots[i]!, names))
    }
    for (let i = 0; i < storSlots.length; i++) {
      if (storSlots[i]! < 0) continue
      storSlots[i] =
        storFresh[i] === 0
          ? keep(storSlots[i]!)
          : build(fromStorageBackup(sources.storageBackups[i]!, names))
    }
    const pbsSlots = new Int32Array(sources.pbsBackups.length)
    for (let i = 0; i < pbsSlots.length; i++) {
      if (pbsMatch.fresh[i] === 0) {
        pbsSlots[i] = keep(pbs.slots[pbsMatch.prev[i]!]!)
        continue
      }
      const backup = sources.pbsBackups[i]!
      pbsSlots[i] = build(
        fromPbsBackup(backup, names, twinOf(twins, backup.backupTime, backup.vmid)),
      )
    }
    flush()
    snapshots = { items: sources.guestSnapshots, slots: snapSlots }
    storage = { items: sources.storageBackups, slots: storSlots }
    pbs = { items: sources.pbsBackups, slots: pbsSlots }

    // Host records and records per place counted as they come and go, not by reading every record.
    for (let j = 0; j < remap.length; j++) {
      if (remap[j] !== -1) continue
      const gone = before.records[j]!
      if (gone.type === 'Host') hostCount--
      countPlace(nodeCounts, gone, -1)
      countClass(classCounts, before.classes[j]!, before.days[j]!, -1)
    }
    for (let k = 0; k < added.length; k++) {
      const at = added[k]!
      const record = records[at]!
      if (record.type === 'Host') hostCount++
      countPlace(nodeCounts, record, 1)
      countClass(classCounts, classes[at]!, days[at]!, 1)
    }
    const hasHost = hostCount > 0
    let haystacks: string[] | null = haystackList ?? null
    const result: NormalisedBackups = {
      records,
      days,
      times,
      classes,
      nodeIds,
      guestGroups,
      hasHost,
      haystacks: () => {
        if (!haystacks) {
          haystacks = records.map(toHaystack)
          builtHaystacks.set(result, haystacks)
        }
        return haystacks
      },
      change: previous ? { previous, remap, added: Uint32Array.from(added) } : undefined,
      nodeCounts,
      classCounts,
    }
    if (haystacks) builtHaystacks.set(result, haystacks)
    // The previous result is reachable only through `change`: later stages drop it after use.
    if (previous) previous.change = undefined
    last = result
    spare = current
    current = columns
    return result
  }
}

/** Haystacks of results that built them, so the next result copies instead of rebuilding. */
const builtHaystacks = new WeakMap<NormalisedBackups, string[]>()

const EMPTY_RESULT = {
  records: [],
  days: new Int32Array(0),
  times: new Float64Array(0),
  classes: [],
  nodeIds: [],
  guestGroups: new Int32Array(0),
} satisfies Omit<NormalisedBackups, 'haystacks' | 'hasHost'>

function emptySide<T>(): Side<T> {
  return { items: [], slots: new Int32Array(0) }
}
