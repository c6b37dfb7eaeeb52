import type { InputHTMLAttributes, ReactNode } from 'react'
import { FOCUS_RING } from './button-classes.ts'

/** The one text input look, for inputs that cannot use TextField (file pickers, custom rows). */
export const INPUT = `block w-full rounded-md border border-gray-300 bg-white px-3 py-2 text-sm text-gray-900 placeholder:text-gray-400 disabled:opacity-60 dark:border-gray-600 dark:bg-gray-800 dark:text-gray-100 ${FOCUS_RING}`

/** The one labelled text field, with an optional hint under it (linked by aria-describedby). */
export function TextField({
  label,
  id,
  hint,
  ...input
}: { label: string; id: string; hint?: ReactNode } & InputHTMLAttributes<HTMLInputElement>) {
  const hintId = hint ? `${id}-hint` : undefined
  return (
    <div className="flex min-w-0 flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-gray-700 dark:text-gray-300">
        {label}
      </label>
      <input id={id} className={INPUT} aria-describedby={hintId} {...input} />
      {hint && (
        <p id={hintId} className="text-xs text-gray-600 dark:text-gray-400">
          {hint}
        </p>
      )}
    </div>
  )
}
