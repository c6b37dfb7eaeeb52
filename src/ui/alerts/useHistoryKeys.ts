// The history tab's page-wide keys (spec 001 §2 history): typing a character focuses the search
// box, Escape clears it. Mounted by HistoryTab only.
import { useEffect, type RefObject } from 'react'
import { isPrintableKey } from '../hooks/useGlobalKeys.ts'
import { historyState } from './history-state.ts'

function ownsKeys(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return false
  return (
    target.closest('input, textarea, select, [contenteditable]:not([contenteditable="false"])') !==
      null || target.closest('dialog, [role="dialog"], [role="alertdialog"]') !== null
  )
}

/** Escape clears the search (also from inside the box); a printable key types into it. */
export function useHistoryKeys(searchRef: RefObject<HTMLInputElement | null>): void {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || document.querySelector('dialog[open], [aria-modal="true"]')) {
        return
      }
      if (event.key === 'Escape') {
        const inSearch = event.target === searchRef.current
        if (!inSearch && ownsKeys(event.target)) return
        historyState.search = ''
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
