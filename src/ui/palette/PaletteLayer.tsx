import { useEffect } from 'react'
import { useSnapshot } from 'valtio'
import { CommandPalette } from './CommandPalette.tsx'
import { closeKeyboardDialogs, paletteState } from './palette-state.ts'
import { ShortcutsDialog } from './ShortcutsDialog.tsx'
import { usePaletteKeys } from './usePaletteKeys.ts'

/** The shell's keys (Ctrl/Cmd-K, ?) and the two dialogs they open; closed when it unmounts. */
export function PaletteLayer() {
  usePaletteKeys()
  useEffect(() => closeKeyboardDialogs, [])
  const { palette, shortcuts } = useSnapshot(paletteState)
  return (
    <>
      {palette && <CommandPalette onClose={closeKeyboardDialogs} />}
      {shortcuts && <ShortcutsDialog onClose={closeKeyboardDialogs} />}
    </>
  )
}
