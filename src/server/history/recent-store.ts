// The server's own bounded store of recent per-minute points (issue 25; ARCHITECTURE.md "Metrics
// history"): every polled state adds its values into the minute under way, per resource and
// metric, as average and peak. It holds what Proxmox's RRD does not: poll-resolution minutes of
// the recent past, agreeing with what the live tables showed.
//
// Cost, measured by `npm run bench -- history`: record() is a tight loop over the state's arrays
// with a Map lookup and a few typed-array writes per resource, no allocation per guest.
// Memory: a guest keeps 7 metrics × 2 (average, peak) per minute, percents in 2 bytes and rates in
// 4 (recent-pool.ts): 44 bytes per guest-minute, 2,640 bytes per guest per hour of retention,
// plus ~100 bytes per guest of accumulators and the id map. At the default 60 minutes that is
// about 275 MB for 100,000 guests.
import type { CollectedState } from '../collect/collected-state.ts'
import type { Guest } from '../../shared/model/state.ts'
import {
  datastoreResourceId,
  type HistoryMetric,
  type HistoryResourceKind,
  type HistorySeries,
} from '../../shared/model/history.ts'
import {
  HISTORY_RETENTION_DEFAULT,
  checkRetentionMinutes,
} from '../../shared/model/history-retention.ts'
import { RingPool, createCursor, type Cursor, type Encoding } from './recent-pool.ts'
import type { RecentStore } from './types.ts'

/** What the store keeps per kind, in HISTORY_METRICS order, and how each is encoded. */
const KEPT: Record<HistoryResourceKind, ReadonlyArray<readonly [HistoryMetric, Encoding]>> = {
  guest: [
    ['cpu', 'pct'],
    ['memory', 'pct'],
    ['disk', 'pct'],
    ['diskread', 'f32'],
    ['diskwrite', 'f32'],
    ['netin', 'f32'],
    ['netout', 'f32'],
  ],
  // The live node model has no I/O wait and no network rates: nothing is kept for them.
  node: [
    ['cpu', 'pct'],
    ['memory', 'pct'],
    ['disk', 'pct'],
    ['load', 'f32'],
    ['temperature', 'f32'],
  ],
  storage: [
    ['usage', 'pct'],
    ['used', 'f32'],
    ['total', 'f32'],
  ],
  pbs: [
    ['cpu', 'pct'],
    ['memory', 'pct'],
  ],
  datastore: [
    ['usage', 'pct'],
    ['used', 'f32'],
    ['total', 'f32'],
  ],
}

/** Lookup order of series(): guests first (the most asked). */
const KINDS: readonly HistoryResourceKind[] = ['guest', 'node', 'storage', 'pbs', 'datastore']

// Guests in chunks of 1,024 slots; the few nodes, storages and PBS in chunks of 64.
const CHUNK_BITS: Record<HistoryResourceKind, number> = {
  guest: 10,
  node: 6,
  storage: 6,
  pbs: 6,
  datastore: 6,
}

export interface RecentStoreOptions {
  /** Minutes kept per resource; HISTORY_RETENTION_DEFAULT when absent. */
  retentionMinutes?: number
}

const MINUTE_MS = 60_000
/** recordSteps() yields every 2,048 guests (about a ms), so the caller can let the loop run. */
const SLICE_GUESTS = 2048

/** The recent store, plus the sliced form of record() the server uses (see history/wiring.ts). */
export interface SlicedRecentStore extends RecentStore {
  /** record() as steps: yields between slices of guests; run it with runSliced(). */
  recordSteps(state: CollectedState, atMs: number): Generator<void, void, void>
}

/** Percent of used over total, or NaN (no sample) when the total is unknown. */
const percentOf = (used: number, total: number) => (total > 0 ? (used / total) * 100 : NaN)

/** Create the recent store (implements RecentStore of types.ts). */
export function createRecentStore(options: RecentStoreOptions = {}): SlicedRecentStore {
  let retention = checkRetentionMinutes(options.retentionMinutes ?? HISTORY_RETENTION_DEFAULT)
  const pools = {} as Record<HistoryResourceKind, RingPool>
  const metricIndex = {} as Record<HistoryResourceKind, Map<HistoryMetric, number>>
  for (const kind of KINDS) {
    pools[kind] = new RingPool(
      KEPT[kind].map(([, encoding]) => encoding),
      CHUNK_BITS[kind],
      retention,
    )
    metricIndex[kind] = new Map(KEPT[kind].map(([metric], j) => [metric, j]))
  }
  const guests = pools.guest
  let lastMinute = -1
  let firstMinute = -1

  /** Adds `value` unless it is not a number (a missing sample stays a gap, never a zero). */
  const put = (pool: RingPool, s: number, j: number, value: number | undefined) => {
    if (value !== undefined && Number.isFinite(value)) pool.add(s, j, value)
  }

  // The poller keeps each list in the same order poll after poll: a cursor per list finds the
  // slots by position (hashing 100,000 fresh id strings alone costs tens of ms).
  const cursors = { vms: createCursor(), containers: createCursor(), nodes: createCursor() }
  const storageCursor = createCursor()

  // A plain function over a range, so the hot loop is optimised as any loop (a loop inside a
  // generator keeps its locals in the generator object); the generator below only cuts ranges.
  const recordGuestRange = (
    list: readonly Guest[],
    cursor: Cursor,
    m: number,
    from: number,
    to: number,
  ) => {
    for (let i = from; i < to; i++) {
      const g = list[i]!
      const s = guests.touchAt(cursor, i, g.id, m)
      if (g.status !== 'running') continue
      guests.add(s, 0, g.cpu * 100)
      put(guests, s, 1, percentOf(g.memory.used, g.memory.total))
      if (g.disk.usage >= 0) put(guests, s, 2, percentOf(g.disk.used, g.disk.total))
      put(guests, s, 3, g.diskRead)
      put(guests, s, 4, g.diskWrite)
      put(guests, s, 5, g.networkIn)
      put(guests, s, 6, g.networkOut)
    }
  }

  function* recordGuests(list: readonly Guest[], cursor: Cursor, m: number) {
    for (let from = 0; from < list.length; from += SLICE_GUESTS) {
      if (from > 0) yield
      recordGuestRange(list, cursor, m, from, Math.min(list.length, from + SLICE_GUESTS))
    }
  }

  const recordOthers = (state: CollectedState, m: number) => {
    const { node, storage, pbs, datastore } = pools
    for (let i = 0; i < state.nodes.length; i++) {
      const n = state.nodes[i]!
      const s = node.touchAt(cursors.nodes, i, n.id, m)
      if (n.status !== 'online') continue
      put(node, s, 0, n.cpu * 100)
      put(node, s, 1, percentOf(n.memory.used, n.memory.total))
      put(node, s, 2, percentOf(n.disk.used, n.disk.total))
      put(node, s, 3, n.loadAverage?.[0])
      if (n.temperature?.available) put(node, s, 4, n.temperature.cpuPackage)
    }
    for (let i = 0; i < state.storage.length; i++) {
      const st = state.storage[i]!
      const s = storage.touchAt(storageCursor, i, st.id, m)
      if (!st.active) continue
      if (st.total > 0) put(storage, s, 0, st.usage)
      put(storage, s, 1, st.used)
      put(storage, s, 2, st.total)
    }
    for (const p of state.pbs) {
      const s = pbs.touch(p.id, m)
      const online = p.status === 'online'
      if (online) {
        put(pbs, s, 0, p.cpu)
        put(pbs, s, 1, p.memory)
      }
      for (const ds of p.datastores) {
        const d = datastore.touch(datastoreResourceId(p.id, ds.name), m)
        if (!online || ds.status !== 'available') continue
        if (ds.total > 0) put(datastore, d, 0, ds.usage)
        put(datastore, d, 1, ds.used)
        put(datastore, d, 2, ds.total)
      }
    }
  }

  function* recordSteps(state: CollectedState, atMs: number): Generator<void, void, void> {
    const m = Math.floor(atMs / MINUTE_MS)
    const newMinute = m > lastMinute
    if (newMinute) lastMinute = m
    if (firstMinute < 0) firstMinute = m
    yield* recordGuests(state.vms, cursors.vms, m)
    yield* recordGuests(state.containers, cursors.containers, m)
    recordOthers(state, m)
    if (!newMinute) return
    // Once a minute: free the slots of resources absent for the whole retention, and rebuild
    // one chunk left at an earlier retention (so a change never copies everything at once).
    yield
    for (const kind of KINDS) pools[kind].sweep(m - retention + 1)
    yield
    for (const kind of KINDS) if (pools[kind].migrateOne()) break
  }

  return {
    get retentionMinutes() {
      return retention
    },

    record(state, atMs) {
      const steps = recordSteps(state, atMs)
      while (!steps.next().done);
    },

    recordSteps,

    series(resourceId, metrics, sinceSec) {
      const kind = KINDS.find((k) => pools[k].slots.has(resourceId))
      if (!kind) return undefined
      const pool = pools[kind]
      const s = pool.slots.get(resourceId)!
      const oldest = Math.max(lastMinute - retention + 1, firstMinute)
      const start = Math.max(Math.ceil(sinceSec / 60), oldest)
      const out: Partial<Record<HistoryMetric, HistorySeries>> = {}
      for (const metric of metrics) {
        const j = metricIndex[kind].get(metric)
        if (j === undefined) continue
        const time: number[] = []
        for (let k = start; k <= lastMinute; k++) time.push(k * 60)
        const [avg, max] = pool.read(s, j, start, lastMinute, oldest)
        out[metric] = { time, avg, max }
      }
      return out
    },

    setRetentionMinutes(minutes) {
      retention = checkRetentionMinutes(minutes)
      for (const kind of KINDS) pools[kind].setRing(retention)
    },

    stats() {
      let resources = 0
      let bytes = 0
      for (const kind of KINDS) {
        resources += pools[kind].slots.size
        bytes += pools[kind].bytes()
      }
      return { resources, bytes, retentionMinutes: retention }
    },
  }
}
