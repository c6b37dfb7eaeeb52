// The main search evaluated over columns of all guests (guest-columns.ts) rather than guest by
// guest: each term becomes a mask of matches, combined left to right as spec 000 §5 says. The
// per-guest predicates of src/shared/search define the meaning; tests check both agree.
import type { Guest } from '../model/state.ts'
import type { ParsedGuestSearch, TermPlan } from '../search/index.ts'
import type { GuestColumns, StateColumns } from './guest-columns.ts'
import { markTextMatches } from './guest-columns.ts'
import type { GuestStamp } from './guest-view.ts'

/** What the evaluation reads besides the search. */
export interface SearchMaskContext {
  guests: readonly Guest[]
  stamp: GuestStamp
  columns: GuestColumns
  /** Live columns kept by the store, if any. */
  live?: StateColumns
  /** Node slot of each guest and the lower-case node name of each slot. */
  slotOf: Uint32Array
  slotNames: readonly string[]
  /** Text-term masks of the previous evaluation (owned by the pipeline), or none. */
  cache?: TermMaskCache
}

/**
 * The masks of the previous evaluation's text, tag and field-text terms. They depend on names,
 * vmids, tags and nodes only, so a live update that changed metrics (or a keystroke that kept
 * the earlier terms) reuses them. Only the previous search's terms are kept.
 */
export interface TermMaskCache {
  at: string
  slotOf: Uint32Array | null
  slotNames: readonly string[] | null
  masks: Map<string, Uint8Array>
}

/** An empty cache. */
export function createTermMaskCache(): TermMaskCache {
  return { at: '', slotOf: null, slotNames: null, masks: new Map() }
}

const DIGITS = /^\d+$/

/** 1 for each guest the search matches; null when it matches every guest (no terms). */
export function evaluateSearchMask(
  search: ParsedGuestSearch,
  context: SearchMaskContext,
): Uint8Array | null {
  const { terms, joins } = search
  if (terms.length === 0) return null
  const { stamp, cache } = context
  const at = `${stamp.structure}:${stamp.identity}:${stamp.labels}`
  const valid =
    cache !== undefined &&
    cache.at === at &&
    cache.slotOf === context.slotOf &&
    cache.slotNames === context.slotNames
  const kept = new Map<string, Uint8Array>()
  const reuse: MaskReuse = {
    get: (key) => (valid ? cache.masks.get(key) : undefined),
    set: (key, mask) => kept.set(key, mask),
  }
  const result = evaluateTerm(terms[0]!, context, reuse)
  for (let t = 1; t < terms.length; t++) {
    const next = evaluateTerm(terms[t]!, context, reuse)
    if (joins[t - 1]) for (let i = 0; i < result.length; i++) result[i]! |= next[i]!
    else for (let i = 0; i < result.length; i++) result[i]! &= next[i]!
  }
  if (cache)
    Object.assign(cache, { at, slotOf: context.slotOf, slotNames: context.slotNames, masks: kept })
  return result
}

interface MaskReuse {
  get(key: string): Uint8Array | undefined
  set(key: string, mask: Uint8Array): void
}

// A text-only mask from the cache (a copy: the caller combines in place) or computed and kept.
function textOnly(key: string, reuse: MaskReuse, compute: () => Uint8Array): Uint8Array {
  const base = reuse.get(key) ?? compute()
  reuse.set(key, base)
  return base.slice()
}

function evaluateTerm(
  term: ParsedGuestSearch['terms'][number],
  context: SearchMaskContext,
  reuse: MaskReuse,
): Uint8Array {
  const { guests, stamp, columns } = context
  const plan: TermPlan = term.plan
  const n = guests.length
  switch (plan.kind) {
    case 'text': {
      const needle = plan.needle
      if (!needle || needle.includes('\n')) break
      const text = columns.text(guests, stamp)
      const mask = textOnly(`t\u0000${needle}`, reuse, () => {
        const base = new Uint8Array(n)
        markTextMatches(text.names, text.nameStarts, needle, base)
        if (DIGITS.test(needle)) markTextMatches(text.vmids, text.vmidStarts, needle, base)
        // Most needles match no node or tag: skip those columns entirely.
        const slotHit = hits(context.slotNames, (name) => name.includes(needle))
        const tagHit = hits(text.tagSets, (tags) => tags.some((tag) => tag.includes(needle)))
        if (slotHit) markCodes(context.slotOf, slotHit, base)
        if (tagHit) markCodes(text.tagSet, tagHit, base)
        return base
      })
      // Statuses change with live data: never cached.
      const state = columns.state(guests, stamp, context.live)
      const statusHit = hits(state.statuses, (status) => status !== '' && status.includes(needle))
      if (statusHit) markCodes(state.status, statusHit, mask)
      return mask
    }
    case 'tags': {
      const text = columns.text(guests, stamp)
      return textOnly(`g\u0000${plan.wanted.join('\u0000')}`, reuse, () => {
        const mask = new Uint8Array(n)
        const hit = hits(text.tagSets, (tags) =>
          plan.wanted.some((wanted) => tags.some((tag) => tag.includes(wanted))),
        )
        if (hit) markCodes(text.tagSet, hit, mask)
        return mask
      })
    }
    case 'fieldText': {
      const { field, needle } = plan
      if (needle.includes('\n')) break
      const text = columns.text(guests, stamp)
      return textOnly(`f\u0000${field}\u0000${needle}`, reuse, () => {
        const mask = new Uint8Array(n)
        if (field === 'node') {
          const slotHit = hits(context.slotNames, (name) => name.includes(needle))
          if (slotHit) markCodes(context.slotOf, slotHit, mask)
        } else if (field === 'name') markTextMatches(text.names, text.nameStarts, needle, mask)
        else markTextMatches(text.vmids, text.vmidStarts, needle, mask)
        return mask
      })
    }
    case 'metric': {
      const values = columns.metric(guests, stamp, plan.source, context.live)
      const test = plan.test
      const mask = new Uint8Array(n)
      for (let i = 0; i < n; i++) if (test(values[i]!)) mask[i] = 1
      return mask
    }
    case 'predicate':
      break
  }
  // No column form (an unusual field, or a needle with a line break): ask every guest.
  const mask = new Uint8Array(n)
  for (let i = 0; i < n; i++) if (term.test(guests[i]!)) mask[i] = 1
  return mask
}

// 1 per distinct value (node, status, tag set) the test accepts; null when it accepts none.
function hits<T>(values: readonly T[], test: (value: T) => boolean): Uint8Array | null {
  let out: Uint8Array | null = null
  for (let i = 0; i < values.length; i++)
    if (test(values[i]!)) (out ??= new Uint8Array(values.length))[i] = 1
  return out
}

// Mark every guest whose code (node slot, status, tag set) is a hit.
function markCodes(codes: ArrayLike<number>, hit: Uint8Array, mask: Uint8Array): void {
  for (let i = 0; i < mask.length; i++) mask[i]! |= hit[codes[i]!]!
}
