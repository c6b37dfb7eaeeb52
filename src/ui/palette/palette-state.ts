// Which of the shell's keyboard dialogs is open: the command palette (Ctrl/Cmd-K) or the list of
// shortcuts (?). One at a time; opening one closes the other.
import { proxy } from 'valtio'

export const paletteState = proxy({ palette: false, shortcuts: false })

/** Open the command palette. */
export function openPalette(): void {
  paletteState.shortcuts = false
  paletteState.palette = true
}

/** Open the list of keyboard shortcuts. */
export function openShortcuts(): void {
  paletteState.palette = false
  paletteState.shortcuts = true
}

/** Close whichever is open. */
export function closeKeyboardDialogs(): void {
  paletteState.palette = false
  paletteState.shortcuts = false
}
