import { Activity, LogOut, UserRound } from 'lucide-react'
import { useState } from 'react'
import { useSnapshot } from 'valtio'
import { useLocation } from 'wouter'
import type { Role } from '../../shared/model/roles.ts'
import { authState, logout } from '../auth/auth-store.ts'
import { FOCUS_RING } from '../components/button-classes.ts'
import { useConnection } from '../hooks/useConnection.ts'
import { PaletteButton } from '../palette/PaletteButton.tsx'
import { WallViewLink } from '../wall/WallViewLink.tsx'
import { ConnectionPill } from './ConnectionPill.tsx'
import { ThemeToggle } from './ThemeToggle.tsx'

/**
 * The signed-in user, their role (issue 29 item 6) and Logout (spec 001 §2 Shell), shown only when
 * authentication is on. On a phone only the icon shows: the header has no room for a name, so
 * name and role are its tooltip and are read out by screen readers.
 */
function UserMenu({ username, role }: { username: string; role: Role | null }) {
  const [, navigate] = useLocation()
  const [busy, setBusy] = useState(false)
  const signOut = () => {
    if (busy) return
    setBusy(true)
    // Spec 001 §4: after logout the app starts again at the root.
    void logout().then(() => navigate('/', { replace: true }))
  }
  return (
    <div className="flex min-w-0 items-center gap-1.5">
      {username && (
        <span
          className="inline-flex min-w-0 items-center gap-1 text-sm text-gray-700 dark:text-gray-300"
          title={`Signed in as ${username}${role ? ` (${role})` : ''}`}
        >
          <UserRound className="size-4 shrink-0" aria-hidden />
          <span className="max-w-40 truncate max-sm:sr-only" data-testid="header-username">
            {username}
          </span>
          {role && (
            // One text per element ("· operator"), so the name alone still reads as the name.
            <span
              className="shrink-0 text-xs text-gray-500 max-sm:sr-only dark:text-gray-400"
              data-testid="header-role"
            >
              · {role}
            </span>
          )}
        </span>
      )}
      <button
        type="button"
        onClick={signOut}
        disabled={busy}
        aria-label="Logout"
        title="Logout"
        className={`inline-flex items-center gap-1 rounded-md px-1.5 py-1 text-sm text-gray-600 hover:bg-gray-100 disabled:opacity-60 dark:text-gray-300 dark:hover:bg-gray-800 ${FOCUS_RING}`}
      >
        <LogOut className="size-4" aria-hidden />
        <span className="hidden sm:inline">Logout</span>
      </button>
    </div>
  )
}

/** App header: logo and name, the palette, connection status, wall view, theme, user and Logout. */
export function Header() {
  const { status } = useConnection()
  const auth = useSnapshot(authState)
  return (
    <header className="flex items-center gap-3 border-b border-gray-200 bg-white px-3 py-2 sm:px-4 dark:border-gray-800 dark:bg-gray-900">
      <div className="flex items-center gap-2">
        <span className="grid size-7 place-items-center rounded-md bg-blue-600 text-white">
          <Activity className="size-4" aria-hidden />
        </span>
        <span className="text-base font-semibold tracking-tight">Pulse</span>
      </div>
      <PaletteButton />
      <div className="ml-auto flex min-w-0 items-center gap-2">
        <ConnectionPill status={status} />
        <WallViewLink />
        <ThemeToggle />
        {auth.phase === 'authenticated' && <UserMenu username={auth.username} role={auth.role} />}
      </div>
    </header>
  )
}
