import { useEffect, useState } from 'react'
import { FOCUS_RING } from '../components/button-classes.ts'

interface Props {
  label: string
  /** The committed value. */
  value: number
  /** Validates the text (spec 001 §5) when the field is left or Enter is pressed. */
  parse: (text: string) => number
  onCommit: (value: number) => void
  unit?: string
  id?: string
}

export const NUMBER_INPUT = `w-16 rounded border border-gray-300 bg-white px-1.5 py-0.5 text-right text-sm tabular-nums dark:border-gray-600 dark:bg-gray-800 ${FOCUS_RING}`

/**
 * A number field that accepts any typing (a lone '-' on the way to -1) and validates on commit:
 * clamping each keystroke would turn '-' into 0 before the 1 arrives.
 */
export function ThresholdInput({ label, value, parse, onCommit, unit, id }: Props) {
  const [text, setText] = useState(String(value))
  useEffect(() => setText(String(value)), [value])
  const commit = () => {
    const next = parse(text)
    setText(String(next))
    if (next !== value) onCommit(next)
  }
  return (
    <span className="inline-flex items-center gap-1">
      <input
        id={id}
        type="text"
        inputMode="numeric"
        aria-label={label}
        value={text}
        onChange={(event) => setText(event.target.value)}
        onBlur={commit}
        onKeyDown={(event) => {
          if (event.key === 'Enter') commit()
        }}
        className={NUMBER_INPUT}
      />
      {unit && <span className="text-xs text-gray-500 dark:text-gray-400">{unit}</span>}
    </span>
  )
}
