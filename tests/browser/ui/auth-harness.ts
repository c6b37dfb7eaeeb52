// Shared set-up of the auth tests: a stubbed server with the auth routes and a fake worker that
// records connect/disconnect. The real server's routes are tested in tests/unit/server and the
// two together in tests/e2e.
import { afterEach, beforeEach, expect, vi } from 'vitest'
import { page } from 'vitest/browser'
import { FakeWorker, guestRow, viewModel } from './fake-worker.ts'
import { cleanup, stubServer, type StubRoute } from './render.tsx'

export const CONFIGURED = { disabled: false, hasAuthentication: true, requiresAuth: true }
export const FRESH = { disabled: false, hasAuthentication: false, requiresAuth: false }
export const PASSWORD = 'Xy7_k2-Qm9vR4tLp'
export const TOKEN = 'a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718'

export type Json = Record<string, unknown>

/**
 * Stubs the server: GET /api/security/status answers `status()`; `extra` answers first, then
 * `routes` keyed 'METHOD /path' (given the parsed JSON body); /api/state answers 401 unless a
 * route says otherwise.
 */
export function authServer(
  status: () => unknown,
  routes: Partial<Record<string, (body: Json, init: RequestInit | undefined) => Response>> = {},
  extra?: StubRoute,
) {
  const route: StubRoute = (url, init) => {
    const answer = extra?.(url, init)
    if (answer) return answer
    const path = new URL(url, window.location.href).pathname
    const handler = routes[`${init?.method ?? 'GET'} ${path}`]
    if (handler) return handler(init?.body ? (JSON.parse(String(init.body)) as Json) : {}, init)
    if (path === '/api/state')
      return Response.json({ message: 'Authentication required' }, { status: 401 })
    return undefined
  }
  return stubServer({ security: status, route })
}

/** The fetch calls to `method path`, in order. */
export function callsTo(mock: ReturnType<typeof stubServer>, method: string, path: string) {
  return mock.mock.calls.filter(
    ([url, init]) =>
      new URL(String(url), window.location.href).pathname === path &&
      (init?.method ?? 'GET') === method,
  )
}

/** A fake worker with one guest, its connect and disconnect spied on. */
export function worker() {
  const api = new FakeWorker()
  api.push(viewModel([guestRow(100, 'web-01')]))
  vi.spyOn(api, 'connect')
  vi.spyOn(api, 'disconnect')
  return api
}

/** Waits for the app (the dashboard's guest) to show. */
export const appShown = () => expect.element(page.getByText('web-01')).toBeVisible()
/** Waits for the login screen. */
export const loginShown = () =>
  expect.element(page.getByRole('heading', { name: 'Sign in to Pulse' })).toBeVisible()
export const signIn = () => page.getByRole('button', { name: 'Sign in' })

/** Types the credentials and presses Sign in. */
export async function fillLogin(username: string, password: string) {
  await page.getByLabelText('Username').fill(username)
  await page.getByLabelText('Password').fill(password)
  await signIn().click()
}

/** Sets (or with null removes) the readable CSRF cookie the server issues with a session. */
export function setCsrfCookie(value: string | null) {
  document.cookie =
    value === null ? 'pulse_csrf=; path=/; max-age=0' : `pulse_csrf=${value}; path=/`
}

/** Registers the per-test viewport, storage and cookie reset and the clean-up. */
export function useAuthHarness(): void {
  beforeEach(async () => {
    await page.viewport(1280, 800)
    sessionStorage.clear()
    setCsrfCookie(null)
  })
  afterEach(() => {
    setCsrfCookie(null)
    vi.restoreAllMocks()
    cleanup()
  })
}
