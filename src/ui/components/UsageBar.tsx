import { getUsageColour, type Colour, type UsageKind } from '../../shared/format/thresholds.ts'
import { BAR_FILL } from './colours.ts'

type UsageBarProps = {
  percent: number
  text: string
  /** Accessible name of the meter ('Usage', 'SSD life'); the column names it when omitted. */
  label?: string
  title?: string
} & (
  | { /** Colour from the spec's thresholds for this metric (spec 000 §9). */ kind: UsageKind }
  | { /** Colour the worker already chose. */ colour: Colour }
)

/** The one usage bar: a meter with its text on top, coloured by kind or by a given colour. */
export function UsageBar(props: UsageBarProps) {
  const { percent, text, label, title } = props
  const width = Math.max(0, Math.min(100, percent))
  const colour = 'colour' in props ? props.colour : getUsageColour(props.kind, percent)
  return (
    <div
      className="relative h-4 w-full overflow-hidden rounded bg-gray-200 dark:bg-gray-700"
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
