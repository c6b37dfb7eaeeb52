import { Loader2 } from 'lucide-react'
import { BUTTON } from '../../components/button-classes.ts'
import { SAVE_BAR } from '../../components/toast-store.ts'

const DISABLED = 'disabled:cursor-not-allowed disabled:opacity-50'

/**
 * The System tab's save bar (spec 001 §2): stays at the bottom of the screen while scrolling so
 * Save is in reach on a phone. Discard reloads the page.
 */
export function SaveBar({
  changed,
  saving,
  reloading,
  onSave,
  onDiscard,
  error,
}: {
  /** Why the last save failed (the server's message names the field), or ''. */
  error: string
  changed: boolean
  saving: boolean
  /** Saved: the page reloads shortly; nothing more to do. */
  reloading: boolean
  onSave: () => void
  onDiscard: () => void
}) {
  const status = reloading
    ? 'Saved. Reloading...'
    : saving
      ? 'Saving...'
      : changed
        ? 'You have unsaved changes'
        : 'No unsaved changes'
  return (
    <div
      role="region"
      aria-label="Save system settings"
      {...SAVE_BAR}
      className="sticky bottom-0 z-10 -mx-1 flex flex-wrap items-center justify-between gap-2 rounded-lg border border-gray-200 bg-white/95 px-4 py-3 shadow-sm backdrop-blur dark:border-gray-800 dark:bg-gray-900/95"
    >
      {error && (
        <p role="alert" className="w-full text-sm text-red-700 dark:text-red-300">
          {error}
        </p>
      )}
      <p
        role="status"
        className={`text-sm ${changed && !reloading ? 'font-medium text-amber-700 dark:text-amber-300' : 'text-gray-600 dark:text-gray-400'}`}
      >
        {status}
      </p>
      <div className="flex gap-2">
        <button
          type="button"
          className={`${BUTTON.secondary} ${DISABLED}`}
          disabled={!changed || saving || reloading}
          onClick={onDiscard}
        >
          Discard
        </button>
        <button
          type="button"
          className={`${BUTTON.primary} ${DISABLED}`}
          disabled={!changed || saving || reloading}
          onClick={onSave}
        >
          {saving && <Loader2 className="size-4 animate-spin" aria-hidden />}
          Save
        </button>
      </div>
    </div>
  )
}
