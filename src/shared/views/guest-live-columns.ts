// Live columns of the guests: status, type and every numeric live value, one typed array each.
// The worker's store keeps them current while it merges a poll (patchGuestColumns reads only the
// patch, whose fields it already has at hand); without a store they are built in one pass.
import type { Guest } from '../model/state.ts'
import { getDiskPercent } from './guest-sort.ts'
import { finiteOr } from '../model/coerce.ts'
import { DISK_BITS, MEMORY_BITS } from '../model/guest-metrics.ts'

// NaN marks a missing value in the typed columns.
const finite = (value: unknown): number => finiteOr(value, NaN)

/** Numeric sort keys whose values change with live data (the others change with identity). */
export const LIVE_SORT_KEYS = [
  'uptime',
  'cpu',
  'memory',
  'disk',
  'diskRead',
  'diskWrite',
  'networkIn',
  'networkOut',
] as const
export type LiveSortKey = (typeof LIVE_SORT_KEYS)[number]

/** Live values per guest, by position in the guests array. */
export interface StateColumns {
  running: Uint8Array
  lxc: Uint8Array
  /** Index into `statuses` (lower-case status texts; 0 is '' for a status that is not a string). */
  status: Uint8Array
  statuses: string[]
  /** The statuses as they arrived, for assigning codes. */
  statusValues: string[]
  /** Sort values of the numeric live keys (getSortNumber: NaN is empty). */
  sort: Record<LiveSortKey, Float64Array>
  /** Metric filter values (readMetric) of cpu, memory, disk and uptime. */
  metric: Record<'cpu' | 'memory' | 'disk' | 'uptime', Float64Array>
}

/** Empty columns for `n` guests. */
export function createStateColumns(n: number): StateColumns {
  return {
    running: new Uint8Array(n),
    lxc: new Uint8Array(n),
    status: new Uint8Array(n),
    statuses: [''],
    statusValues: [''],
    sort: Object.fromEntries(
      LIVE_SORT_KEYS.map((key) => [key, new Float64Array(n)]),
    ) as StateColumns['sort'],
    metric: {
      cpu: new Float64Array(n),
      memory: new Float64Array(n),
      disk: new Float64Array(n),
      uptime: new Float64Array(n),
    },
  }
}

/** Columns of every guest, in one pass. */
export function buildStateColumns(guests: readonly Guest[]): StateColumns {
  const columns = createStateColumns(guests.length)
  for (let i = 0; i < guests.length; i++) writeGuestColumns(columns, i, guests[i]!)
  return columns
}

/** Write guest `i`'s columns from the whole guest. */
export function writeGuestColumns(columns: StateColumns, i: number, guest: Guest): void {
  writeStatus(columns, i, guest.status, guest.uptime)
  columns.lxc[i] = guest.type === 'lxc' ? 1 : 0
  writeCpu(columns, i, guest.cpu)
  writeMemory(columns, i, guest.memory)
  writeDisk(columns, i, guest.disk)
  columns.sort.uptime[i] = finite(guest.uptime)
  columns.sort.diskRead[i] = finite(guest.diskRead)
  columns.sort.diskWrite[i] = finite(guest.diskWrite)
  columns.sort.networkIn[i] = finite(guest.networkIn)
  columns.sort.networkOut[i] = finite(guest.networkOut)
}

/**
 * Update guest `i`'s columns after `patch` was merged into `guest`: only the fields the patch
 * carries are read from it (null means removed); status and uptime read the merged guest, since
 * the uptime filter needs both.
 */
export function patchGuestColumns(
  columns: StateColumns,
  i: number,
  patch: Readonly<Record<string, unknown>>,
  guest: Guest,
): void {
  if (patch.status !== undefined || patch.uptime !== undefined) {
    writeStatus(columns, i, guest.status, guest.uptime)
    columns.sort.uptime[i] = finite(guest.uptime)
  }
  if (patch.type !== undefined) columns.lxc[i] = patch.type === 'lxc' ? 1 : 0
  if (patch.cpu !== undefined) writeCpu(columns, i, patch.cpu)
  if (patch.memory !== undefined) writeMemory(columns, i, patch.memory as Guest['memory'])
  if (patch.disk !== undefined) writeDisk(columns, i, patch.disk as Guest['disk'])
  if (patch.diskRead !== undefined) columns.sort.diskRead[i] = finite(patch.diskRead)
  if (patch.diskWrite !== undefined) columns.sort.diskWrite[i] = finite(patch.diskWrite)
  if (patch.networkIn !== undefined) columns.sort.networkIn[i] = finite(patch.networkIn)
  if (patch.networkOut !== undefined) columns.sort.networkOut[i] = finite(patch.networkOut)
}

/** Update guest `i`'s columns after the metrics of `mask` (GUEST_METRIC_FIELDS bits) changed. */
export function patchMetricColumns(
  columns: StateColumns,
  i: number,
  guest: Guest,
  mask: number,
): void {
  if (mask & 0b1) writeCpu(columns, i, guest.cpu)
  if (mask & 0b10) {
    columns.sort.uptime[i] = finite(guest.uptime)
    columns.metric.uptime[i] = columns.running[i] ? Number(guest.uptime) || 0 : 0
  }
  if (mask & 0b100) columns.sort.diskRead[i] = finite(guest.diskRead)
  if (mask & 0b1000) columns.sort.diskWrite[i] = finite(guest.diskWrite)
  if (mask & 0b10000) columns.sort.networkIn[i] = finite(guest.networkIn)
  if (mask & 0b100000) columns.sort.networkOut[i] = finite(guest.networkOut)
  if (mask & MEMORY_BITS) writeMemory(columns, i, guest.memory)
  if (mask & DISK_BITS) writeDisk(columns, i, guest.disk)
}

function writeStatus(columns: StateColumns, i: number, value: unknown, uptime: unknown): void {
  const up = value === 'running'
  columns.running[i] = up ? 1 : 0
  columns.metric.uptime[i] = up ? Number(uptime) || 0 : 0
  if (typeof value !== 'string') {
    columns.status[i] = 0
    return
  }
  // A handful of distinct statuses: a scan beats hashing a freshly parsed string per guest.
  let code = columns.statusValues.indexOf(value)
  if (code < 0 && columns.statusValues.length < 255) {
    code = columns.statusValues.length
    columns.statusValues.push(value)
    columns.statuses.push(value.toLowerCase())
  }
  columns.status[i] = code < 0 ? 0 : code
}

function writeCpu(columns: StateColumns, i: number, cpu: unknown): void {
  columns.sort.cpu[i] = finite(cpu)
  columns.metric.cpu[i] = typeof cpu === 'number' ? cpu * 100 : NaN
}

function writeMemory(columns: StateColumns, i: number, memory: unknown): void {
  const usage = (memory as Guest['memory'] | null | undefined)?.usage
  columns.sort.memory[i] = finite(usage)
  columns.metric.memory[i] = typeof usage === 'number' ? usage : NaN
}

function writeDisk(columns: StateColumns, i: number, disk: unknown): void {
  const value = (disk ?? undefined) as Guest['disk'] | undefined
  const usage = value?.usage
  columns.metric.disk[i] = typeof usage === 'number' ? usage : NaN
  const percent = getDiskPercent({ disk: value as Guest['disk'] })
  columns.sort.disk[i] = percent < 0 ? NaN : percent
}

/**
 * The columns after guests were added or removed, the others keeping their order: `from[j]` is
 * the position in the old columns of the guest now at `j` (-1: a new guest, written from
 * `guests[j]`). One gather per column instead of reading every guest again.
 */
export function remapStateColumns(
  columns: StateColumns,
  from: Int32Array,
  guests: readonly Guest[],
): StateColumns {
  const n = from.length
  const out = createStateColumns(n)
  // Status codes index these lists: the new columns start with the same ones.
  out.statuses = columns.statuses
  out.statusValues = columns.statusValues
  const gather = <T extends Uint8Array | Float64Array>(src: T, dst: T) => {
    for (let j = 0; j < n; j++) {
      const i = from[j]!
      if (i >= 0) dst[j] = src[i]!
    }
  }
  gather(columns.running, out.running)
  gather(columns.lxc, out.lxc)
  gather(columns.status, out.status)
  for (const key of LIVE_SORT_KEYS) gather(columns.sort[key], out.sort[key])
  gather(columns.metric.cpu, out.metric.cpu)
  gather(columns.metric.memory, out.metric.memory)
  gather(columns.metric.disk, out.metric.disk)
  gather(columns.metric.uptime, out.metric.uptime)
  for (let j = 0; j < n; j++) if (from[j]! < 0) writeGuestColumns(out, j, guests[j]!)
  return out
}

/**
 * Where each guest of `after` was in `before` (-1 for a new one), when `after` is `before` minus
 * `removed` plus new guests, the others in the same order; null when it is not.
 */
export function mapGuestPositions(
  before: readonly Guest[],
  after: readonly Guest[],
  removed: ReadonlySet<Guest>,
): Int32Array | null {
  const from = new Int32Array(after.length)
  let i = 0
  for (let j = 0; j < after.length; j++) {
    const guest = after[j]!
    while (i < before.length && before[i] !== guest && removed.has(before[i]!)) i++
    if (i < before.length && before[i] === guest) from[j] = i++
    else from[j] = -1
  }
  // Every old guest is either kept or removed, or the order moved: no mapping.
  for (; i < before.length; i++) if (!removed.has(before[i]!)) return null
  return checkKept(before, from, removed) ? from : null
}

// Each guest of `before` that was not removed is found exactly once.
function checkKept(before: readonly Guest[], from: Int32Array, removed: ReadonlySet<Guest>) {
  let kept = 0
  for (let j = 0; j < from.length; j++) if (from[j]! >= 0) kept++
  return kept + removed.size === before.length
}
