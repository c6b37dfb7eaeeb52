// Text matching for the command palette: a list of names lowercased once and joined into one
// string, so a keystroke is a few native `indexOf` calls over it, not 100,000 lowercasings.

/** How well an entry matched, best (lowest) first. */
export const MATCH_TIERS = {
  /** The query is the guest's VMID. */
  vmid: 0,
  /** The whole name. */
  exact: 1,
  /** The start of the name. */
  prefix: 2,
  /** The start of a word in the name (after '-', '_', '.', ' ', '/', ':' ...). */
  word: 3,
  /** Anywhere in the name. */
  substring: 4,
  /** A secondary field (a guest's node or VMID prefix, a page's keywords, an alert's message). */
  other: 5,
} as const
export type MatchTier = (typeof MATCH_TIERS)[keyof typeof MATCH_TIERS]

/** Names lowercased and joined by '\n' (never in a query), with where each one starts. */
export interface MatchField {
  /** '\n' + names.join('\n') + '\n', lowercased. */
  text: string
  /** starts[i]: offset of name i in `text`; starts[count] = text.length (a sentinel). */
  starts: Uint32Array
  /** The lowercased names, for ordering ties. */
  lower: readonly string[]
}

/** The palette's form of a query: trimmed, lowercased, inner whitespace collapsed. */
export function normalizeQuery(query: string): string {
  return query.trim().replace(/\s+/g, ' ').toLowerCase()
}

/** Build the field of `names` (done once per data version, not per keystroke). */
export function buildMatchField(names: readonly string[]): MatchField {
  // No regex per name: names hold no line breaks but the odd label might, and '\n' separates.
  const lower = names.map((name) => {
    const low = name.toLowerCase()
    return low.includes('\n') ? low.replaceAll('\n', ' ') : low
  })
  const starts = new Uint32Array(lower.length + 1)
  let offset = 1
  for (let i = 0; i < lower.length; i++) {
    starts[i] = offset
    offset += lower[i]!.length + 1
  }
  starts[lower.length] = offset
  return { text: `\n${lower.join('\n')}\n`, starts, lower }
}

/** True for a character that starts a new word after it: anything but a letter or digit. */
function isSeparator(code: number): boolean {
  return !(
    (code >= 48 && code <= 57) ||
    (code >= 97 && code <= 122) ||
    // Non-ASCII letters count as letters: 'é' inside a word is no boundary.
    code > 127
  )
}

/** The entry whose span holds `pos`: the last i with starts[i] <= pos, searched from `low`. */
function entryAt(starts: Uint32Array, pos: number, low: number): number {
  let lo = low
  let hi = starts.length - 2
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1
    if (starts[mid]! <= pos) lo = mid
    else hi = mid - 1
  }
  return lo
}

/**
 * Calls `visit(index, tier)` once for each name holding `query` (normalised, non-empty), with the
 * best tier of its occurrences (exact, prefix, word or substring), in index order.
 */
export function scanField(
  field: MatchField,
  query: string,
  visit: (index: number, tier: MatchTier) => void,
): void {
  const { text, starts } = field
  if (query.length === 0 || starts.length < 2) return
  let pos = text.indexOf(query, 1)
  let low = 0
  while (pos !== -1) {
    // Occurrences come in order, so the entries do too: search only from the last one.
    const entry = entryAt(starts, pos, low)
    low = entry
    const start = starts[entry]!
    const end = starts[entry + 1]! - 1
    let tier: MatchTier
    if (pos === start) {
      tier = end - start === query.length ? MATCH_TIERS.exact : MATCH_TIERS.prefix
    } else {
      tier = isSeparator(text.charCodeAt(pos - 1)) ? MATCH_TIERS.word : MATCH_TIERS.substring
      // A later occurrence in the same name can only be a word start, never a prefix.
      if (tier === MATCH_TIERS.substring) {
        let next = text.indexOf(query, pos + 1)
        while (next !== -1 && next + query.length <= end) {
          if (isSeparator(text.charCodeAt(next - 1))) {
            tier = MATCH_TIERS.word
            break
          }
          next = text.indexOf(query, next + 1)
        }
      }
    }
    visit(entry, tier)
    pos = text.indexOf(query, end + 1)
  }
}

/** Decimal digits of a non-negative integer. */
function digitsOf(value: number): number {
  let digits = 1
  while (value >= 10) {
    value = Math.floor(value / 10)
    digits++
  }
  return digits
}

const POWERS = Array.from({ length: 16 }, (_, i) => 10 ** i)

/**
 * VMIDs equal to the digits of `query` (tier vmid) or starting with them (tier other); one pass
 * over the numbers, no string per guest. Nothing for a query that is not all digits.
 */
export function scanVmids(
  vmids: Int32Array,
  query: string,
  visit: (index: number, tier: MatchTier) => void,
): void {
  if (!/^\d{1,15}$/.test(query)) return
  const wanted = Number(query)
  // '007' is the prefix of no VMID: Proxmox writes them without leading zeros.
  const leadingZero = query.length > 1 && query[0] === '0'
  const length = query.length
  for (let i = 0; i < vmids.length; i++) {
    const vmid = vmids[i]!
    if (vmid === wanted && !leadingZero) {
      visit(i, MATCH_TIERS.vmid)
      continue
    }
    if (leadingZero || vmid < wanted) continue
    const digits = digitsOf(vmid)
    if (digits > length && Math.floor(vmid / POWERS[digits - length]!) === wanted) {
      visit(i, MATCH_TIERS.other)
    }
  }
}
