// Renders the app (or a part) into a sized div with react-dom/client; tests query the DOM.
import { createRoot, type Root } from 'react-dom/client'
import type { ReactNode } from 'react'
import { memoryLocation } from 'wouter/memory-location'
import '../../../src/ui/styles.css'
import { App } from '../../../src/ui/App.tsx'
import { defaultDashboardFilters, uiState } from '../../../src/ui/state.ts'
import { vi } from 'vitest'
import type { FakeWorker } from './fake-worker.ts'

let mounted: { root: Root; host: HTMLElement }[] = []

/**
 * Answers the shell's two HTTP calls (/api/health, /api/version) without a server; the real
 * server's routes are tested in tests/unit/server and e2e.
 */
export function stubServer({ demo = false, version = '1.2.3' } = {}): void {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = String(input)
      if (url.endsWith('/api/version')) return Response.json({ version })
      if (url.endsWith('/api/health')) {
        return Response.json({ status: 'ok' }, { headers: demo ? { 'X-Demo-Mode': 'true' } : {} })
      }
      return new Response('not found', { status: 404 })
    }),
  )
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

/** Unmounts everything and resets UI state between tests. */
export function cleanup(): void {
  for (const { root, host } of mounted) {
    root.unmount()
    host.remove()
  }
  mounted = []
  vi.unstubAllGlobals()
  uiState.dashboard = defaultDashboardFilters()
}
