import { useEffect, useId, useState } from 'react'
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
 * What to tell the user when validation changed what they typed (spec 001 §5 limits), or null:
 * a value is never changed silently.
 */
export function adjustedNote(text: string, result: number): string | null {
  const trimmed = text.trim()
  if (trimmed === String(result)) return null
  if (!/^-?\d+$/.test(trimmed)) return `"${trimmed}" is not a whole number; set to ${result}.`
  const typed = Number(trimmed)
  if (typed > result) return `${typed} is above the maximum of ${result}; set to ${result}.`
  if (typed < result) return `${typed} is below the minimum of ${result}; set to ${result}.`
  return null
}

/**
 * A number field that accepts any typing (a lone '-' on the way to -1) and validates on commit:
 * clamping each keystroke would turn '-' into 0 before the 1 arrives. When validation changes
 * the value, a note under the field says why (150 % becomes 100: the maximum is 100).
 */
export function ThresholdInput({ label, value, parse, onCommit, unit, id }: Props) {
  const [text, setText] = useState(String(value))
  const [note, setNote] = useState<string | null>(null)
  const noteId = useId()
  useEffect(() => setText(String(value)), [value])
  const commit = () => {
    const next = parse(text)
    setNote(adjustedNote(text, next))
    setText(String(next))
    if (next !== value) onCommit(next)
  }
  return (
    <span className="inline-flex flex-col items-end gap-0.5">
      <span className="inline-flex items-center gap-1">
        <input
          id={id}
          type="text"
          inputMode="numeric"
          aria-label={label}
          aria-describedby={note ? noteId : undefined}
          value={text}
          onChange={(event) => {
            setText(event.target.value)
            setNote(null)
          }}
          onBlur={commit}
          onKeyDown={(event) => {
            if (event.key === 'Enter') commit()
          }}
          className={NUMBER_INPUT}
        />
        {unit && <span className="text-xs text-gray-500 dark:text-gray-400">{unit}</span>}
      </span>
      {note && (
        <span
          id={noteId}
          role="status"
          className="max-w-48 text-right text-xs text-amber-700 dark:text-amber-400"
        >
          {note}
        </span>
      )}
    </span>
  )
}
