import { ChevronDown, ChevronRight, PackageCheck, X } from 'lucide-react'
import { useId, useState } from 'react'
import { Link } from 'wouter'
import { FOCUS_RING } from '../components/button-classes.ts'
import { dismissUpdate } from '../updates/update-store.ts'
import { useVisibleUpdate } from '../updates/useUpdates.ts'

const BUTTON = `rounded p-0.5 hover:bg-emerald-100 dark:hover:bg-emerald-900 ${FOCUS_RING}`

/**
 * Spec 001 §2 Shell: the update banner. Release notes expand in place as plain text (they come
 * from a release feed, so they are never parsed as HTML); Dismiss hides this version only.
 */
export function UpdateBanner() {
  const update = useVisibleUpdate()
  const [open, setOpen] = useState(false)
  const notesId = useId()
  if (!update) return null
  const notes = update.releaseNotes.trim()
  return (
    <div
      role="region"
      aria-label="Update available"
      className="border-b border-emerald-200 bg-emerald-50 px-3 py-1.5 text-sm text-emerald-900 sm:px-4 dark:border-emerald-900 dark:bg-emerald-950 dark:text-emerald-100"
    >
      <div className="flex items-center gap-2">
        <PackageCheck className="size-4 shrink-0" aria-hidden />
        <p className="min-w-0 flex-1">
          Pulse {update.latestVersion} is available
          {update.isPrerelease ? ' (release candidate)' : ''}.{' '}
          <Link
            href="/settings/system"
            className={`font-medium underline underline-offset-2 ${FOCUS_RING}`}
          >
            Update in Settings &gt; System
          </Link>
        </p>
        {notes && (
          <button
            type="button"
            aria-expanded={open}
            aria-controls={notesId}
            onClick={() => setOpen(!open)}
            className={`flex shrink-0 items-center gap-1 text-xs font-medium ${BUTTON}`}
          >
            {open ? (
              <ChevronDown className="size-4" aria-hidden />
            ) : (
              <ChevronRight className="size-4" aria-hidden />
            )}
            Release notes
          </button>
        )}
        <button
          type="button"
          aria-label={`Dismiss update ${update.latestVersion}`}
          onClick={() => dismissUpdate(update.latestVersion)}
          className={`shrink-0 ${BUTTON}`}
        >
          <X className="size-4" aria-hidden />
        </button>
      </div>
      {notes && open && (
        <pre
          id={notesId}
          className="mt-1.5 max-h-60 overflow-auto whitespace-pre-wrap break-words rounded border border-emerald-200 bg-white/70 p-2 font-sans text-xs dark:border-emerald-900 dark:bg-gray-900/60"
        >
          {notes}
        </pre>
      )}
    </div>
  )
}
