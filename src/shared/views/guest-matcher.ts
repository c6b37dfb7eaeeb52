// The search seam of the guest pipeline: compiles the main search reading (spec 000 §5) from
// src/shared/search, so the filter stage stays unaware of the language.
import type { Guest } from '../model/state.ts'
import { compileGuestSearch, matchAllGuests } from '../search/guest-search.ts'

/** A compiled search: true when the guest matches. */
export type GuestMatcher = (guest: Guest) => boolean

/** Compile search text once per text (never per row); null means every guest matches. */
export function compileGuestMatcher(search: string): GuestMatcher | null {
  const matcher = compileGuestSearch(search)
  // null lets the filter stage skip the call entirely for blank or unfinished searches.
  return matcher === matchAllGuests ? null : matcher
}
