// Percentages for bars and labels.

/** A percent value (0-100) as text with `digits` decimals, '-' when not a finite number. */
export function formatPercent(percent: number, digits = 0): string {
  if (!Number.isFinite(percent)) return '-'
  return `${percent.toFixed(digits)}%`
}

/** A fraction (0-1, as Proxmox reports cpu) as a percent number. */
export function toPercent(fraction: number): number {
  return Number.isFinite(fraction) ? fraction * 100 : 0
}
