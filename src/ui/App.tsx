import { useEffect } from 'react'
import { Router, type BaseLocationHook } from 'wouter'
import { AppRoutes } from './AppRoutes.tsx'
import { AuthGate } from './auth/AuthGate.tsx'
import { ErrorBoundary } from './components/ErrorBoundary.tsx'
import { ConnectionProvider } from './hooks/ConnectionProvider.tsx'
import { Shell } from './Shell.tsx'
import { bindTheme } from './state.ts'
import { WorkerContext } from './worker-context.ts'
import type { WorkerPort } from './worker-port.ts'

interface AppProps {
  api: WorkerPort
  /** Location hook for wouter; the browser's by default, a memory location in tests. */
  locationHook?: BaseLocationHook
}

/** The whole application around a worker API, behind the auth gate. */
export function App({ api, locationHook }: AppProps) {
  useEffect(() => bindTheme(), [])
  const routerProps = locationHook ? { hook: locationHook } : {}
  return (
    <ErrorBoundary>
      <WorkerContext.Provider value={api}>
        <AuthGate>
          <ConnectionProvider>
            <Router {...routerProps}>
              <Shell>
                <AppRoutes />
              </Shell>
            </Router>
          </ConnectionProvider>
        </AuthGate>
      </WorkerContext.Provider>
    </ErrorBoundary>
  )
}
