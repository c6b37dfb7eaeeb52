import { ShieldAlert } from 'lucide-react'
import { useEffect, useState } from 'react'
import { useSnapshot } from 'valtio'
import { Link } from 'wouter'
import { refreshSecurityStatus, securityStatusState } from '../auth/security-status.ts'
import { FOCUS_RING } from '../components/button-classes.ts'
import { securityWarning } from '../settings/security/posture.ts'
import { finiteOr } from '../../shared/model/coerce.ts'

/** localStorage key of the dismissal: `{"until": <epoch ms>}`. */
export const SECURITY_WARNING_KEY = 'pulse.securityWarningDismissed'

const DAY_MS = 24 * 60 * 60 * 1000

/** Spec 001 §4, §9: dismiss for 1 day, 1 week, or forever (100 years). */
export const DISMISS_PERIODS = [
  { label: '1 day', name: 'Dismiss for 1 day', until: (now: number) => now + DAY_MS },
  { label: '1 week', name: 'Dismiss for 1 week', until: (now: number) => now + 7 * DAY_MS },
  {
    label: 'Forever',
    name: 'Dismiss forever',
    until: (now: number) => {
      const date = new Date(now)
      date.setFullYear(date.getFullYear() + 100)
      return date.getTime()
    },
  },
] as const

/** The dismissal's expiry from the stored text, or null when absent or unreadable. */
export function parseDismissal(raw: string | null): number | null {
  if (raw === null) return null
  try {
    const value = JSON.parse(raw) as unknown
    if (typeof value !== 'object' || value === null) return null
    const until = (value as { until?: unknown }).until
    return finiteOr(until, null)
  } catch {
    return null
  }
}

/** True while a stored dismissal has not expired; a corrupt value counts as not dismissed. */
export function isDismissed(now = Date.now()): boolean {
  let raw: string | null
  try {
    raw = localStorage.getItem(SECURITY_WARNING_KEY)
  } catch {
    return false
  }
  const until = parseDismissal(raw)
  return until !== null && until > now
}

function storeDismissal(until: number): void {
  try {
    localStorage.setItem(SECURITY_WARNING_KEY, JSON.stringify({ until }))
  } catch {
    // Blocked storage: dismissed until the page reloads.
  }
}

/**
 * The shell's security warning (spec 001 §4 Security banner): public access without
 * authentication, or a score below 4 of 5, links to Settings > Security; dismissible for a day,
 * a week or for good.
 */
export function SecurityBanner() {
  const { status, attempted } = useSnapshot(securityStatusState)
  const [dismissed, setDismissed] = useState(() => isDismissed())

  // The auth flow normally reads the status; after a fresh login it may not have.
  useEffect(() => {
    if (!attempted) refreshSecurityStatus().catch(() => {})
  }, [attempted])

  const reason = securityWarning(status)
  if (!reason || dismissed) return null
  const dismiss = (until: number) => {
    storeDismissal(until)
    setDismissed(true)
  }
  return (
    <div
      role="note"
      aria-label="Security warning"
      className="flex flex-wrap items-center gap-x-3 gap-y-1 border-b border-amber-200 bg-amber-50 px-3 py-1.5 text-sm text-amber-900 sm:px-4 dark:border-amber-900 dark:bg-amber-950 dark:text-amber-200"
    >
      <span className="flex min-w-60 flex-1 items-center gap-2">
        <ShieldAlert className="size-4 shrink-0" aria-hidden />
        <span className="min-w-0">
          {reason}{' '}
          <Link
            href="/settings/security"
            className={`rounded font-medium underline hover:no-underline ${FOCUS_RING}`}
          >
            Review security settings
          </Link>
        </span>
      </span>
      <span role="group" aria-label="Dismiss" className="flex items-center gap-1 text-xs">
        <span className="text-amber-800 dark:text-amber-300">Dismiss:</span>
        {DISMISS_PERIODS.map((period) => (
          <button
            key={period.label}
            type="button"
            aria-label={period.name}
            onClick={() => dismiss(period.until(Date.now()))}
            className={`rounded px-1.5 py-0.5 font-medium hover:bg-amber-100 dark:hover:bg-amber-900 ${FOCUS_RING}`}
          >
            {period.label}
          </button>
        ))}
      </span>
    </div>
  )
}
