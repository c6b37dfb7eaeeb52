// Search history lists (spec 000 §5 "Search history", §9): pure list updates, no storage.

/** Most entries a search history keeps (spec 000 §9). */
export const SEARCH_HISTORY_MAX = 10

/**
 * Puts `entry` (trimmed) first, drops older case-insensitive duplicates so the newest spelling
 * wins, and keeps at most SEARCH_HISTORY_MAX. An empty entry, or one already first with the same
 * spelling, returns `list` itself so callers can skip a write.
 */
export function addSearchHistory(list: readonly string[], entry: string): readonly string[] {
  const term = entry.trim()
  if (term === '' || (list[0] === term && list.length <= SEARCH_HISTORY_MAX)) return list
  const folded = term.toLowerCase()
  const rest = list.filter((item) => item.toLowerCase() !== folded)
  return [term, ...rest].slice(0, SEARCH_HISTORY_MAX)
}

/** Removes `entry` (trimmed, case-insensitive); returns `list` itself when it was not there. */
export function removeSearchHistory(list: readonly string[], entry: string): readonly string[] {
  const folded = entry.trim().toLowerCase()
  const next = list.filter((item) => item.toLowerCase() !== folded)
  return next.length === list.length ? list : next
}
