// Renders the app (or a part) into a sized div with react-dom/client; tests query the DOM.
import { createRoot, type Root } from 'react-dom/client'
import type { ReactNode } from 'react'
import { memoryLocation } from 'wouter/memory-location'
import '../../../src/ui/styles.css'
import { App } from '../../../src/ui/App.tsx'
import { defaultDashboardState, uiState } from '../../../src/ui/state.ts'
import { vi } from 'vitest'
import type { FakeWorker } from './fake-worker.ts'

let mounted: { root: Root; host: HTMLElement }[] = []

/**
 * Answers the shell's HTTP calls (/api/health, /api/version, GET /api/guests/metadata with
 * `metadata()`, or 404 when it is null) without a server; the real server's routes are tested in
 * tests/unit/server and e2e. Returns the mock so tests can read the calls.
 */
export function stubServer({
  demo = false,
  version = '1.2.3',
  metadata = () => ({}),
}: { demo?: boolean; version?: string; metadata?: (() => unknown) | null } = {}) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, _init?: RequestInit) => {
    const url = String(input)
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
export function renderApp(api: FakeWorker, path = '/') {
  if (!vi.isMockFunction(globalThis.fetch)) stubServer()
  const location = memoryLocation({ path, record: true })
  const host = render(<App api={api} locationHook={location.hook} />)
  return { host, location }
}

/** Unmounts everything rendered so far, keeping UI state and storage (a page reload's first half). */
export function unmountAll(): void {
  for (const { root, host } of mounted) {
    root.unmount()
    host.remove()
  }
  mounted = []
}

/** Unmounts everything and resets UI state and saved preferences between tests. */
export function cleanup(): void {
  unmountAll()
  vi.unstubAllGlobals()
  uiState.dashboard = defaultDashboardState()
  localStorage.clear()
}
