// Sort stage of the guest pipeline (spec 000 §4 dashboard filters, §5 sorting): sort values per
// key, computed once per data change and sorted by radix (guest-order.ts).
import type { Guest } from '../model/state.ts'
import type { GuestSortKey, SortDirection } from './guest-view-types.ts'
import { identityOrder, rankTexts, sortIndicesByNumber } from './guest-order.ts'
import { finiteOr } from '../model/coerce.ts'

// Strict, and NaN for a missing value so the sort can put it last.
const toNumber = (value: unknown): number => finiteOr(value, NaN)

/**
 * The number a guest sorts by for a numeric key; NaN means empty (sorted last). A guest that is
 * not running shows '-' for its live values (spec 000 §4), so they are empty too: CPU ascending
 * must not open with every stopped guest.
 */
export function getSortNumber(guest: Guest, key: GuestSortKey): number {
  if (key !== 'vmid' && guest.status !== 'running') return NaN
  switch (key) {
    case 'vmid':
      return toNumber(guest.vmid)
    case 'uptime':
      return toNumber(guest.uptime)
    case 'cpu':
      return toNumber(guest.cpu)
    case 'memory':
      return toNumber(guest.memory?.usage)
    case 'disk': {
      // Unavailable (-1) sorts with the empty values, last.
      const percent = getDiskPercent(guest)
      return percent < 0 ? NaN : percent
    }
    case 'diskRead':
    case 'diskWrite':
    case 'networkIn':
    case 'networkOut':
      return toNumber(guest[key])
    default:
      return NaN
  }
}

/** Live sort values with every guest that is not running (`running[i]` 0) made empty (NaN). */
export function maskInactive(values: Float64Array, running: Uint8Array): Float64Array {
  const out = new Float64Array(values.length)
  for (let i = 0; i < values.length; i++) out[i] = running[i] ? values[i]! : NaN
  return out
}

/** Used disk percent, -1 when unavailable (usage -1, or no total). */
export function getDiskPercent(guest: Pick<Guest, 'disk'>): number {
  const disk = guest.disk
  if (!disk) return -1
  if (typeof disk.usage === 'number' && disk.usage >= 0) return disk.usage
  if (disk.usage === undefined && disk.total > 0) return (disk.used / disk.total) * 100
  return -1
}

/** Keys sorted as text (case-insensitive code-unit order); the others are numbers. */
export function isTextSortKey(key: GuestSortKey): boolean {
  return key === 'name' || key === 'type'
}

/** Keys whose values change only when a guest's name, type or vmid does (the identity stamp). */
export function isIdentityKey(key: GuestSortKey): boolean {
  return key === 'name' || key === 'type' || key === 'vmid'
}

/** One sort value per guest: the number, or the dense rank of the text; NaN is empty. */
export function getSortValues(guests: readonly Guest[], key: GuestSortKey): Float64Array {
  if (isTextSortKey(key)) {
    const texts = new Array<string>(guests.length)
    for (let i = 0; i < guests.length; i++) {
      texts[i] = toText(key === 'name' ? guests[i]!.name : guests[i]!.type)
    }
    return rankTexts(texts)
  }
  const values = new Float64Array(guests.length)
  for (let i = 0; i < guests.length; i++) values[i] = getSortNumber(guests[i]!, key)
  return values
}

/** The tie-break order of every guest: vmid ascending, then position. */
export function getTieOrder(guests: readonly Guest[]): Uint32Array {
  return sortIndicesByNumber(identityOrder(guests.length), getSortValues(guests, 'vmid'), 'asc')
}

/**
 * Every guest index ordered by one key, empty values last in both directions, ties in
 * `tieOrder` (vmid ascending). Never mutates its inputs.
 */
export function sortGuests(
  tieOrder: Uint32Array,
  values: Float64Array,
  direction: SortDirection,
): Uint32Array {
  return sortIndicesByNumber(tieOrder, values, direction)
}

// Plain lower-cased code-unit comparison: Intl collation is several times slower at 100k rows.
function toText(value: unknown): string {
  return typeof value === 'string' ? value.trim().toLowerCase() : ''
}
