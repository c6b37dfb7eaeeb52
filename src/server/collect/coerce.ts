// Coercers for Proxmox's Perl-typed JSON (reference/proxmox-api.md §1.6): numbers may arrive as
// strings, booleans as 0/1, optional keys are omitted, and "N/A" stands for unknown.

/** True for a plain JSON object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** A finite number from a number or numeric string; undefined for anything else ("N/A", '', null). */
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

/** A finite number, or `fallback` when the value is missing or not numeric. */
export function toNumber(value: unknown, fallback = 0): number {
  return toOptionalNumber(value) ?? fallback
}

/** Perl booleans: 1/0, "1"/"0", true/false. Anything else is false. */
export function toBool(value: unknown): boolean {
  if (typeof value === 'boolean') return value
  if (typeof value === 'string') return value === '1' || value.toLowerCase() === 'true'
  return toOptionalNumber(value) === 1
}

/** A non-empty string, or undefined. Numbers are stringified (some ids arrive as numbers). */
export function toOptionalString(value: unknown): string | undefined {
  if (typeof value === 'string') return value === '' ? undefined : value
  if (typeof value === 'number' && Number.isFinite(value)) return String(value)
  return undefined
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

/** Accepts a response body with or without the `{ data }` envelope (recorded fixtures have both). */
export function unwrapData(body: unknown): unknown {
  return isRecord(body) && 'data' in body ? body.data : body
}
