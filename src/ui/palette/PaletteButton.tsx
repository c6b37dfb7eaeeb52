import { Search } from 'lucide-react'
import { FOCUS_RING } from '../components/button-classes.ts'
import { openPalette } from './palette-state.ts'
import { modifierLabel } from './ShortcutsDialog.tsx'

/** The header's way into the command palette, with its shortcut; an icon alone on a phone. */
export function PaletteButton() {
  const shortcut = `${modifierLabel()} K`
  return (
    <button
      type="button"
      onClick={openPalette}
      aria-label={`Go to (${shortcut})`}
      aria-keyshortcuts="Control+K Meta+K"
      title={`Go to a guest, node, storage, alert, page or setting (${shortcut})`}
      className={`inline-flex items-center gap-2 rounded-md border border-gray-200 px-1.5 py-1 text-sm text-gray-500 hover:bg-gray-100 hover:text-gray-800 sm:min-w-44 sm:px-2 dark:border-gray-700 dark:text-gray-400 dark:hover:bg-gray-800 dark:hover:text-gray-100 ${FOCUS_RING}`}
    >
      <Search className="size-4" aria-hidden />
      <span className="hidden flex-1 text-left sm:inline">Go to…</span>
      <kbd className="hidden rounded border border-gray-300 px-1 font-mono text-[11px] text-gray-500 sm:inline dark:border-gray-600 dark:text-gray-400">
        {shortcut}
      </kbd>
    </button>
  )
}
