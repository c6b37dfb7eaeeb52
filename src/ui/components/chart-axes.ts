// What every mode of the one chart (Chart.tsx) shares: axis look, and values in the units the
// tables use (src/shared/format).
import type uPlot from 'uplot'
import { formatBytes, formatRate } from '../../shared/format/bytes.ts'
import { formatPercent } from '../../shared/format/percent.ts'

/** Pixels per character of the 10 px axis font, and room for the ticks and the gap. */
const CHAR_WIDTH = 6.5
const AXIS_PADDING = 14
export const AXIS_FONT = '10px sans-serif'
/** gray-500: readable on the light and the dark background. */
export const AXIS_STROKE = '#6b7280'
export const GRID_STROKE = 'rgba(127,127,127,0.15)'

/** A y axis wide enough for its longest label: a fixed width cut '2500' to '500'. */
export function axisSize(_u: uPlot, values: string[] | null): number {
  return AXIS_PADDING + CHAR_WIDTH * Math.max(1, ...(values ?? []).map((v) => v.length))
}

/** The unit of a line chart's values. */
export type ChartUnit = 'percent' | 'bytes' | 'rate' | 'number' | 'celsius'

/** A value as the tables show it; '-' for a gap. */
export function formatChartValue(unit: ChartUnit, value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '-'
  switch (unit) {
    case 'percent':
      return formatPercent(value, value < 10 && value !== 0 ? 1 : 0)
    case 'bytes':
      return formatBytes(value)
    case 'rate':
      return formatRate(value)
    case 'celsius':
      return `${Math.round(value)}°C`
    case 'number':
      return value >= 100 ? String(Math.round(value)) : String(Math.round(value * 100) / 100)
  }
}
