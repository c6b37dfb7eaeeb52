import { RefreshCw } from 'lucide-react'
import { BUTTON } from '../components/button-classes.ts'
import { pageNavigation } from '../lib/navigation.ts'

/** The server was upgraded while this page was open: offer the reload, never force it. */
export function NewBuildBanner({ active }: { active: boolean }) {
  if (!active) return null
  return (
    <div
      role="region"
      aria-label="New version on the server"
      className="flex flex-wrap items-center gap-2 border-b border-blue-200 bg-blue-50 px-3 py-1.5 text-sm text-blue-900 sm:px-4 dark:border-blue-900 dark:bg-blue-950 dark:text-blue-100"
    >
      <p className="min-w-0 flex-1">
        Pulse was updated on the server. Reload to use the new version (save what you are editing
        first).
      </p>
      <button type="button" className={BUTTON.secondary} onClick={() => pageNavigation.reload()}>
        <RefreshCw className="size-4" aria-hidden />
        Reload
      </button>
    </div>
  )
}
