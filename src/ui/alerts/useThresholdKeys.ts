// The Thresholds tab's page-wide keys (spec 001 §2): typing a character anywhere focuses the
// search box; Escape clears it. Mounted by ThresholdsTab only.
import { useEffect, type RefObject } from 'react'
import { isPrintableKey } from '../hooks/useGlobalKeys.ts'

function ownsKeys(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return false
  return (
    target.closest('input, textarea, select, [contenteditable]:not([contenteditable="false"])') !==
      null || target.closest('dialog, [role="dialog"], [role="alertdialog"]') !== null
  )
}

export function useThresholdKeys(
  searchRef: RefObject<HTMLInputElement | null>,
  clearSearch: () => void,
): void {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || document.querySelector('dialog[open], [aria-modal="true"]')) {
        return
      }
      if (event.key === 'Escape') {
        // A threshold field's Escape cancels its row edit, not the search.
        if (
          event.target instanceof Element &&
          event.target !== searchRef.current &&
          ownsKeys(event.target)
        ) {
          return
        }
        clearSearch()
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
  }, [searchRef, clearSearch])
}
