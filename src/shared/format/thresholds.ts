// Colour thresholds (spec 000 §9), defined once for the whole UI.
import { SHORT_UPTIME_SECONDS } from './uptime.ts'

/** Colour names the UI maps to its palette. */
export const COLOURS = ['grey', 'green', 'yellow', 'orange', 'red'] as const
export type Colour = (typeof COLOURS)[number]

/** Usage kinds with their own yellow / red thresholds. */
export const USAGE_THRESHOLDS = {
  cpu: { yellow: 80, red: 90 },
  memory: { yellow: 75, red: 85 },
  disk: { yellow: 80, red: 90 },
  generic: { yellow: 75, red: 90 },
} as const
export type UsageKind = keyof typeof USAGE_THRESHOLDS

const MIB = 1024 * 1024

/** Colour of a usage percent: red at or above the red threshold, yellow at or above yellow; grey when unavailable (< 0). */
export function getUsageColour(kind: UsageKind, percent: number): Colour {
  if (!Number.isFinite(percent) || percent < 0) return 'grey'
  const limits = USAGE_THRESHOLDS[kind]
  if (percent >= limits.red) return 'red'
  if (percent >= limits.yellow) return 'yellow'
  return 'green'
}

/** Colour of an I/O rate in bytes/s: under 1 MiB/s grey, under 10 green, under 50 yellow, else red. */
export function getIoRateColour(bytesPerSecond: number): Colour {
  const mib = Number.isFinite(bytesPerSecond) ? bytesPerSecond / MIB : 0
  if (mib < 1) return 'grey'
  if (mib < 10) return 'green'
  if (mib < 50) return 'yellow'
  return 'red'
}

/** Colour of an uptime: orange under an hour, otherwise none (null). */
export function getUptimeColour(seconds: number): Colour | null {
  return seconds < SHORT_UPTIME_SECONDS ? 'orange' : null
}

/** Colour of a node CPU temperature in °C: green below 70, yellow 70-79, red 80 or more. */
export function getNodeTemperatureColour(celsius: number): Colour {
  if (celsius >= 80) return 'red'
  if (celsius >= 70) return 'yellow'
  return 'green'
}

/** Colour of a storage usage bar: 90% and above red, 80% and above yellow, else green. */
export function getStorageUsageColour(percent: number): Colour {
  return getUsageColour('disk', percent)
}
