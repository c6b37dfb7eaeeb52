import { Activity } from 'lucide-react'
import { useConnection } from '../hooks/useConnection.ts'
import { ConnectionPill } from './ConnectionPill.tsx'
import { ThemeToggle } from './ThemeToggle.tsx'

/** App header: logo and name, theme toggle, connection status. */
export function Header() {
  const { status } = useConnection()
  return (
    <header className="flex items-center gap-3 border-b border-gray-200 bg-white px-3 py-2 sm:px-4 dark:border-gray-800 dark:bg-gray-900">
      <div className="flex items-center gap-2">
        <span className="grid size-7 place-items-center rounded-md bg-blue-600 text-white">
          <Activity className="size-4" aria-hidden />
        </span>
        <span className="text-base font-semibold tracking-tight">Pulse</span>
      </div>
      <div className="ml-auto flex items-center gap-2">
        <ConnectionPill status={status} />
        <ThemeToggle />
      </div>
    </header>
  )
}
