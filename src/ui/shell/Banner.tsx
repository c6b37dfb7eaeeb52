import { X } from 'lucide-react'
import { useState, type ReactNode } from 'react'
import { FOCUS_RING } from '../components/button-classes.ts'

const TONES = {
  amber: {
    box: 'border-amber-200 bg-amber-50 text-amber-900 dark:border-amber-900 dark:bg-amber-950 dark:text-amber-200',
    button: 'hover:bg-amber-100 dark:hover:bg-amber-900',
  },
  blue: {
    box: 'border-blue-200 bg-blue-50 text-blue-800 dark:border-blue-900 dark:bg-blue-950 dark:text-blue-200',
    button: 'hover:bg-blue-100 dark:hover:bg-blue-900',
  },
} as const

function wasDismissed(key: string): boolean {
  try {
    return sessionStorage.getItem(key) === '1'
  } catch {
    return false
  }
}

/**
 * A notice strip under the header with a dismiss button; the dismissal is remembered under
 * `dismissKey` in session storage for the rest of the browser session.
 */
export function Banner({
  active,
  tone,
  icon,
  dismissKey,
  dismissLabel,
  children,
}: {
  active: boolean
  tone: keyof typeof TONES
  /** Shown before the text. */
  icon: ReactNode
  dismissKey: string
  /** The dismiss button's accessible name. */
  dismissLabel: string
  children: ReactNode
}) {
  const [dismissed, setDismissed] = useState(() => wasDismissed(dismissKey))
  if (!active || dismissed) return null
  const dismiss = () => {
    setDismissed(true)
    try {
      sessionStorage.setItem(dismissKey, '1')
    } catch {
      // Dismissal then lasts only until reload.
    }
  }
  return (
    <div
      role="note"
      className={`flex items-center gap-2 border-b px-3 py-1.5 text-sm sm:px-4 ${TONES[tone].box}`}
    >
      {icon}
      <span>{children}</span>
      <button
        type="button"
        aria-label={dismissLabel}
        onClick={dismiss}
        className={`ml-auto rounded p-0.5 ${TONES[tone].button} ${FOCUS_RING}`}
      >
        <X className="size-4" aria-hidden />
      </button>
    </div>
  )
}
