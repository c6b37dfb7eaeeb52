// The storage tab's page-wide keys (spec 000 §2.1, §2.3): Escape deselects the node, else resets
// the filters; a printable key outside a field types into the visible search box.
import { useEffect, type RefObject } from 'react'
import { isPrintableKey } from '../hooks/useGlobalKeys.ts'
import { clearNodeSelection } from '../summary/selection.ts'
import { hasActiveStorageFilters, resetStorageFilters, storageState } from './storage-state.ts'

/** True when the key belongs to a field or a dialog that handles its own keys. */
function ownsKeys(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return false
  return (
    target.closest(
      'input, textarea, select, [contenteditable]:not([contenteditable="false"]), dialog, [role="dialog"]',
    ) !== null
  )
}

/** Binds the keys while the storage tab is mounted. `searchRef` is the current sub-tab's box. */
export function useStorageKeys(searchRef: RefObject<HTMLInputElement | null>): void {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented) return
      if (document.querySelector('dialog[open], [aria-modal="true"]')) return
      if (event.key === 'Escape') {
        if (event.target instanceof Element && event.target.closest('[role="dialog"], dialog'))
          return
        if (clearNodeSelection()) return
        if (hasActiveStorageFilters(storageState)) resetStorageFilters()
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
