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
}

const DIGITS = /^\d+$/

/** 1 for each guest the search matches; null when it matches every guest (no terms). */
export function evaluateSearchMask(
  search: ParsedGuestSearch,
  context: SearchMaskContext,
): Uint8Array | null {
  const { terms, joins } = search
  if (terms.length === 0) return null
  const result = evaluateTerm(terms[0]!, context)
  for (let t = 1; t < terms.length; t++) {
    const next = evaluateTerm(terms[t]!, context)
    if (joins[t - 1]) for (let i = 0; i < result.length; i++) result[i]! |= next[i]!
    else for (let i = 0; i < result.length; i++) result[i]! &= next[i]!
  }
  return result
}

function evaluateTerm(
  term: ParsedGuestSearch['terms'][number],
  context: SearchMaskContext,
): Uint8Array {
  const { guests, stamp, columns } = context
  const plan: TermPlan = term.plan
  const n = guests.length
  const mask = new Uint8Array(n)
  switch (plan.kind) {
    case 'text': {
      const needle = plan.needle
      if (!needle || needle.includes('\n')) break
      const text = columns.text(guests, stamp)
      const state = columns.state(guests, stamp, context.live)
      markTextMatches(text.names, text.nameStarts, needle, mask)
      if (DIGITS.test(needle)) markTextMatches(text.vmids, text.vmidStarts, needle, mask)
      const slotHit = context.slotNames.map((name) => name.includes(needle))
      const statusHit = state.statuses.map((status) => status !== '' && status.includes(needle))
      const tagHit = text.tagSets.map((tags) => tags.some((tag) => tag.includes(needle)))
      const { slotOf } = context
      for (let i = 0; i < n; i++) {
        if (slotHit[slotOf[i]!] || statusHit[state.status[i]!] || tagHit[text.tagSet[i]!])
          mask[i] = 1
      }
      return mask
    }
    case 'tags': {
      const text = columns.text(guests, stamp)
      const hit = text.tagSets.map((tags) =>
        plan.wanted.some((wanted) => tags.some((tag) => tag.includes(wanted))),
      )
      for (let i = 0; i < n; i++) if (hit[text.tagSet[i]!]) mask[i] = 1
      return mask
    }
    case 'fieldText': {
      const needle = plan.needle
      if (needle.includes('\n')) break
      if (plan.field === 'node') {
        const slotHit = context.slotNames.map((name) => name.includes(needle))
        for (let i = 0; i < n; i++) if (slotHit[context.slotOf[i]!]) mask[i] = 1
        return mask
      }
      const text = columns.text(guests, stamp)
      if (plan.field === 'name') markTextMatches(text.names, text.nameStarts, needle, mask)
      else markTextMatches(text.vmids, text.vmidStarts, needle, mask)
      return mask
    }
    case 'metric': {
      const values = columns.metric(guests, stamp, plan.source, context.live)
      const test = plan.test
      for (let i = 0; i < n; i++) if (test(values[i]!)) mask[i] = 1
      return mask
    }
    case 'predicate':
      break
  }
  // No column form (an unusual field, or a needle with a line break): ask every guest.
  for (let i = 0; i < n; i++) if (term.test(guests[i]!)) mask[i] = 1
  return mask
}
