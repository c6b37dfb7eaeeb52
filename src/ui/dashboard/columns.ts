// The guest table's columns (spec 000 §2.2) and its header-click sort rule (spec 000 §4).
import type { GuestSortKey, SortDirection } from '../../shared/views/guest-view-types.ts'
import { LIVE_SORT_KEYS } from '../../shared/views/guest-live-columns.ts'

export interface GuestColumn {
  key: GuestSortKey
  label: string
  /** Right-aligned with tabular figures. */
  numeric: boolean
  /** Header text on a phone, where the column is narrower (the label stays the accessible name). */
  short?: string
}

export const GUEST_COLUMNS: readonly GuestColumn[] = [
  { key: 'name', label: 'Name', numeric: false },
  { key: 'type', label: 'Type', numeric: false },
  { key: 'vmid', label: 'VMID', numeric: true },
  { key: 'uptime', label: 'Uptime', numeric: true },
  { key: 'cpu', label: 'CPU', numeric: false },
  { key: 'memory', label: 'Memory', numeric: false, short: 'Mem' },
  { key: 'disk', label: 'Disk', numeric: false },
  { key: 'diskRead', label: 'Disk Read', numeric: true },
  { key: 'diskWrite', label: 'Disk Write', numeric: true },
  { key: 'networkIn', label: 'Net In', numeric: true },
  { key: 'networkOut', label: 'Net Out', numeric: true },
]

/**
 * Grid tracks shared by the header and every row (styles.css `.guest-grid`): they add up to about
 * the 900 px minimum. On a phone the name is wider and the three bars follow it (PHONE_ORDER), so
 * a 390 px screen shows name, CPU, memory and disk before the table scrolls sideways.
 */
export const GRID_CLASS = 'guest-grid'

/** Visual position of each column on a phone (the DOM order, read by assistive technology, stays). */
export const PHONE_ORDER: Readonly<Record<GuestSortKey, string>> = {
  name: '',
  cpu: 'max-sm:order-1',
  memory: 'max-sm:order-2',
  disk: 'max-sm:order-3',
  type: 'max-sm:order-4',
  vmid: 'max-sm:order-5',
  uptime: 'max-sm:order-6',
  diskRead: 'max-sm:order-7',
  diskWrite: 'max-sm:order-8',
  networkIn: 'max-sm:order-9',
  networkOut: 'max-sm:order-10',
}

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
