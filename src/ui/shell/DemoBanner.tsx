import { Info, X } from 'lucide-react'
import { useState } from 'react'
import { FOCUS_RING } from '../components/button-classes.ts'

export const DEMO_DISMISSED_KEY = 'pulse.demoBannerDismissed'

function wasDismissed(): boolean {
  try {
    return sessionStorage.getItem(DEMO_DISMISSED_KEY) === '1'
  } catch {
    return false
  }
}

/**
 * Read-only demo notice; dismissed for the rest of the browser session. The demo runs without
 * authentication, so it says so here instead of a second banner.
 */
export function DemoBanner({
  active,
  authDisabled = false,
}: {
  active: boolean
  authDisabled?: boolean
}) {
  const [dismissed, setDismissed] = useState(wasDismissed)
  if (!active || dismissed) return null
  const dismiss = () => {
    setDismissed(true)
    try {
      sessionStorage.setItem(DEMO_DISMISSED_KEY, '1')
    } catch {
      // Dismissal then lasts only until reload.
    }
  }
  return (
    <div
      role="note"
      className="flex items-center gap-2 border-b border-blue-200 bg-blue-50 px-3 py-1.5 text-sm text-blue-800 sm:px-4 dark:border-blue-900 dark:bg-blue-950 dark:text-blue-200"
    >
      <Info className="size-4 shrink-0" aria-hidden />
      <span>
        Demo mode: you are watching a simulated Proxmox estate running on this machine.
        {authDisabled && ' Authentication is disabled, so anyone who can reach it can use it.'}
      </span>
      <button
        type="button"
        aria-label="Dismiss demo banner"
        onClick={dismiss}
        className={`ml-auto rounded p-0.5 hover:bg-blue-100 dark:hover:bg-blue-900 ${FOCUS_RING}`}
      >
        <X className="size-4" aria-hidden />
      </button>
    </div>
  )
}
