// Shared set-up for the dashboard filter-bar, global-key and saved-preference tests: mounts the
// app the way main.tsx does (saved preferences first) against a fake worker (the UI only sees its
// API; the real worker is tested in tests/browser/worker).
import { afterEach, beforeEach, expect, vi } from 'vitest'
import { page } from 'vitest/browser'
import { PREFS_KEY, startPrefs } from '../../../src/ui/prefs.ts'
import { defaultDashboardState, uiState } from '../../../src/ui/state.ts'
import { nodeSelection } from '../../../src/ui/summary/selection.ts'
import { FakeWorker, groupRow, guestRow, viewModel } from './fake-worker.ts'
import { cleanup, renderApp, unmountAll } from './render.tsx'

let stopPrefs: (() => void) | null = null

/** Registers the per-test viewport and clean-up (saved prefs, selection, UI state). */
export function useDashboardHarness(): void {
  beforeEach(async () => {
    await page.viewport(1280, 800)
  })
  afterEach(() => {
    stopPrefs?.()
    stopPrefs = null
    nodeSelection.tab = null
    nodeSelection.nodeId = null
    vi.restoreAllMocks()
    cleanup()
  })
}

/** A fake worker with one node and two guests. */
export function worker(): FakeWorker {
  const api = new FakeWorker()
  api.push(
    viewModel([
      groupRow('pve1', 2),
      guestRow(100, 'web-01'),
      guestRow(101, 'db-01', { status: 'stopped', active: false }),
    ]),
  )
  return api
}

/** What main.tsx does: saved preferences into the UI state, then the first render. */
export function mount(api = worker()) {
  stopPrefs = startPrefs()
  renderApp(api)
  return api
}

/** A page reload: unmount, forget the in-memory state, keep localStorage, mount again. */
export function reload(api = worker()) {
  stopPrefs?.()
  unmountAll()
  uiState.dashboard = defaultDashboardState()
  uiState.trends = false
  return mount(api)
}

/** Writes the saved preferences (a string is written as is). */
export function savePrefs(value: unknown) {
  localStorage.setItem(PREFS_KEY, typeof value === 'string' ? value : JSON.stringify(value))
}

/** The saved preferences as parsed JSON. */
export function saved(): Record<string, unknown> {
  return JSON.parse(localStorage.getItem(PREFS_KEY) ?? '{}') as Record<string, unknown>
}

/** Warnings about saved preferences (other parts of the app may warn too). */
export function prefWarnings(calls: unknown[][]): string[] {
  return calls.map((call) => String(call[0])).filter((text) => /preferences/i.test(text))
}

export const searchBox = () => page.getByRole('searchbox', { name: 'Search guests' })
export const historyButton = () => page.getByRole('button', { name: 'Search history' })
export const focused = () => document.activeElement

/** Waits until the guest table shows. */
export async function ready() {
  await expect.element(page.getByText('web-01')).toBeVisible()
}
