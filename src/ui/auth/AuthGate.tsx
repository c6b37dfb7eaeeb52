import { Loader2, ServerCrash } from 'lucide-react'
import { useEffect, type ReactNode } from 'react'
import { useSnapshot } from 'valtio'
import { BUTTON } from '../components/button-classes.ts'
import { EmptyState } from '../components/EmptyState.tsx'
import { authState, startAuth } from './auth-store.ts'
import { FirstRunSetup } from './FirstRunSetup.tsx'
import { LoginPage } from './LoginPage.tsx'

/**
 * Runs the auth flow on mount (spec 001 §4) and shows its screen; the children (the app, with
 * the live socket) mount only once it lets the user through, so the /ws upgrade carries the
 * session cookie.
 */
export function AuthGate({ children }: { children: ReactNode }) {
  const { phase, error } = useSnapshot(authState)
  useEffect(() => {
    void startAuth()
  }, [])

  switch (phase) {
    case 'disabled':
    case 'authenticated':
      return children
    case 'login':
      return <LoginPage />
    case 'setup':
      return <FirstRunSetup />
    case 'error':
      return (
        <div className="flex min-h-full items-center justify-center">
          <EmptyState
            icon={<ServerCrash className="size-8" aria-hidden />}
            title="Cannot check authentication"
            description={error}
            actions={
              <button type="button" className={BUTTON.primary} onClick={() => void startAuth()}>
                Try again
              </button>
            }
          />
        </div>
      )
    case 'checking':
      return (
        <div className="flex min-h-full items-center justify-center">
          <EmptyState
            live
            icon={<Loader2 className="size-8 animate-spin" aria-hidden />}
            title="Checking authentication..."
          />
        </div>
      )
  }
}
