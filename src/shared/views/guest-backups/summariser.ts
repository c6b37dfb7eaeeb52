// The per-guest backup summaries (GuestBackup), kept up to date incrementally: the estate is held
// in buckets by VMID (bucket-fold.ts); a new backup list is diffed against the last one
// (record-diff.ts) and only the buckets whose records or guests changed are folded again. A
// fresh summariser's first update is the full build, so the full and the incremental result
// come from the same code. Holds per backup record one slot in its bucket's list (no copy), per
// guest a small GuestKey and its summary. Pure, in steps (the server runs them in slices).
import type { GuestBackup } from '../../model/backup-health.ts'
import type { Guest, PbsBackup, StorageBackup } from '../../model/state.ts'
import { STEP_ITEMS } from './backup-index.ts'
import {
  foldBucket,
  pbsBucket,
  samePbsBackup,
  sameStorageBackup,
  storageBucket,
  type GuestKey,
} from './bucket-fold.ts'
import { indexJobs, type JobIndex } from './job-selection.ts'
import { indexTasks, lastJobOf, sameLastJob, type TaskIndex } from './last-job.ts'
import { diffRecordSteps, type ListChange } from './record-diff.ts'
import { guestSummary, orphanSummary, sameGuestBackup, type GuestBackupInputs } from './summary.ts'
import { regroupGuestSteps, sameGuestsSteps } from './summariser-guests.ts'

/** One VMID's records, guests (estate order, with their estate index) and summaries. */
export interface Bucket {
  key: number
  storage: StorageBackup[]
  pbs: PbsBackup[]
  guests: GuestKey[]
  at: number[]
  sums: ReturnType<typeof foldBucket>['sums']
  summaries: GuestBackup[]
  orphans: readonly GuestBackup[]
}

/** What an update did. */
export interface SummariserUpdate {
  /** Whether any input the summary reads changed (else nothing was done). */
  changed: boolean
  /** Whether a backup list was diffed. */
  regrouped: boolean
}

export interface GuestBackupSummariser {
  /**
   * Steps that bring the summaries up to date with `inputs`. `current` returning false before
   * anything changed abandons the update (undefined); once applying starts it runs to the end.
   */
  updateSteps(
    inputs: GuestBackupInputs,
    current?: () => boolean,
  ): Generator<void, SummariserUpdate | undefined, void>
  /** Guests in estate order, then orphan groups by id; the same array while nothing changed. */
  result(): readonly GuestBackup[]
}

const newBucket = (key: number): Bucket => ({
  key,
  storage: [],
  pbs: [],
  guests: [],
  at: [],
  sums: [],
  summaries: [],
  orphans: NONE,
})

const NONE: readonly GuestBackup[] = Object.freeze([])

/** Create an empty summariser; `published` is what `result()` returns until the first update. */
export function createGuestBackupSummariser(
  published: readonly GuestBackup[] = [],
): GuestBackupSummariser {
  const buckets = new Map<number, Bucket>()
  const dirty = new Set<Bucket>()
  let storageList: readonly StorageBackup[] = []
  let pbsList: readonly PbsBackup[] = []
  let guestLists: readonly (readonly Guest[])[] = [[], []]
  let guestKeys: GuestKey[] = []
  let jobsIn: unknown = null
  let coverageIn: unknown = null
  let tasksIn: unknown = null
  let jobs: JobIndex = indexJobs([], [])
  let tasks: TaskIndex = new Map()
  // Guest summaries by estate index (private: the published array is `result`).
  let guestPart: GuestBackup[] = []
  const orphanById = new Map<string, GuestBackup>()
  let orphanIds: string[] = []
  let result = published as GuestBackup[]

  const bucketOf = (key: number): Bucket => {
    let bucket = buckets.get(key)
    if (!bucket) buckets.set(key, (bucket = newBucket(key)))
    return bucket
  }
  const knownIn =
    <R extends { id: string }>(list: (b: Bucket) => R[], key: (r: R) => number) =>
    (record: R): boolean => {
      const bucket = buckets.get(key(record))
      if (!bucket) return false
      for (const other of list(bucket)) if (other === record || other.id === record.id) return true
      return false
    }
  const knownStorage = knownIn((b) => b.storage, storageBucket)
  const knownPbs = knownIn((b) => b.pbs, pbsBucket)

  function* applySteps<R>(
    change: ListChange<R>,
    list: (b: Bucket) => R[],
    key: (r: R) => number,
  ): Generator<void, void, void> {
    const { added, removed, replaced } = change
    for (let k = 0; k < removed.length; k++) {
      if (k % STEP_ITEMS === 0) yield
      const bucket = bucketOf(key(removed[k]!))
      const records = list(bucket)
      const at = records.indexOf(removed[k]!)
      records[at] = records[records.length - 1]!
      records.pop()
      dirty.add(bucket)
    }
    for (let k = 0; k < added.length; k++) {
      if (k % STEP_ITEMS === 0) yield
      const bucket = bucketOf(key(added[k]!))
      list(bucket).push(added[k]!)
      dirty.add(bucket)
    }
    // Equal for the summary: the bucket holds the new object, nothing to fold.
    for (let k = 0; k < replaced.length; k += 2) {
      if (k % STEP_ITEMS === 0) yield
      const records = list(bucketOf(key(replaced[k]!)))
      records[records.indexOf(replaced[k]!)] = replaced[k + 1]!
    }
  }

  /** A bucket's guest summaries from its sums, keeping an equal old summary's object. */
  const summarise = (bucket: Bucket, old: readonly GuestBackup[]) => {
    const out: GuestBackup[] = []
    for (let k = 0; k < bucket.guests.length; k++) {
      const next = guestSummary(bucket.guests[k]!, bucket.sums[k], jobs, tasks)
      const was = old[k]?.id === next.id ? old[k] : old.find((s) => s.id === next.id)
      out.push(was && sameGuestBackup(was, next) ? was : next)
    }
    bucket.summaries = out
  }

  /**
   * Mark the buckets of the guests whose last job differs between two task indexes. A task list
   * changes whenever any node starts or ends a backup; at 100k guests summarising every guest
   * again for it cost more than all the other updates together.
   */
  function* markLastJobChanges(old: TaskIndex, next: TaskIndex): Generator<void, void, void> {
    let work = 0
    const mark = (vmid: number) => {
      const bucket = buckets.get(vmid)
      if (bucket) dirty.add(bucket)
    }
    for (const [instance, byVmid] of next) {
      const before = old.get(instance)
      for (const [vmid, task] of byVmid) {
        if (++work % STEP_ITEMS === 0) yield
        const was = before?.get(vmid)
        if (was === task) continue
        if (!was || !sameLastJob(lastJobOf(was, vmid), lastJobOf(task, vmid))) mark(vmid)
      }
    }
    for (const [instance, byVmid] of old) {
      const after = next.get(instance)
      for (const vmid of byVmid.keys()) {
        if (++work % STEP_ITEMS === 0) yield
        if (!after?.has(vmid)) mark(vmid)
      }
    }
  }

  function* updateSteps(
    inputs: GuestBackupInputs,
    current: () => boolean = () => true,
  ): Generator<void, SummariserUpdate | undefined, void> {
    yield
    // 1. What changed, without changing anything (an abandoned update leaves no trace).
    const storageChange =
      inputs.storageBackups === storageList
        ? null
        : yield* diffRecordSteps(
            storageList,
            inputs.storageBackups,
            sameStorageBackup,
            knownStorage,
          )
    const pbsChange =
      inputs.pbsBackups === pbsList
        ? null
        : yield* diffRecordSteps(pbsList, inputs.pbsBackups, samePbsBackup, knownPbs)
    const lists = [inputs.vms, inputs.containers] as const
    const guestsSame = yield* sameGuestsSteps(guestLists, lists, guestKeys)
    const jobsChanged = inputs.backupJobs !== jobsIn || inputs.backupCoverage !== coverageIn
    const tasksChanged = inputs.backupTasks !== tasksIn
    const regrouped = storageChange !== null || pbsChange !== null
    if (!regrouped && guestsSame && !jobsChanged && !tasksChanged) {
      guestLists = lists
      return { changed: false, regrouped }
    }
    if (!current()) return undefined
    // 2. Apply: buckets and indexes follow the inputs.
    if (storageChange) yield* applySteps(storageChange, (b) => b.storage, storageBucket)
    if (pbsChange) yield* applySteps(pbsChange, (b) => b.pbs, pbsBucket)
    storageList = inputs.storageBackups
    pbsList = inputs.pbsBackups
    guestLists = lists
    if (!guestsSame) {
      guestKeys = yield* regroupGuestSteps(lists, buckets, bucketOf, dirty)
      guestPart = new Array<GuestBackup>(guestKeys.length)
    }
    if (jobsChanged) jobs = indexJobs(inputs.backupJobs, inputs.backupCoverage)
    if (tasksChanged) {
      const next = indexTasks(inputs.backupTasks)
      // New jobs summarise every guest again anyway; else only the guests whose last job changed.
      if (!jobsChanged) yield* markLastJobChanges(tasks, next)
      tasks = next
    }
    jobsIn = inputs.backupJobs
    coverageIn = inputs.backupCoverage
    tasksIn = inputs.backupTasks
    // 3. Fold the changed buckets; every guest's summary again when jobs or tasks changed.
    let orphansMoved = false
    let work = 0
    for (const bucket of dirty) {
      work += bucket.storage.length + bucket.pbs.length + bucket.guests.length + 1
      if (work > STEP_ITEMS) {
        work = 0
        yield
      }
      // Exact-length copies: a list grown by push keeps up to half again as many empty slots.
      bucket.storage = bucket.storage.slice()
      bucket.pbs = bucket.pbs.slice()
      const fold = foldBucket(bucket.storage, bucket.pbs, bucket.guests)
      bucket.sums = fold.sums
      summarise(bucket, bucket.summaries)
      const before = bucket.orphans
      bucket.orphans =
        fold.orphans.length === 0
          ? NONE
          : fold.orphans.map((orphan) => {
              const next = orphanSummary(orphan)
              const was = orphanById.get(next.id)
              return was && sameGuestBackup(was, next) ? was : next
            })
      for (const orphan of before) orphanById.delete(orphan.id)
      for (const orphan of bucket.orphans) orphanById.set(orphan.id, orphan)
      if (before.length !== bucket.orphans.length) orphansMoved = true
      else if (before.some((orphan, k) => orphan.id !== bucket.orphans[k]!.id)) orphansMoved = true
      for (let k = 0; k < bucket.at.length; k++) guestPart[bucket.at[k]!] = bucket.summaries[k]!
      if (bucket.storage.length + bucket.pbs.length + bucket.guests.length === 0) {
        buckets.delete(bucket.key)
      }
    }
    const whole = !guestsSame || jobsChanged
    if (whole) {
      work = 0
      for (const bucket of buckets.values()) {
        if (++work % 256 === 0) yield
        if (dirty.has(bucket)) continue
        if (jobsChanged) summarise(bucket, bucket.summaries)
        for (let k = 0; k < bucket.at.length; k++) guestPart[bucket.at[k]!] = bucket.summaries[k]!
      }
    }
    dirty.clear()
    if (orphansMoved) orphanIds = [...orphanById.keys()].sort()
    // 4. The published array: a new one only when a summary is another object.
    const out = guestPart.slice()
    for (let k = 0; k < orphanIds.length; k++) out.push(orphanById.get(orphanIds[k]!)!)
    let same = out.length === result.length
    for (let k = 0; same && k < out.length; k++) {
      if (k % (STEP_ITEMS * 16) === 0) yield
      same = out[k] === result[k]
    }
    if (!same) result = out
    return { changed: true, regrouped }
  }

  return { updateSteps, result: () => result }
}
