import type { UsageKind } from '../../shared/format/thresholds.ts'
import { barClass } from '../lib/colours.ts'

interface MetricBarProps {
  kind: UsageKind
  percent: number
  text: string
}

/** A small usage bar with its text on top; colour from the spec's thresholds. */
export function MetricBar({ kind, percent, text }: MetricBarProps) {
  const width = Math.max(0, Math.min(100, percent))
  return (
    <div
      className="relative h-4 w-full overflow-hidden rounded bg-gray-200 dark:bg-gray-700"
      role="meter"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.round(width)}
      aria-valuetext={text}
    >
      <div
        className={`absolute inset-y-0 left-0 transition-[width] duration-500 ${barClass(kind, percent)}`}
        style={{ width: `${width}%` }}
      />
      <span className="absolute inset-0 flex items-center justify-center text-[11px] leading-none font-medium text-gray-800 tabular-nums dark:text-gray-100">
        {text}
      </span>
    </div>
  )
}
