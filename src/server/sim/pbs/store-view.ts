// What a datastore holds at the model's current time: its snapshots per namespace and the byte
// counts GC would report. Computed once per revision (the schedule is pure, so this is a cache).

import type { PbsSimModel, SimGroup, SimStore } from './model.ts'
import { archiveSize, DAY_SEC, namespaceSnapshots } from './schedule.ts'
import type { SimSnapshot } from './schedule.ts'

// VM images of one estate share OS blocks, so groups dedup against each other a little too.
const CROSS_GROUP_SHARE = 0.85

/** Snapshots and byte counts of one store at one moment. */
export interface StoreView {
  store: SimStore
  /** Namespace path -> snapshots of each non-empty group, newest first. */
  namespaces: Map<string, SimSnapshot[][]>
  snapshotCount: number
  /** Index files (.fidx/.didx) across all snapshots: GC's index-file-count. */
  indexFiles: number
  /** Logical bytes those indexes reference: GC's index-data-bytes. */
  indexBytes: number
  /** Bytes of unique chunks on disk: GC's disk-bytes. */
  diskBytes: number
  /** Filesystem bytes used: chunks plus overhead. */
  used: number
}

const memo = new WeakMap<PbsSimModel, { revision: number; views: StoreView[] }>()

/** The views of every store at the model's time, cached until the revision changes. */
export function viewStores(model: PbsSimModel): StoreView[] {
  const hit = memo.get(model)
  if (hit !== undefined && hit.revision === model.revision) return hit.views
  const nowSec = Math.floor(model.nowMs / 1000)
  const views = model.stores.map((store) => measureStore(store, model.baseDay, nowSec))
  memo.set(model, { revision: model.revision, views })
  return views
}

/** The view of one store by name, or undefined. */
export function viewStore(model: PbsSimModel, name: string): StoreView | undefined {
  return viewStores(model).find((v) => v.store.name === name)
}

/** Measures a store at `nowSec` (also used while building, to size the store). */
export function measureStore(store: SimStore, baseDay: number, nowSec: number): StoreView {
  const namespaces = new Map<string, SimSnapshot[][]>()
  let snapshotCount = 0
  let indexFiles = 0
  let indexBytes = 0
  let diskBytes = 0
  for (const ns of store.namespaces) {
    const groups = namespaceSnapshots(store, ns, nowSec).filter((list) => list.length > 0)
    namespaces.set(ns.path, groups)
    for (const list of groups) {
      snapshotCount += list.length
      const group = list[0]!.group
      for (const snapshot of list) {
        for (const [i, archive] of group.archives.entries()) {
          if (!archive.index) continue
          indexFiles++
          indexBytes += archiveSize(group, archive, i, snapshot.day, baseDay)
        }
      }
      diskBytes += groupDiskBytes(group, list, baseDay)
    }
  }
  diskBytes = Math.round(diskBytes)
  return {
    store,
    namespaces,
    snapshotCount,
    indexFiles,
    indexBytes,
    diskBytes,
    used:
      store.fill !== undefined
        ? filledAt(store, nowSec)
        : Math.min(store.total, diskBytes + store.overhead),
  }
}

// The oldest snapshot's data lands in full (after compression); each newer one adds its changes.
function groupDiskBytes(group: SimGroup, list: readonly SimSnapshot[], baseDay: number): number {
  const oldest = list[list.length - 1]!
  let first = 0
  for (const [i, archive] of group.archives.entries()) {
    if (archive.index) first += archiveSize(group, archive, i, oldest.day, baseDay)
  }
  const share = group.type === 'vm' ? CROSS_GROUP_SHARE : 1
  return first * group.uniqueFraction * (1 + group.changePerRun * (list.length - 1)) * share
}

/** Used bytes of a filling store at `tSec`: its line, never above the filesystem. */
export function filledAt(store: SimStore, tSec: number): number {
  const fill = store.fill
  if (fill === undefined) return 0
  return Math.round(Math.min(store.total, fill.fromUsed + fill.perSec * (tSec - fill.fromSec)))
}

/** Usage ratio of a store `daysAgo` days before `view`'s time, for the usage history. */
export function pastUsage(view: StoreView, daysAgo: number): number {
  const now = view.used / view.store.total
  return Math.max(0, now * (1 - view.store.growthPerDay * daysAgo))
}

/** Epoch seconds when the store will be full at its growth rate (0 when it does not grow). */
export function estimatedFullDate(view: StoreView, nowSec: number): number {
  const ratio = view.used / view.store.total
  const perDay = ratio * view.store.growthPerDay
  if (perDay <= 0) return 0
  return Math.floor(nowSec + ((1 - ratio) / perDay) * DAY_SEC)
}
