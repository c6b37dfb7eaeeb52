// Tailwind classes for the colour names of src/shared/format (spec 000 §9 thresholds live there).
// Class names are literal so Tailwind finds them.
import {
  getIoRateColour,
  getUsageColour,
  type Colour,
  type UsageKind,
} from '../../shared/format/thresholds.ts'

const BAR_CLASS: Record<Colour, string> = {
  grey: 'bg-gray-400/60',
  green: 'bg-emerald-500/70 dark:bg-emerald-500/60',
  yellow: 'bg-amber-400/80 dark:bg-amber-500/70',
  orange: 'bg-orange-500/80 dark:bg-orange-500/70',
  red: 'bg-red-500/80 dark:bg-red-500/70',
}

const TEXT_CLASS: Record<Colour, string> = {
  grey: 'text-gray-500 dark:text-gray-400',
  green: 'text-emerald-600 dark:text-emerald-400',
  yellow: 'text-amber-600 dark:text-amber-400',
  orange: 'text-orange-600 dark:text-orange-400',
  red: 'text-red-600 dark:text-red-400',
}

/** Background class for a usage bar's fill (CPU 80/90, memory 75/85, disk 80/90). */
export function barClass(kind: UsageKind, percent: number): string {
  return BAR_CLASS[getUsageColour(kind, percent)]
}

/** Text class for an I/O rate in bytes/s: grey < 1 MiB/s, green < 10, yellow < 50, else red. */
export function ioClass(bytesPerSecond: number): string {
  return TEXT_CLASS[getIoRateColour(bytesPerSecond)]
}

/** Text class for uptime: orange under an hour (the worker sets `uptimeShort`). */
export function uptimeClass(short: boolean): string {
  return short ? TEXT_CLASS.orange : ''
}
