import { ShieldOff, X } from 'lucide-react'
import { useState } from 'react'
import { FOCUS_RING } from '../components/button-classes.ts'

export const AUTH_BANNER_DISMISSED_KEY = 'pulse.authBannerDismissed'

/** The warning's text, also appended to the demo banner in demo mode. */
export const AUTH_DISABLED_TEXT =
  'Authentication is disabled: anyone who can reach this address can see and change everything.'

function wasDismissed(): boolean {
  try {
    return sessionStorage.getItem(AUTH_BANNER_DISMISSED_KEY) === '1'
  } catch {
    return false
  }
}

/** Shown while the server runs with authentication disabled; dismissed for the browser session. */
export function AuthDisabledBanner({ active }: { active: boolean }) {
  const [dismissed, setDismissed] = useState(wasDismissed)
  if (!active || dismissed) return null
  const dismiss = () => {
    setDismissed(true)
    try {
      sessionStorage.setItem(AUTH_BANNER_DISMISSED_KEY, '1')
    } catch {
      // Dismissal then lasts only until reload.
    }
  }
  return (
    <div
      role="note"
      className="flex items-center gap-2 border-b border-amber-200 bg-amber-50 px-3 py-1.5 text-sm text-amber-900 sm:px-4 dark:border-amber-900 dark:bg-amber-950 dark:text-amber-200"
    >
      <ShieldOff className="size-4 shrink-0" aria-hidden />
      <span>{AUTH_DISABLED_TEXT}</span>
      <button
        type="button"
        aria-label="Dismiss authentication warning"
        onClick={dismiss}
        className={`ml-auto rounded p-0.5 hover:bg-amber-100 dark:hover:bg-amber-900 ${FOCUS_RING}`}
      >
        <X className="size-4" aria-hidden />
      </button>
    </div>
  )
}
