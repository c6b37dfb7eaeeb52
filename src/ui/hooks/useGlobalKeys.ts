// The dashboard's page-wide keys (spec 000 §2.1, §2.2 "Global keys"). Mounted by DashboardPage
// only, so the keys are active exactly while the dashboard route is shown.
import { useEffect, useRef, type RefObject } from 'react'
import { hasActiveDashboardFilters, resetDashboardFilters, uiState } from '../state.ts'
import { clearNodeSelection } from '../summary/selection.ts'

/** True for a key that types one visible character (Shift allowed; Ctrl, Meta, Alt are not). */
export function isPrintableKey(event: KeyboardEvent): boolean {
  if (event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return false
  // Space is left alone: on a focused button it means "press", and it scrolls the page.
  return [...event.key].length === 1 && event.key.trim() !== ''
}

/** True when the key belongs to a field, or to a dialog that handles its own keys. */
function ownsKeys(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return false
  if (target.closest('input, textarea, select, [contenteditable]:not([contenteditable="false"])')) {
    return true
  }
  return target.closest('dialog, [role="dialog"], [role="alertdialog"]') !== null
}

/** A modal is open somewhere: the page behind it takes no keys. */
function modalOpen(): boolean {
  return document.querySelector('dialog[open], [aria-modal="true"]') !== null
}

/**
 * Escape: deselect the summary-table node, else reset active filters, else show or hide the
 * filter bar (open popovers take Escape first, see useDismiss). A printable key anywhere outside
 * a field shows the filter bar and types into the search box.
 */
export function useGlobalKeys(searchRef: RefObject<HTMLInputElement | null>): void {
  // Set when a key arrives while the search box is not rendered: focus it once it is.
  const focusPending = useRef(false)

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || modalOpen()) return
      if (event.key === 'Escape') {
        if (event.target instanceof Element && event.target.closest('[role="dialog"], dialog')) {
          return
        }
        onEscape()
        return
      }
      if (!isPrintableKey(event) || ownsKeys(event.target)) return
      const input = searchRef.current
      if (input && uiState.dashboard.showFilters) {
        // Focusing during keydown makes the browser type this very key into the search box.
        input.focus()
        input.setSelectionRange(input.value.length, input.value.length)
        return
      }
      // The box is not rendered yet: type the character ourselves and focus it after render.
      event.preventDefault()
      uiState.dashboard.showFilters = true
      uiState.dashboard.search += event.key
      focusPending.current = true
    }
    document.addEventListener('keydown', onKeyDown)
    return () => document.removeEventListener('keydown', onKeyDown)
  }, [searchRef])

  // No dependency list: the search box can appear on any render (bar shown, data arrived).
  useEffect(() => {
    const input = searchRef.current
    if (!focusPending.current || !input) return
    focusPending.current = false
    input.focus()
    input.setSelectionRange(input.value.length, input.value.length)
  })
}

/** Escape's order of effects (spec 000 §2.1 then §2.2). */
function onEscape(): void {
  if (clearNodeSelection()) return
  const dashboard = uiState.dashboard
  if (hasActiveDashboardFilters(dashboard)) resetDashboardFilters()
  else dashboard.showFilters = !dashboard.showFilters
}
