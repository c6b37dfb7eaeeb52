import { Moon, Sun } from 'lucide-react'
import { useSnapshot } from 'valtio'
import { FOCUS_RING } from '../components/button-classes.ts'
import { chooseTheme } from '../live/theme-sync.ts'
import { uiState } from '../state.ts'

/**
 * Dark-mode switch; saved in localStorage and on the server, so other browsers follow. Its name
 * says what a press does next.
 */
export function ThemeToggle() {
  const { dark } = useSnapshot(uiState)
  const action = dark ? 'Switch to light mode' : 'Switch to dark mode'
  return (
    <button
      type="button"
      aria-label={action}
      title={action}
      onClick={() => void chooseTheme(!dark)}
      className={`rounded-md p-1.5 text-gray-600 hover:bg-gray-100 dark:text-gray-300 dark:hover:bg-gray-800 ${FOCUS_RING}`}
    >
      {dark ? <Sun className="size-4" aria-hidden /> : <Moon className="size-4" aria-hidden />}
    </button>
  )
}
