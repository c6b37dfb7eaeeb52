// The search seam of the guest pipeline. This slice: one case-insensitive substring of the whole
// trimmed text against name, vmid, node, status and tags. The full search language (spec 000 §5)
// will land in src/shared/search and replace `compileGuestMatcher` without touching the stages.
import type { Guest } from '../model/state.ts'

/** A compiled search: true when the guest matches. */
export type GuestMatcher = (guest: Guest) => boolean

// Lower-cased searchable text per guest object. Delta merges replace only changed guests, so
// unchanged guests keep their entry across updates and a new search text costs one scan.
const haystacks = new WeakMap<Guest, string>()

function getHaystack(guest: Guest): string {
  let text = haystacks.get(guest)
  if (text === undefined) {
    // '\n' separates fields so a term never matches across two of them.
    const tags = Array.isArray(guest.tags) ? guest.tags.join('\n') : ''
    text = `${guest.name ?? ''}\n${guest.vmid}\n${guest.node ?? ''}\n${guest.status ?? ''}\n${tags}`
    text = text.toLowerCase()
    haystacks.set(guest, text)
  }
  return text
}

/** Compile search text once per text (never per row); null means every guest matches. */
export function compileGuestMatcher(search: string): GuestMatcher | null {
  const needle = search.trim().toLowerCase()
  if (!needle) return null
  return (guest) => getHaystack(guest).includes(needle)
}
