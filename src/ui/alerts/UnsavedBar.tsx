import { useSnapshot } from 'valtio'
import { useRole } from '../auth/useRole.ts'
import { BUTTON } from '../components/button-classes.ts'
import { SAVE_BAR } from '../components/toast-store.ts'
import { alertConfigState, discardAlertConfig, saveAlertConfig } from './config-store.ts'

/**
 * The unsaved-changes bar of the alert tabs (spec 001 §2 Shell): shown only while the working
 * config differs from the saved one, stuck to the bottom of the page so it stays in reach on a
 * phone.
 */
export function UnsavedBar() {
  const { dirty, saving, loading } = useSnapshot(alertConfigState)
  // Only an admin saves the alert config (issue 29 item 6); the tabs are read-only for others.
  const admin = useRole().can('admin')
  if (!dirty || !admin) return null
  return (
    <div
      role="region"
      aria-label="Unsaved changes"
      {...SAVE_BAR}
      className="sticky bottom-0 z-20 mt-3 flex flex-wrap items-center justify-between gap-2 border-t border-amber-300 bg-amber-50 px-3 py-2 shadow-[0_-2px_6px_rgba(0,0,0,0.08)] sm:px-4 dark:border-amber-700 dark:bg-amber-950"
    >
      <p className="text-sm font-medium text-amber-900 dark:text-amber-100">
        You have unsaved changes
      </p>
      <div className="flex gap-2">
        <button
          type="button"
          className={BUTTON.secondary}
          disabled={saving || loading}
          onClick={() => void discardAlertConfig()}
        >
          Discard
        </button>
        <button
          type="button"
          className={`${BUTTON.primary} disabled:opacity-60`}
          disabled={saving || loading}
          onClick={() => void saveAlertConfig()}
        >
          {saving ? 'Saving...' : 'Save Changes'}
        </button>
      </div>
    </div>
  )
}
