// RRD archive layouts and data-source names of the real APIs (reference: proxmox-api-backups-history
// §5): which step and how many points each `timeframe` answers with on PVE 8, PVE 9 and PBS, and the
// field names each kind of resource carries. Pure tables; no state.

/** Every timeframe any of the APIs knows. */
export const TIMEFRAMES = ['hour', 'day', 'week', 'month', 'year', 'decade'] as const
export type Timeframe = (typeof TIMEFRAMES)[number]

/** Consolidation functions. */
export const CFS = ['AVERAGE', 'MAX'] as const
export type Cf = (typeof CFS)[number]

/** Step in seconds and number of points of one answer. */
export interface Layout {
  step: number
  points: number
}

// pve-*-9.0 files (and PBS): 1x1440, 30x1440, 360x1440 and 10080x570 steps of 60 s.
const LAYOUT_V9: Record<Timeframe, Layout> = {
  hour: { step: 60, points: 60 },
  day: { step: 60, points: 1440 },
  week: { step: 1800, points: 336 },
  month: { step: 1800, points: 1440 },
  year: { step: 21600, points: 1440 },
  decade: { step: 604800, points: 570 },
}

// pve2 files read by PVE 8 (RRD.pm e5f0776): 70 points per range.
const LAYOUT_V8: Record<Exclude<Timeframe, 'decade'>, Layout> = {
  hour: { step: 60, points: 70 },
  day: { step: 1800, points: 70 },
  week: { step: 10800, points: 70 },
  month: { step: 43200, points: 70 },
  year: { step: 604800, points: 70 },
}

/** The layout a PVE of `major` answers `timeframe` with (undefined: the timeframe is unknown). */
export function pveLayout(major: number, timeframe: Timeframe): Layout | undefined {
  if (major >= 9) return LAYOUT_V9[timeframe]
  return timeframe === 'decade' ? undefined : LAYOUT_V8[timeframe]
}

/** PBS uses the PVE 9 archives. */
export function pbsLayout(timeframe: Timeframe): Layout {
  return LAYOUT_V9[timeframe]
}

/** The timeframes a PVE endpoint accepts: `decade` only for nodes on PVE 9. */
export function pveTimeframes(major: number, kind: PveKind): readonly Timeframe[] {
  return major >= 9 && kind === 'node' ? TIMEFRAMES : TIMEFRAMES.slice(0, 5)
}

/** Since pve-cluster 9.0.7 a trailing bucket holding only `time` is dropped (fix #6615). */
export function dropsTrailingEmpty(version: string): boolean {
  const [major = 0, minor = 0, patch = 0] = version.split('.').map(Number)
  return major > 9 || (major === 9 && (minor > 0 || patch >= 7))
}

/** Resource kinds with an `rrddata` endpoint on PVE. */
export type PveKind = 'node' | 'qemu' | 'lxc' | 'storage'

const NODE_V8 = [
  'loadavg',
  'maxcpu',
  'cpu',
  'iowait',
  'memtotal',
  'memused',
  'swaptotal',
  'swapused',
  'roottotal',
  'rootused',
  'netin',
  'netout',
] as const
const NODE_V9 = [
  ...NODE_V8,
  'memavailable',
  'arcsize',
  'pressurecpusome',
  'pressureiosome',
  'pressureiofull',
  'pressurememorysome',
  'pressurememoryfull',
] as const
const GUEST_V8 = [
  'maxcpu',
  'cpu',
  'maxmem',
  'mem',
  'maxdisk',
  'disk',
  'netin',
  'netout',
  'diskread',
  'diskwrite',
] as const
const PRESSURE = [
  'pressurecpusome',
  'pressurecpufull',
  'pressureiosome',
  'pressureiofull',
  'pressurememorysome',
  'pressurememoryfull',
] as const
// Containers have no `memhost` (the recorded PVE 9.2.3 LXC answer has none).
const QEMU_V9 = [...GUEST_V8, 'memhost', ...PRESSURE] as const
const LXC_V9 = [...GUEST_V8, ...PRESSURE] as const
const STORAGE = ['total', 'used'] as const

/** The data sources one PVE resource's rrddata carries, in the RRD file's order. */
export function pveFields(major: number, kind: PveKind): readonly string[] {
  const v9 = major >= 9
  if (kind === 'node') return v9 ? NODE_V9 : NODE_V8
  if (kind === 'storage') return STORAGE
  if (!v9) return GUEST_V8
  return kind === 'qemu' ? QEMU_V9 : LXC_V9
}

// Block-device counters both PBS endpoints carry (io_ticks is absent on ZFS-backed stores).
const PBS_IO = ['read_ios', 'read_bytes', 'write_ios', 'write_bytes', 'io_ticks'] as const

/** PBS /nodes/localhost/rrd data sources. */
export const PBS_NODE_FIELDS = [
  'cpu',
  'iowait',
  'memtotal',
  'memused',
  'swaptotal',
  'swapused',
  'netin',
  'netout',
  'loadavg',
  'total',
  'used',
  ...PBS_IO,
] as const

/** PBS /admin/datastore/{store}/rrd data sources. */
export const PBS_STORE_FIELDS = ['total', 'available', 'used', ...PBS_IO] as const

/** Bucket start times of an answer ending at `nowSec`, oldest first, aligned to the step. */
export function bucketTimes(layout: Layout, nowSec: number): Float64Array {
  const last = Math.floor(nowSec / layout.step) * layout.step
  const out = new Float64Array(layout.points)
  for (let i = 0; i < layout.points; i++) out[i] = last - (layout.points - 1 - i) * layout.step
  return out
}
