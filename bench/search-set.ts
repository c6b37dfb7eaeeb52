// The fixed, documented set of dashboard searches the benchmark runs (bench/README.md lists it).
import type { GuestSortKey, SortDirection } from '../src/shared/views/guest-view-types.ts'

/** One benchmarked dashboard view: a search text under a sort. */
export interface SearchCase {
  /** Short id used in the JSON results. */
  id: string
  search: string
  sort: { key: GuestSortKey; direction: SortDirection }
  /** What the case exercises. */
  covers: string
}

const BY_VMID = { key: 'vmid', direction: 'asc' } as const

/** Every kind of term of spec 000 §5: empty, plain text, each metric filter, tags, node, AND/OR. */
export const SEARCH_SET: readonly SearchCase[] = [
  {
    id: 'empty-cpu',
    search: '',
    sort: { key: 'cpu', direction: 'desc' },
    covers: 'empty search, sort by CPU',
  },
  {
    id: 'empty-name',
    search: '',
    sort: { key: 'name', direction: 'asc' },
    covers: 'empty search, sort by name',
  },
  { id: 'empty-vmid', search: '', sort: BY_VMID, covers: 'empty search, default sort' },
  { id: 'text', search: 'web', sort: BY_VMID, covers: 'plain text' },
  { id: 'cpu', search: 'cpu>80', sort: BY_VMID, covers: 'metric: cpu (percent)' },
  { id: 'memory', search: 'memory<20', sort: BY_VMID, covers: 'metric: memory' },
  { id: 'disk', search: 'disk>=90', sort: BY_VMID, covers: 'metric: disk' },
  { id: 'uptime', search: 'uptime<3600', sort: BY_VMID, covers: 'metric: uptime' },
  { id: 'equal', search: 'cpu=0', sort: BY_VMID, covers: 'metric: = within 0.01' },
  { id: 'numeric', search: 'diskRead>10000000', sort: BY_VMID, covers: 'other numeric field' },
  { id: 'tag', search: 'tags:production', sort: BY_VMID, covers: 'tags' },
  { id: 'tags-any', search: 'tags:production,staging', sort: BY_VMID, covers: 'tags, any of' },
  { id: 'node', search: 'node:pve1', sort: BY_VMID, covers: 'node' },
  { id: 'field', search: 'name:web-1', sort: BY_VMID, covers: 'field text' },
  { id: 'or', search: 'tags:prod OR tags:staging', sort: BY_VMID, covers: 'OR' },
  { id: 'and', search: 'cpu>50 AND memory>50', sort: BY_VMID, covers: 'AND' },
  {
    id: 'chain',
    search: 'web OR db AND cpu>20',
    sort: { key: 'cpu', direction: 'desc' },
    covers: 'AND/OR chain, sort by CPU',
  },
]

/**
 * The reference implementation's dashboard path (its parser, filter, group and sort) as measured
 * on this 2-core machine at 100,000 guests and quoted in issue 3; we cannot run it here. The
 * speedups in latest.json use the low end of each range, and for searches it gives no figure its
 * fastest searches (about 8 ms): every comparison is in the reference's favour.
 */
export const REFERENCE_MS_AT_100K: Readonly<Record<string, number>> = {
  'empty-cpu': 52,
  'empty-name': 52,
  or: 95,
}
export const REFERENCE_FLOOR_MS = 8
