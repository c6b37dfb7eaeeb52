// Sort stage of the guest pipeline (spec 000 §4 dashboard filters, §5 sorting).
import type { Guest } from '../model/state.ts'
import type { GuestSortKey, SortDirection } from './guest-view-types.ts'

const TEXT_KEYS: ReadonlySet<GuestSortKey> = new Set(['name', 'type'])

/** The number a guest sorts by for a numeric key; NaN means empty (sorted last). */
export function getSortNumber(guest: Guest, key: GuestSortKey): number {
  switch (key) {
    case 'vmid':
      return toNumber(guest.vmid)
    case 'uptime':
      return toNumber(guest.uptime)
    case 'cpu':
      return toNumber(guest.cpu)
    case 'memory':
      return toNumber(guest.memory?.usage)
    case 'disk':
      return getDiskPercent(guest)
    case 'diskRead':
    case 'diskWrite':
    case 'networkIn':
    case 'networkOut':
      return toNumber(guest[key])
    default:
      return NaN
  }
}

/** Used disk percent, -1 when unavailable (usage -1, or no total). */
export function getDiskPercent(guest: Pick<Guest, 'disk'>): number {
  const disk = guest.disk
  if (!disk) return -1
  if (typeof disk.usage === 'number' && disk.usage >= 0) return disk.usage
  if (disk.usage === undefined && disk.total > 0) return (disk.used / disk.total) * 100
  return -1
}

/**
 * Stable sort by one key; empty values last in both directions; ties broken by vmid ascending,
 * then input position. Returns a permutation of `order`, never mutates it.
 */
export function sortGuests(
  guests: readonly Guest[],
  order: Uint32Array,
  key: GuestSortKey,
  direction: SortDirection,
): Uint32Array {
  const dir = direction === 'desc' ? -1 : 1
  const out = order.slice()
  // Keys are extracted once per row so the comparator does no property walks or lower-casing.
  const vmids = new Float64Array(guests.length)
  for (const i of order) vmids[i] = toNumber(guests[i]!.vmid)
  const tieBreak = (a: number, b: number) => vmids[a]! - vmids[b]! || a - b
  if (TEXT_KEYS.has(key)) {
    const texts: string[] = new Array<string>(guests.length)
    for (const i of order) texts[i] = toText(key === 'name' ? guests[i]!.name : guests[i]!.type)
    out.sort((a, b) => {
      const ta = texts[a]!
      const tb = texts[b]!
      if (ta === tb) return tieBreak(a, b)
      if (!ta || !tb) return ta ? -1 : 1
      return (ta < tb ? -1 : 1) * dir
    })
    return out
  }
  const values = new Float64Array(guests.length)
  for (const i of order) {
    const value = getSortNumber(guests[i]!, key)
    values[i] = key === 'disk' && value < 0 ? NaN : value
  }
  out.sort((a, b) => {
    const va = values[a]!
    const vb = values[b]!
    const emptyA = Number.isNaN(va)
    const emptyB = Number.isNaN(vb)
    if (emptyA || emptyB) return emptyA === emptyB ? tieBreak(a, b) : emptyA ? 1 : -1
    if (va === vb) return tieBreak(a, b)
    return (va < vb ? -1 : 1) * dir
  })
  return out
}

function toNumber(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : NaN
}

// Plain lower-cased code-unit comparison: Intl collation is several times slower at 100k rows.
function toText(value: unknown): string {
  return typeof value === 'string' ? value.trim().toLowerCase() : ''
}
