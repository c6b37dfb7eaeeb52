// The one set of coercion helpers for untyped JSON, in every runtime (server collectors, worker,
// views, UI API readers). Two families, kept apart on purpose:
// - lenient (toNumber, toOptionalNumber, toBool): Proxmox's Perl-typed JSON
//   (reference/proxmox-api.md §1.6), where numbers may arrive as strings and booleans as 0/1;
// - strict (finiteOr, textOr): our own wire values, already typed; a string is not a number. The
//   100k-row view paths use these: one typeof check, no parsing.

/** True for a plain JSON object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** A finite number from a number or numeric string, booleans as 1/0; else undefined. */
export function toOptionalNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined
  if (typeof value === 'string') {
    const trimmed = value.trim()
    if (trimmed === '') return undefined
    const parsed = Number(trimmed)
    return Number.isFinite(parsed) ? parsed : undefined
  }
  if (typeof value === 'boolean') return value ? 1 : 0
  return undefined
}

/** Lenient: a finite number (numeric strings too), or `fallback` when missing or not numeric. */
export function toNumber(value: unknown, fallback = 0): number {
  return toOptionalNumber(value) ?? fallback
}

/** Strict: `value` when it is a finite number, else `fallback` (0, NaN, null...). No parsing. */
export function finiteOr<T>(value: unknown, fallback: T): number | T {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback
}

/** Perl booleans: true/1/"1"/"true" and false/0/"0"/"false" (any case); else undefined. */
export function toOptionalBool(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value
  if (typeof value === 'string') {
    const lower = value.toLowerCase()
    if (value === '1' || lower === 'true') return true
    if (value === '0' || lower === 'false') return false
    return undefined
  }
  const n = toOptionalNumber(value)
  return n === 1 ? true : n === 0 ? false : undefined
}

/** Perl booleans (toOptionalBool); anything else is `fallback` (false). */
export function toBool(value: unknown, fallback = false): boolean {
  return toOptionalBool(value) ?? fallback
}

/** A non-empty string, or undefined. Numbers are stringified (some ids arrive as numbers). */
export function toOptionalString(value: unknown): string | undefined {
  if (typeof value === 'string') return value === '' ? undefined : value
  if (typeof value === 'number' && Number.isFinite(value)) return String(value)
  return undefined
}

/** Strict: `value` when it is a string (even empty), else `fallback` (''). */
export function textOr(value: unknown, fallback = ''): string {
  return typeof value === 'string' ? value : fallback
}

/** Clamps to [min, max]; Proxmox `cpu` can read slightly above 1. */
export function clampNumber(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value))
}

/** Percent 0-100 of used over total, two decimals; 0 when total is 0. */
export function toPercent(used: number, total: number): number {
  if (total <= 0) return 0
  return Math.round(clampNumber((used / total) * 100, 0, 100) * 100) / 100
}
