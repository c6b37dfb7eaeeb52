// The guest table's columns (spec 000 §2.2) and its header-click sort rule (spec 000 §4).
import type { GuestSortKey, SortDirection } from '../../shared/views/guest-view-types.ts'
import { LIVE_SORT_KEYS } from '../../shared/views/guest-live-columns.ts'

export interface GuestColumn {
  key: GuestSortKey
  label: string
  /** Right-aligned with tabular figures. */
  numeric: boolean
}

export const GUEST_COLUMNS: readonly GuestColumn[] = [
  { key: 'name', label: 'Name', numeric: false },
  { key: 'type', label: 'Type', numeric: false },
  { key: 'vmid', label: 'VMID', numeric: true },
  { key: 'uptime', label: 'Uptime', numeric: true },
  { key: 'cpu', label: 'CPU', numeric: false },
  { key: 'memory', label: 'Memory', numeric: false },
  { key: 'disk', label: 'Disk', numeric: false },
  { key: 'diskRead', label: 'Disk Read', numeric: true },
  { key: 'diskWrite', label: 'Disk Write', numeric: true },
  { key: 'networkIn', label: 'Net In', numeric: true },
  { key: 'networkOut', label: 'Net Out', numeric: true },
]

/** Grid tracks shared by the header and every row; they add up to about the 900 px minimum. */
export const GRID_COLUMNS =
  'minmax(112px,2fr) 52px 60px 72px repeat(3,minmax(96px,1fr)) repeat(4,minmax(78px,1fr))'

export const ROW_HEIGHT = 36

/** Keys whose first click sorts descending (the live metrics, spec 000 §4); the others ascend. */
const DESCENDING_FIRST: ReadonlySet<GuestSortKey> = new Set(LIVE_SORT_KEYS)

/** The sort after a header click: same key flips, a new key starts at its natural direction. */
export function nextSort(
  current: { key: GuestSortKey; direction: SortDirection },
  key: GuestSortKey,
): { key: GuestSortKey; direction: SortDirection } {
  if (current.key === key) return { key, direction: current.direction === 'asc' ? 'desc' : 'asc' }
  return { key, direction: DESCENDING_FIRST.has(key) ? 'desc' : 'asc' }
}
