// Sizes and rates (spec 000 §9): base 1024 up to PB; rates get a '/s' suffix.

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'] as const

/** Bytes as text in base 1024 ('0 B', '512 B', '1.5 KB', '3 GB'), capped at PB; one decimal, '.0' dropped. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 B'
  let value = bytes
  let unit = 0
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024
    unit++
  }
  if (unit === 0) return `${Math.round(value)} B`
  // Rounding 1023.96 KB to one decimal would print '1024 KB'; promote instead.
  if (Math.round(value * 10) / 10 >= 1024 && unit < UNITS.length - 1) {
    value /= 1024
    unit++
  }
  return `${trimDecimal(value)} ${UNITS[unit]}`
}

/** Bytes per second as text: `formatBytes` plus '/s'. */
export function formatRate(bytesPerSecond: number): string {
  return `${formatBytes(bytesPerSecond)}/s`
}

function trimDecimal(value: number): string {
  const fixed = value.toFixed(1)
  return fixed.endsWith('.0') ? fixed.slice(0, -2) : fixed
}
