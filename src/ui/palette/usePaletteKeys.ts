// The shell's own keys, active on every page: Ctrl-K or Cmd-K opens (or closes) the command
// palette from anywhere, a text field included; '?' outside a text field lists the shortcuts.
// Registered in the capture phase, so they are handled (and prevented) before the pages' keys:
// the dashboard's "typing focuses search" never sees the '?' that opened the list.
import { useEffect } from 'react'
import { closeKeyboardDialogs, openPalette, openShortcuts, paletteState } from './palette-state.ts'

/** Ctrl-K or Cmd-K; on a non-Latin layout the K key by its position. */
export function isPaletteKey(event: KeyboardEvent): boolean {
  if (!(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return false
  if (event.key === 'k' || event.key === 'K') return true
  return event.code === 'KeyK' && !/^[a-z]$/i.test(event.key)
}

/** True when the key is typed into a field: '?' belongs to it there. */
function inTextField(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return false
  return (
    target.closest(
      'input, textarea, select, [contenteditable]:not([contenteditable="false"]), [role="combobox"]',
    ) !== null
  )
}

/** A dialog is open (a confirmation, a form, or one of ours): the page behind takes no keys. */
function dialogOpen(): boolean {
  return document.querySelector('dialog[open], [aria-modal="true"]') !== null
}

/** Installs the palette and shortcut-list keys for the app's lifetime. */
export function usePaletteKeys(): void {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.isComposing) return
      if (isPaletteKey(event)) {
        // Always prevented: the browser's own Ctrl-K (search in the address bar) never fires.
        event.preventDefault()
        if (paletteState.palette) closeKeyboardDialogs()
        // Over the shortcut list, not over someone else's dialog (a form, a confirmation).
        else if (paletteState.shortcuts || !dialogOpen()) openPalette()
        return
      }
      if (event.key !== '?' || event.ctrlKey || event.metaKey || event.altKey) return
      if (inTextField(event.target)) return
      if (paletteState.shortcuts) {
        event.preventDefault()
        closeKeyboardDialogs()
      } else if (!dialogOpen()) {
        event.preventDefault()
        openShortcuts()
      }
    }
    document.addEventListener('keydown', onKeyDown, true)
    return () => document.removeEventListener('keydown', onKeyDown, true)
  }, [])
}
