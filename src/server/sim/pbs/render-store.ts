// Datastore-level answers: /status/datastore-usage, /admin/datastore, /config/datastore and
// /admin/datastore/{store}/status|gc. Kebab-case keys and real booleans, as PBS (serde) sends them.

import type { PbsSimModel } from './model.ts'
import { clockOf } from './jobs.ts'
import { lastGcRun } from './render-jobs.ts'
import { DAY_SEC, hashUnit } from './schedule.ts'
import { estimatedFullDate, pastUsage, viewStores } from './store-view.ts'
import type { StoreView } from './store-view.ts'

const HISTORY_DAYS = 30
// Fixed-size chunks are 4 MiB before compression; about 2.2 MiB average on disk.
const AVG_CHUNK_BYTES = 2.2 * 1024 * 1024

/** GET /status/datastore-usage: the cheap all-stores summary with GC status and history. */
export function renderDatastoreUsage(model: PbsSimModel): unknown[] {
  const nowSec = Math.floor(model.nowMs / 1000)
  const historyStart = (Math.floor(nowSec / DAY_SEC) - HISTORY_DAYS + 1) * DAY_SEC
  return viewStores(model).map((view) => ({
    store: view.store.name,
    total: view.store.total,
    used: view.used,
    avail: view.store.total - view.used,
    'mount-status': 'nonremovable',
    'backend-type': 'filesystem',
    'history-start': historyStart,
    'history-delta': DAY_SEC,
    history: renderHistory(view, model.seed),
    'estimated-full-date': estimatedFullDate(view, nowSec),
    'gc-status': renderGcStatus(model, view),
  }))
}

// Daily usage ratios, oldest first; the RRD has an occasional gap (null) after a reboot.
function renderHistory(view: StoreView, seed: number): (number | null)[] {
  const out: (number | null)[] = []
  for (let daysAgo = HISTORY_DAYS - 1; daysAgo >= 0; daysAgo--) {
    const gap = daysAgo > 0 && hashUnit(seed, view.store.name.length, daysAgo) < 0.04
    out.push(gap ? null : Math.round(pastUsage(view, daysAgo) * 1e6) / 1e6)
  }
  return out
}

/** The last garbage collection's counters (GarbageCollectionStatus); `upid` null before any. */
export function renderGcStatus(model: PbsSimModel, view: StoreView): Record<string, unknown> {
  const run = lastGcRun(model, view.store)
  const startedAt = run?.start ?? 0
  const removed = Math.round(view.diskBytes * 0.01 * hashUnit(model.seed, startedAt, 7))
  return {
    upid: run?.upid ?? null,
    'index-file-count': view.indexFiles,
    'index-data-bytes': view.indexBytes,
    'disk-bytes': view.diskBytes,
    'disk-chunks': Math.round(view.diskBytes / AVG_CHUNK_BYTES),
    'removed-bytes': removed,
    'removed-chunks': Math.round(removed / AVG_CHUNK_BYTES),
    'pending-bytes': 0,
    'pending-chunks': 0,
    'removed-bad': 0,
    'still-bad': 0,
  }
}

/** GET /admin/datastore: the stores the caller may see. */
export function renderDatastoreList(model: PbsSimModel): unknown[] {
  return model.stores.map((store) => ({
    store: store.name,
    ...(store.comment !== undefined ? { comment: store.comment } : {}),
    'mount-status': 'nonremovable',
    'backend-type': 'filesystem',
  }))
}

/** GET /config/datastore: schedules, verify-new and the (legacy) keep-* options. */
export function renderDatastoreConfig(model: PbsSimModel): unknown[] {
  return model.stores.map((store) => {
    const root = store.namespaces.find((n) => n.path === '')?.retention ?? {}
    return {
      name: store.name,
      path: store.path,
      ...(store.comment !== undefined ? { comment: store.comment } : {}),
      'gc-schedule': clockOf(store.gcStartSec),
      'prune-schedule': clockOf(store.pruneStartSec),
      ...(root.last !== undefined ? { 'keep-last': root.last } : {}),
      ...(root.daily !== undefined ? { 'keep-daily': root.daily } : {}),
      ...(root.weekly !== undefined ? { 'keep-weekly': root.weekly } : {}),
      ...(store.verify.kind === 'new' ? { 'verify-new': true } : {}),
      'notification-mode': 'notification-system',
    }
  })
}

/** GET /admin/datastore/{store}/status[?verbose=1]. */
export function renderDatastoreStatus(
  model: PbsSimModel,
  view: StoreView,
  verbose: boolean,
): Record<string, unknown> {
  const out: Record<string, unknown> = {
    total: view.store.total,
    used: view.used,
    avail: view.store.total - view.used,
    'backend-type': 'filesystem',
  }
  if (!verbose) return out
  const counts: Record<string, { groups: number; snapshots: number }> = {}
  for (const groups of view.namespaces.values()) {
    for (const list of groups) {
      const type = list[0]!.group.type
      const entry = (counts[type] ??= { groups: 0, snapshots: 0 })
      entry.groups++
      entry.snapshots += list.length
    }
  }
  out.counts = counts
  out['gc-status'] = renderGcStatus(model, view)
  return out
}
