// The "Export for GitHub" sanitizer (spec 001 §7 diagnostics export). Pure: no I/O. IPs,
// hostnames, token ids, node and guest names become placeholders (`ip-1`, `host-2`, `node-3`,
// `guest-4`, `token-1`), the same original always the same placeholder within one sanitizer, so
// a reader can still follow one host through the report. Known names are looked up in a Map per
// word instead of one giant regex: an estate has up to 100,000 guest names.

/** Placeholder categories, in the order a name listed in several lists is claimed. */
export const SANITIZE_CATEGORIES = ['token', 'host', 'node', 'guest'] as const
type Category = (typeof SANITIZE_CATEGORIES)[number] | 'ip'

/** What must not survive sanitizing, by category; `secrets` become `[redacted]`. */
export interface SensitiveValues {
  tokens?: Iterable<string>
  hosts?: Iterable<string>
  nodes?: Iterable<string>
  guests?: Iterable<string>
  secrets?: Iterable<string>
}

export interface Sanitizer {
  /** Sanitize one string. */
  text(value: string): string
  /** Deep copy with every string (values and keys) sanitized and secret-named keys redacted. */
  value(value: unknown): unknown
  /** Original (lowercased) → placeholder, for tests and the report's legend count. */
  placeholders(): ReadonlyMap<string, string>
}

export const REDACTED = '[redacted]'
/** Keys whose values are secrets whatever they hold. */
const SECRET_KEY = /password|secret|tokenvalue|apitoken|privatekey|passphrase|cookie|authorization/i
// Words: names, hosts, IPv4 and token ids are made of these characters.
const WORD = /[A-Za-z0-9_.@!-]+/g
const SEPARATOR = /[-.@!]/g
const IPV4 = /^(?:25[0-5]|2[0-4]\d|1?\d?\d)(?:\.(?:25[0-5]|2[0-4]\d|1?\d?\d)){3}$/
const TOKEN_ID = /^[\w.-]+@[\w.-]+![\w.-]+$/
// Colon groups; validated below so clock times (03:41:23) and fingerprints (32 groups) stay.
const IPV6 =
  /(?<![\w:.])(?:[0-9a-f]{0,4}:){2,7}(?:[0-9a-f]{1,4}|\d{1,3}(?:\.\d{1,3}){3})?(?![\w:.])/gi
const MAX_SEGMENTS = 16

function isIpv6(candidate: string): boolean {
  if (!/[0-9a-f]/i.test(candidate)) return false
  if (candidate.includes('::')) return candidate.split('::').length === 2
  return candidate.split(':').length === 8
}

/** Create a sanitizer for one export. */
export function createSanitizer(known: SensitiveValues): Sanitizer {
  const categoryOf = new Map<string, Category>()
  for (const category of SANITIZE_CATEGORIES) {
    for (const raw of known[`${category}s`] ?? []) {
      const key = raw.trim().toLowerCase()
      // Two characters or fewer would redact fragments of ordinary words.
      if (key.length <= 2 || categoryOf.has(key)) continue
      // A host given as an address is an address: one placeholder whichever list named it.
      categoryOf.set(key, IPV4.test(key) || isIpv6(key) ? 'ip' : category)
    }
  }
  const secrets = [...(known.secrets ?? [])].filter((s) => s.length >= 4)
  secrets.sort((a, b) => b.length - a.length)
  const assigned = new Map<string, string>()
  const counters = new Map<Category, number>()
  const placeholder = (original: string, category: Category): string => {
    const key = original.toLowerCase()
    let found = assigned.get(key)
    if (!found) {
      const n = (counters.get(category) ?? 0) + 1
      counters.set(category, n)
      found = `${category}-${n}`
      assigned.set(key, found)
    }
    return found
  }
  const classify = (candidate: string, afterScheme: boolean): Category | undefined => {
    const known = categoryOf.get(candidate.toLowerCase())
    if (known) return known
    if (IPV4.test(candidate)) return 'ip'
    if (TOKEN_ID.test(candidate)) return 'token'
    // The host of any URL, known or not (an error text may name a cluster member).
    if (afterScheme && /[a-z]/i.test(candidate)) return 'host'
    return undefined
  }
  // Longest known run of segments from the left: "mock-cluster-pve1-100" finds "mock-cluster"
  // and "pve1" even though the whole word is unknown.
  const sanitizeWord = (word: string, afterScheme: boolean): string => {
    const whole = classify(word, afterScheme)
    if (whole) return placeholder(word, whole)
    const bounds: Array<[number, number]> = []
    let start = 0
    for (const m of word.matchAll(SEPARATOR)) {
      if (m.index > start) bounds.push([start, m.index])
      start = m.index + 1
    }
    if (start < word.length) bounds.push([start, word.length])
    let out = ''
    let cursor = 0
    for (let i = 0; i < bounds.length;) {
      let matched = 0
      for (let j = Math.min(bounds.length, i + MAX_SEGMENTS); j > i; j--) {
        const from = bounds[i]![0]
        const to = bounds[j - 1]![1]
        const candidate = word.slice(from, to)
        const category = classify(candidate, false)
        if (category) {
          out += word.slice(cursor, from) + placeholder(candidate, category)
          cursor = to
          matched = j - i
          break
        }
      }
      i += matched || 1
    }
    return out + word.slice(cursor)
  }
  const text = (value: string): string => {
    let s = value
    for (const secret of secrets) s = s.split(secret).join(REDACTED)
    s = s.replace(IPV6, (m) => (isIpv6(m) ? placeholder(m, 'ip') : m))
    return s.replace(WORD, (word, offset: number) => {
      // Trailing dots end sentences, not hostnames.
      const trimmed = word.replace(/[.-]+$/, '')
      const tail = word.slice(trimmed.length)
      if (!trimmed) return word
      return sanitizeWord(trimmed, s.slice(Math.max(0, offset - 3), offset) === '://') + tail
    })
  }
  const value = (input: unknown): unknown => {
    if (typeof input === 'string') return text(input)
    if (Array.isArray(input)) return input.map(value)
    if (input !== null && typeof input === 'object') {
      const out: Record<string, unknown> = {}
      for (const [k, v] of Object.entries(input)) {
        out[text(k)] = SECRET_KEY.test(k) && typeof v === 'string' && v !== '' ? REDACTED : value(v)
      }
      return out
    }
    return input
  }
  return { text, value, placeholders: () => assigned }
}
