// Search of the Thresholds tab: the guest search language for guests, words for the other tables,
// and a search that is exactly a type name keeps only that type. Compiled once per search text.
import type { Guest } from '../model/state.ts'
import { compileGuestSearch, matchAllGuests } from '../search/index.ts'
import type { ResourceIdentity } from './alert-threshold-rows.ts'
import type { ThresholdTypeLabel } from './alert-thresholds-types.ts'

const TYPE_WORDS: Readonly<Record<string, ThresholdTypeLabel>> = {
  vm: 'VM',
  vms: 'VM',
  qemu: 'VM',
  ct: 'CT',
  cts: 'CT',
  lxc: 'CT',
  container: 'CT',
  containers: 'CT',
  node: 'Node',
  nodes: 'Node',
  pbs: 'PBS',
  storage: 'Storage',
}

// Connectors of the guest language mean nothing in a word search.
const CONNECTORS = new Set(['and', 'or', '&&', '||'])

/** A compiled search; `null` predicates match everything (compare to skip the pass). */
export interface ThresholdSearch {
  /** Guests: null when every guest matches. */
  guest: ((guest: Guest) => boolean) | null
  /** Nodes, PBS, storage: null when every resource matches. */
  resource: ((resource: ResourceIdentity) => boolean) | null
  /** True when the result depends on live metrics (recompute on data changes). */
  readsData: boolean
}

/** Compile `text` (see AlertThresholdsViewRequest.search). Never throws. */
export function compileThresholdSearch(text: string): ThresholdSearch {
  const trimmed = text.trim().toLowerCase()
  if (!trimmed) return { guest: null, resource: null, readsData: false }
  const type = Object.hasOwn(TYPE_WORDS, trimmed) ? TYPE_WORDS[trimmed] : undefined
  if (type) {
    return {
      guest:
        type === 'VM'
          ? (guest) => guest.type !== 'lxc'
          : type === 'CT'
            ? (guest) => guest.type === 'lxc'
            : () => false,
      resource: (resource) => resource.typeLabel === type,
      readsData: false,
    }
  }
  const predicate = compileGuestSearch(text)
  const words = trimmed.split(/\s+/).filter((word) => !CONNECTORS.has(word))
  return {
    guest: predicate === matchAllGuests ? null : predicate,
    resource: words.length === 0 ? null : (resource) => matchesWords(resource, words),
    // Metric terms (`cpu>80`) and status words read live values: re-run on every data change.
    readsData: true,
  }
}

function matchesWords(resource: ResourceIdentity, words: readonly string[]): boolean {
  const haystack =
    `${resource.name}\n${resource.node}\n${resource.id}\n${resource.typeLabel}\n${resource.status}`.toLowerCase()
  for (const word of words) if (!haystack.includes(word)) return false
  return true
}
