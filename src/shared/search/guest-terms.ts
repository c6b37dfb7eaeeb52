// Compilers of single guest search terms (spec 000 §5). Each compiler runs once per search text;
// the predicates it returns run per guest and allocate nothing beyond an unavoidable lower-casing
// of a guest string that has capitals, or the decimal text of a number field.
import type { Guest } from '../model/state.ts'

/** A compiled search: true when the guest matches. */
export type GuestPredicate = (guest: Guest) => boolean

/**
 * How a term can be evaluated over columns of all guests at once (src/shared/views does this for
 * 100k-guest views). A plan means exactly what the term's predicate means.
 */
export type TermPlan =
  /** Free text: name, vmid (digit needles only), node, status or any tag contains `needle`. */
  | { kind: 'text'; needle: string }
  /** Any tag contains any of `wanted`. */
  | { kind: 'tags'; wanted: readonly string[] }
  /** Field text on name, node or vmid: the field's text contains `needle`. */
  | { kind: 'fieldText'; field: 'name' | 'node' | 'vmid'; needle: string }
  /** Metric: `test(readMetric(guest, source))`. */
  | { kind: 'metric'; source: string; test: (value: number) => boolean }
  /** Anything else: the predicate runs per guest. */
  | { kind: 'predicate' }

/** A parsed term: a field filter, free text, or nothing (an unfinished `cpu>` or `tags:`). */
export type GuestTerm =
  | { kind: 'field'; test: GuestPredicate; plan: TermPlan }
  | { kind: 'text'; text: string }
  | { kind: 'skip' }

type GuestRecord = Readonly<Record<string, unknown>>

// Every Guest key, so field names can be typed in any case (`diskread`, `NetworkIn`).
const GUEST_FIELDS = [
  'id',
  'instance',
  'node',
  'vmid',
  'name',
  'type',
  'status',
  'uptime',
  'cpu',
  'cpus',
  'memory',
  'disk',
  'disks',
  'diskStatusReason',
  'diskRead',
  'diskWrite',
  'networkIn',
  'networkOut',
  'tags',
  'ipAddresses',
  'networkInterfaces',
  'osName',
  'osVersion',
  'template',
  'lock',
  'lastSeen',
] as const satisfies readonly (keyof Guest)[]

const FIELD_BY_LOWER_NAME = new Map<string, string>(GUEST_FIELDS.map((f) => [f.toLowerCase(), f]))
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/
const OPERATOR_CHAR = /[<>=:]/
const DIGITS = /^\d+$/
const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$/i
// Inclusive, plus float noise: cpu 0.8001 × 100 must equal 80.01 within 0.01.
const EQUAL_TOLERANCE = 0.01 + 1e-9

/** Parse one term: `field op number`, `field:text`, or free text when it is neither. */
export function parseGuestTerm(text: string, quoteAt = -1): GuestTerm {
  if (quoteAt === 0) return { kind: 'text', text }
  const syntax = quoteAt < 0 ? text : text.slice(0, quoteAt)
  const at = syntax.search(OPERATOR_CHAR)
  if (at < 0) return { kind: 'text', text }
  const field = text.slice(0, at).trim()
  if (!IDENTIFIER.test(field)) return { kind: 'text', text }
  if (text[at] === ':') return compileFieldText(field, text.slice(at + 1).trim())
  const op = text[at + 1] === '=' ? text.slice(at, at + 2) : text.slice(at, at + 1)
  const rest = text.slice(at + op.length).trim()
  if (!rest) return { kind: 'skip' }
  const target = parseNumber(rest)
  if (target === null) return { kind: 'text', text }
  return compileMetric(field, op, target)
}

/** A decimal number with an optional sign, fraction, exponent and trailing '%'; null otherwise. */
export function parseNumber(text: string): number | null {
  const digits = text.endsWith('%') ? text.slice(0, -1).trim() : text
  return NUMBER.test(digits) ? Number(digits) : null
}

/** Free text of the main reading: what the tab-level plain term matches, or any tag. */
export function compileFreeText(text: string): GuestPredicate {
  const needle = text.toLowerCase()
  const plain = compilePlainText(text)
  return (guest) => plain(guest) || tagsInclude(guest.tags, needle)
}

/** Plain term of the tab-level reading: name, vmid, node or status contains it (not tags). */
export function compilePlainText(text: string): GuestPredicate {
  const needle = text.toLowerCase()
  // Only digits can occur in a vmid: skip building its decimal text for every other needle.
  const digits = DIGITS.test(needle)
  return (guest) =>
    includesFolded(guest.name, needle) ||
    (digits && includesFolded(guest.vmid, needle)) ||
    includesFolded(guest.node, needle) ||
    includesFolded(guest.status, needle)
}

function compileFieldText(field: string, value: string): GuestTerm {
  const lower = field.toLowerCase()
  if (lower === 'tags') {
    const wanted = value
      .split(',')
      .map((part) => part.trim().toLowerCase())
      .filter(Boolean)
    if (wanted.length === 0) return { kind: 'skip' }
    return {
      kind: 'field',
      test: (guest) => tagsIncludeAny(guest.tags, wanted),
      plan: { kind: 'tags', wanted },
    }
  }
  if (!value) return { kind: 'skip' }
  const key = FIELD_BY_LOWER_NAME.get(lower) ?? field
  const needle = value.toLowerCase()
  const plan: TermPlan =
    key === 'name' || key === 'node' || key === 'vmid'
      ? { kind: 'fieldText', field: key, needle }
      : { kind: 'predicate' }
  return { kind: 'field', test: (guest) => fieldIncludes(readField(guest, key), needle), plan }
}

function compileMetric(field: string, op: string, target: number): GuestTerm {
  const compare = compileComparison(op, target)
  const lower = field.toLowerCase()
  const source = METRICS.has(lower) ? lower : (FIELD_BY_LOWER_NAME.get(lower) ?? field)
  let test = compare
  if (source === 'disk') {
    // Usage -1 means "unavailable". It matches only a filter that rejects 0 % (`disk<0`,
    // `disk=-1`): an administrator asking for `disk<10` wants small disks, not unknown ones.
    const takesUnavailable = !compare(0)
    test = (usage) => (usage >= 0 || takesUnavailable) && compare(usage)
  }
  return {
    kind: 'field',
    test: (guest) => test(readMetric(guest, source)),
    plan: { kind: 'metric', source, test },
  }
}

const METRICS: ReadonlySet<string> = new Set(['cpu', 'memory', 'disk', 'uptime'])

/**
 * The number a metric filter compares for one guest: cpu × 100, memory and disk usage percent,
 * uptime (0 unless running), or any other field as it is. NaN when it is not a number, which no
 * comparison accepts.
 */
export function readMetric(guest: Guest, source: string): number {
  let value: unknown
  switch (source) {
    case 'cpu':
      return typeof guest.cpu === 'number' ? guest.cpu * 100 : NaN
    case 'memory':
      value = guest.memory?.usage
      break
    case 'disk':
      value = guest.disk?.usage
      break
    case 'uptime':
      return guest.status === 'running' ? guest.uptime || 0 : 0
    default:
      value = readField(guest, source)
  }
  return typeof value === 'number' ? value : NaN
}

// Any field, including extension fields a newer server sends that Guest does not declare yet.
function readField(guest: Guest, key: string): unknown {
  return (guest as unknown as GuestRecord)[key]
}

function compileComparison(op: string, target: number): (value: number) => boolean {
  switch (op) {
    case '>':
      return (value) => value > target
    case '<':
      return (value) => value < target
    case '>=':
      return (value) => value >= target
    case '<=':
      return (value) => value <= target
    default:
      return (value) => Math.abs(value - target) <= EQUAL_TOLERANCE
  }
}

// Case-insensitive `includes` with a lower-case needle. Most Proxmox names, nodes and statuses are
// already lower case: only a value with capitals or non-ASCII pays for `toLowerCase`.
function includesFolded(value: unknown, needle: string): boolean {
  if (typeof value === 'number') return String(value).includes(needle)
  if (typeof value !== 'string') return false
  if (value.includes(needle)) return true
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i)
    if ((code >= 65 && code <= 90) || code > 127) return value.toLowerCase().includes(needle)
  }
  return false
}

function fieldIncludes(value: unknown, needle: string): boolean {
  if (typeof value === 'boolean') return (value ? 'true' : 'false').includes(needle)
  if (!Array.isArray(value)) return includesFolded(value, needle)
  for (const item of value) if (includesFolded(item, needle)) return true
  return false
}

// Tags may still arrive as a ',' / ';' separated string (spec 000 §3). Searching the raw string
// answers like splitting it, except for a needle that itself spans a separator: cheap beats exact.
function tagsInclude(tags: unknown, needle: string): boolean {
  return fieldIncludes(tags, needle)
}

function tagsIncludeAny(tags: unknown, wanted: readonly string[]): boolean {
  for (const needle of wanted) if (fieldIncludes(tags, needle)) return true
  return false
}
