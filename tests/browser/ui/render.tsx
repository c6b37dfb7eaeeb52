// Renders the app (or a part) into a sized div with react-dom/client; tests query the DOM.
import { createRoot, type Root } from 'react-dom/client'
import type { ReactNode } from 'react'
import { memoryLocation } from 'wouter/memory-location'
import '../../../src/ui/styles.css'
import { App } from '../../../src/ui/App.tsx'
import { JUST_LOGGED_OUT_KEY, resetAuth } from '../../../src/ui/auth/auth-store.ts'
import { resetSecurityStatus } from '../../../src/ui/auth/security-status.ts'
import { resetAlertConfigStore } from '../../../src/ui/alerts/config-store.ts'
import { clearToasts } from '../../../src/ui/components/toast-store.ts'
import { AUTH_BANNER_DISMISSED_KEY } from '../../../src/ui/shell/AuthDisabledBanner.tsx'
import { defaultDashboardState, uiState } from '../../../src/ui/state.ts'
import { resetUpdateStore } from '../../../src/ui/updates/update-store.ts'
import { vi } from 'vitest'
import type { FakeWorker } from './fake-worker.ts'

let mounted: { root: Root; host: HTMLElement }[] = []

/** GET /api/security/status of a server started with DISABLE_AUTH=true: the app opens at once. */
export const AUTH_DISABLED_STATUS = {
  disabled: true,
  hasAuthentication: false,
  requiresAuth: false,
}

/** A route of the stub: an answer, or undefined to fall through to the shell's routes. */
export type StubRoute = (
  url: string,
  init: RequestInit | undefined,
) => Response | Promise<Response> | undefined

/**
 * Answers the shell's HTTP calls (/api/health, /api/version, GET /api/guests/metadata with
 * `metadata()`, or 404 when it is null, GET /api/security/status with `security()`, auth
 * disabled by default) without a server; `route` answers first when it returns a Response. The
 * real server's routes are tested in tests/unit/server and e2e. Returns the mock so tests can
 * read the calls.
 */
export function stubServer({
  demo = false,
  version = '1.2.3',
  metadata = () => ({}),
  security = () => AUTH_DISABLED_STATUS,
  route,
}: {
  demo?: boolean
  version?: string
  metadata?: (() => unknown) | null
  security?: () => unknown
  route?: StubRoute
} = {}) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input)
    const answer = await route?.(url, init)
    if (answer) return answer
    if (url.endsWith('/api/security/status')) return Response.json(security())
    if (url.endsWith('/api/version')) return Response.json({ version })
    if (url.endsWith('/api/health')) {
      return Response.json({ status: 'ok' }, { headers: demo ? { 'X-Demo-Mode': 'true' } : {} })
    }
    if (metadata && url.endsWith('/api/guests/metadata')) return Response.json(metadata())
    return new Response('not found', { status: 404 })
  })
  vi.stubGlobal('fetch', fetchMock)
  return fetchMock
}

/** Mounts a node in a fixed-size host element. */
export function render(node: ReactNode, size = { width: 1200, height: 700 }): HTMLElement {
  const host = document.createElement('div')
  host.style.width = `${size.width}px`
  host.style.height = `${size.height}px`
  host.style.display = 'flex'
  host.style.flexDirection = 'column'
  document.body.append(host)
  const root = createRoot(host)
  root.render(node)
  mounted.push({ root, host })
  return host
}

/** Mounts the whole app with a fake worker at `path`; returns the memory location. */
export function renderApp(api: FakeWorker, path = '/', size?: { width: number; height: number }) {
  if (!vi.isMockFunction(globalThis.fetch)) stubServer()
  const location = memoryLocation({ path, record: true })
  const host = render(<App api={api} locationHook={location.hook} />, size)
  return { host, location }
}

/** Unmounts everything rendered so far, keeping UI state and storage (a page reload's first half). */
export function unmountAll(): void {
  for (const { root, host } of mounted) {
    root.unmount()
    host.remove()
  }
  mounted = []
  // A reload starts the auth flow from scratch; sessionStorage (the flags) survives it.
  resetAuth()
  resetSecurityStatus()
  resetAlertConfigStore()
  resetUpdateStore()
  clearToasts()
}

/** Unmounts everything and resets UI state and saved preferences between tests. */
export function cleanup(): void {
  unmountAll()
  vi.unstubAllGlobals()
  uiState.dashboard = defaultDashboardState()
  uiState.trends = false
  localStorage.clear()
  sessionStorage.removeItem(JUST_LOGGED_OUT_KEY)
  sessionStorage.removeItem(AUTH_BANNER_DISMISSED_KEY)
}
