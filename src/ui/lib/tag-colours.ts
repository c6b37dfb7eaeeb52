// Tag dot colours (spec 000 §9): four well-known tags have fixed colours, any other tag gets a
// hue from a hash of its lowercase name, so a tag looks the same on every row and every visit.

const FIXED: Readonly<Record<string, string>> = {
  production: '#ef4444', // red-500
  staging: '#f59e0b', // amber-500
  development: '#22c55e', // green-500
  backup: '#3b82f6', // blue-500
}

const cache = new Map<string, string>()

/** CSS colour of a tag's dot. */
export function tagColour(tag: string): string {
  const name = tag.toLowerCase()
  const fixed = FIXED[name]
  if (fixed) return fixed
  let colour = cache.get(name)
  if (!colour) {
    colour = `hsl(${tagHue(name)} 65% 50%)`
    // Tag names repeat across rows; the set of names is small, so the cache stays small.
    if (cache.size < 1000) cache.set(name, colour)
  }
  return colour
}

/** Hue 0-359 from a 32-bit FNV-1a hash of the (lowercase) name. */
export function tagHue(name: string): number {
  let hash = 0x811c9dc5
  for (let i = 0; i < name.length; i++) {
    hash ^= name.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193)
  }
  return (hash >>> 0) % 360
}

const MARKUP = /<[^>]*>/g

/** Tooltip text without markup (spec 000 §5: tooltip text is stripped of markup). */
export function stripMarkup(text: string): string {
  return text.replace(MARKUP, '')
}
