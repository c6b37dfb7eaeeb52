import type { Colour } from '../../shared/format/thresholds.ts'
import { BAR_FILL } from './colour-classes.ts'

interface UsageBarProps {
  percent: number
  colour: Colour
  text: string
  /** Accessible name of the meter ('Usage', 'SSD life'). */
  label: string
  title?: string
}

/** A bar with its text on top; the colour comes from the worker (spec 000 §9). */
export function UsageBar({ percent, colour, text, label, title }: UsageBarProps) {
  const width = Math.max(0, Math.min(100, percent))
  return (
    <div
      className="relative h-4 w-full min-w-16 overflow-hidden rounded bg-gray-200 dark:bg-gray-700"
      role="meter"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.round(width)}
      aria-valuetext={text}
      data-colour={colour}
      title={title}
    >
      <div
        className={`absolute inset-y-0 left-0 transition-[width] duration-500 ${BAR_FILL[colour]}`}
        style={{ width: `${width}%` }}
      />
      <span className="absolute inset-0 flex items-center justify-center text-[11px] leading-none font-medium text-gray-800 tabular-nums dark:text-gray-100">
        {text}
      </span>
    </div>
  )
}
