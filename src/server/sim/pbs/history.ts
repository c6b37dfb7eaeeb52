// PBS RRD history: /nodes/localhost/rrd and /admin/datastore/{store}/rrd with the PVE 9 archive
// layout. The host's gauges are a pure function of time (render-node.ts), so the past is the same
// curve the live status reads; a bucket averages whole minutes of it. One store fills on a line
// (planStoreFill) whose newest point is the live `used`.

import type { PbsSimModel, SimStore } from './model.ts'
import { DAY_SEC, hashUnit } from './schedule.ts'
import { inBackupWindow, nodeSampleAt } from './render-node.ts'
import { filledAt, measureStore, viewStore } from './store-view.ts'
import { consolidate } from '../history/consolidate.ts'
import type { SeriesSource } from '../history/consolidate.ts'
import { pbsLayout } from '../history/layout.ts'
import type { Cf, Timeframe } from '../history/layout.ts'

type Row = Record<string, number>
const FILL_DAYS = 45
const MIB = 1024 * 1024

/** Makes `store` fill steadily: full 20 to 90 days after `nowSec`, growing for up to 45 days. */
export function planStoreFill(
  store: SimStore,
  seed: number,
  baseDay: number,
  nowSec: number,
): void {
  const used = measureStore(store, baseDay, Math.floor(nowSec)).used
  // Long enough to have grown on the line for 32+ days since it was 5 % full.
  const share = used / store.total
  const minDays = (32 * (1 - share)) / Math.max(0.01, share - 0.05)
  const daysToFull = Math.min(90, Math.max(minDays, 20 + hashUnit(seed, 0xf111) * 60))
  const perSec = (store.total - used) / (daysToFull * DAY_SEC)
  const span = Math.min(FILL_DAYS * DAY_SEC, (used - 0.05 * store.total) / perSec)
  store.fill = { fromSec: nowSec - span, fromUsed: used - perSec * span, perSec }
  // estimated-full-date and the datastore-usage history follow the same line.
  store.growthPerDay = (perSec * DAY_SEC) / used
}

/** GET /nodes/localhost/rrd. */
export function nodeRrd(model: PbsSimModel, tf: Timeframe, cf: Cf): Row[] {
  const { host } = model
  const source: SeriesSource = {
    ring: undefined,
    slot: 0,
    seed: model.seed,
    noise: [0, 0, 0, 0, 0, 0],
    spread: [0.5, 1, 0.02, 0.05, 1.5, 0.4],
    bound: [1, 1, host.memTotal, host.swapTotal, Infinity, Infinity],
    synth(t, out) {
      // The mean of the six 10 s readings of the minute around t.
      out.fill(0)
      const minute = Math.floor(t / 60) * 60
      for (let s = 0; s < 60; s += 10) {
        const x = nodeSampleAt(model, minute + s)
        out[0] = out[0]! + x.cpu / 6
        out[1] = out[1]! + x.wait / 6
        out[2] = out[2]! + x.memUsed / 6
        out[3] = out[3]! + x.swapUsed / 6
        out[5] = out[5]! + x.load[0]! / 6
      }
      out[4] = (inBackupWindow(t) ? 120 : 4) * MIB
      return true
    },
  }
  return render(model, source, tf, cf, (v, row) => {
    const io = v(4)
    Object.assign(row, {
      cpu: v(0),
      iowait: v(1),
      memtotal: host.memTotal,
      memused: v(2),
      swaptotal: host.swapTotal,
      swapused: v(3),
      netin: io * 1.05,
      netout: io * 0.2,
      loadavg: v(5),
      total: host.rootTotal,
      used: host.rootUsed,
      ...ioFields(io * 0.05),
    })
  })
}

/** GET /admin/datastore/{store}/rrd, or undefined for an unknown store. */
export function storeRrd(
  model: PbsSimModel,
  name: string,
  tf: Timeframe,
  cf: Cf,
): Row[] | undefined {
  const view = viewStore(model, name)
  if (view === undefined) return undefined
  const { store } = view
  const nowSec = model.nowMs / 1000
  const source: SeriesSource = {
    ring: undefined,
    slot: 0,
    seed: model.seed ^ name.length,
    noise: [store.fill !== undefined ? 0 : 0.0005, 0.5],
    spread: [0.0005, 2],
    bound: [store.total, Infinity],
    synth(t, out) {
      out[0] =
        store.fill !== undefined
          ? filledAt(store, t)
          : view.used * (1 - (store.growthPerDay * Math.max(0, nowSec - t)) / DAY_SEC)
      // Chunk writes while backups land, reads while verify and GC walk the store.
      out[1] = (inBackupWindow(t) ? 90 : 1) * MIB * (1 + hashUnit(model.seed, Math.floor(t / 3600)))
      return true
    },
  }
  return render(model, source, tf, cf, (v, row, avg) => {
    const used = v(0)
    Object.assign(row, {
      total: store.total,
      // MAX of the free space pairs with the average use: it never drops below AVERAGE.
      available: store.total - avg(0),
      used,
      ...ioFields(v(1)),
    })
  })
}

// Disk counters as per-second rates: 1 MiB writes, reads a third of the writes.
function ioFields(writeBytes: number): Row {
  return {
    read_ios: writeBytes / (3 * MIB) / 0.25,
    read_bytes: writeBytes / 3,
    write_ios: writeBytes / MIB,
    write_bytes: writeBytes,
    io_ticks: Math.min(1, writeBytes / (400 * MIB)),
  }
}

function render(
  model: PbsSimModel,
  source: SeriesSource,
  tf: Timeframe,
  cf: Cf,
  fill: (v: (f: number) => number, row: Row, avg: (f: number) => number) => void,
): Row[] {
  const layout = pbsLayout(tf)
  const c = consolidate(source, undefined, layout, Math.floor(model.nowMs / 1000))
  const max = cf === 'MAX'
  return Array.from(c.times, (time, b) => {
    const row: Row = { time }
    fill(
      (f) => (max ? c.max : c.avg)[f]![b]!,
      row,
      (f) => c.avg[f]![b]!,
    )
    return row
  })
}
