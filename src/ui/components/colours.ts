// The one map from the colour names of src/shared/format (spec 000 §9 thresholds live there) to
// Tailwind classes, for every screen. Class names are literal so Tailwind finds them.
import {
  getIoRateColour,
  getUsageColour,
  type Colour,
  type UsageKind,
} from '../../shared/format/thresholds.ts'

/** Fill of a bar. */
export const BAR_FILL: Record<Colour, string> = {
  grey: 'bg-gray-400/60',
  green: 'bg-emerald-500/70 dark:bg-emerald-500/60',
  yellow: 'bg-amber-400/80 dark:bg-amber-500/70',
  orange: 'bg-orange-500/80 dark:bg-orange-500/70',
  red: 'bg-red-500/80 dark:bg-red-500/70',
}

/** Text colour. */
export const TEXT: Record<Colour, string> = {
  grey: 'text-gray-500 dark:text-gray-400',
  green: 'text-emerald-600 dark:text-emerald-400',
  yellow: 'text-amber-600 dark:text-amber-400',
  orange: 'text-orange-600 dark:text-orange-400',
  red: 'text-red-600 dark:text-red-400',
}

/** A small badge. */
export const BADGE: Record<Colour, string> = {
  grey: 'bg-gray-100 text-gray-700 dark:bg-gray-800 dark:text-gray-300',
  green: 'bg-emerald-100 text-emerald-800 dark:bg-emerald-900/50 dark:text-emerald-300',
  yellow: 'bg-amber-100 text-amber-800 dark:bg-amber-900/50 dark:text-amber-300',
  orange: 'bg-orange-100 text-orange-800 dark:bg-orange-900/50 dark:text-orange-300',
  red: 'bg-red-100 text-red-800 dark:bg-red-900/50 dark:text-red-300',
}

/** The shape of a small badge (colour from BADGE). */
export const PILL =
  'inline-flex shrink-0 items-center rounded px-1.5 py-px text-[10px] leading-4 font-semibold'

/** Background class for a usage bar's fill (CPU 80/90, memory 75/85, disk 80/90). */
export function barClass(kind: UsageKind, percent: number): string {
  return BAR_FILL[getUsageColour(kind, percent)]
}

/** Text class for an I/O rate in bytes/s: grey < 1 MiB/s, green < 10, yellow < 50, else red. */
export function ioClass(bytesPerSecond: number): string {
  return TEXT[getIoRateColour(bytesPerSecond)]
}

/** Text class for uptime: orange under an hour (the worker sets `uptimeShort`). */
export function uptimeClass(short: boolean): string {
  return short ? TEXT.orange : ''
}

/**
 * Canvas colours of the line charts (uPlot draws on a canvas, not with classes): mid tones that
 * read on the light and the dark background. Series take them in order.
 */
export const CHART_COLOURS = ['#3b82f6', '#10b981', '#f59e0b', '#8b5cf6', '#ef4444'] as const

/** Shaded regions of alert occurrences on a chart, by level (amber and red, translucent). */
export const CHART_BAND_FILL = {
  warning: 'rgba(245, 158, 11, 0.18)',
  critical: 'rgba(239, 68, 68, 0.18)',
} as const

/** A marked moment (an alert's start) on a chart. */
export const CHART_MARKER_STROKE = '#ef4444'
