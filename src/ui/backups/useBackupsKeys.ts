// The backups tab's page-wide keys (spec 000 §2.4): Escape resets filters, typing a character
// focuses the search box. Mounted by BackupsPage only.
import { useEffect, type RefObject } from 'react'
import { isPrintableKey } from '../hooks/useGlobalKeys.ts'
import { clearNodeSelection } from '../summary/selection.ts'
import { backupsState, hasActiveBackupsFilters, resetBackupsFilters } from './backups-state.ts'

/** True when the key belongs to a field or a dialog. */
function ownsKeys(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return false
  return (
    target.closest('input, textarea, select, [contenteditable]:not([contenteditable="false"])') !==
      null || target.closest('dialog, [role="dialog"], [role="alertdialog"]') !== null
  )
}

/** Escape: deselect the summary node, else reset active filters. A printable key types into search. */
export function useBackupsKeys(searchRef: RefObject<HTMLInputElement | null>): void {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || document.querySelector('dialog[open], [aria-modal="true"]')) {
        return
      }
      if (event.key === 'Escape') {
        if (event.target instanceof Element && event.target.closest('[role="dialog"], dialog')) {
          return
        }
        if (clearNodeSelection()) {
          backupsState.scope = null
          return
        }
        if (hasActiveBackupsFilters(backupsState)) resetBackupsFilters()
        return
      }
      if (!isPrintableKey(event) || ownsKeys(event.target)) return
      const input = searchRef.current
      if (!input) return
      // Focusing during keydown makes the browser type this very key into the search box.
      input.focus()
      input.setSelectionRange(input.value.length, input.value.length)
    }
    document.addEventListener('keydown', onKeyDown)
    return () => document.removeEventListener('keydown', onKeyDown)
  }, [searchRef])
}
