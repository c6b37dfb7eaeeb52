// The wall view (issue 28 item 7): `?kiosk=1` shows the live page alone in larger type, exits by
// its button, survives palette jumps between live pages, and reloads itself when the server
// serves a new build or the session is gone; any other page offers Reload for a new build and
// goes to sign-in for an ended session. A fake worker drives the connection (the real socket's
// close on an ended session: tests/e2e/roles.spec.ts).
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { page, userEvent } from 'vitest/browser'
import { pageNavigation } from '../../../src/ui/lib/navigation.ts'
import { closeKeyboardDialogs } from '../../../src/ui/palette/palette-state.ts'
import { moduleScriptOf } from '../../../src/ui/wall/build-check.ts'
import { SESSION_CHECK_AFTER, SESSION_ENDED_KEY } from '../../../src/ui/auth/useSessionEndWatch.ts'
import { WALL_SESSION_CHECK_MS } from '../../../src/ui/wall/useWallWatch.ts'
import { useDashboardHarness, worker } from './dashboard-harness.ts'
import type { FakeWorker } from './fake-worker.ts'
import { AUTH_DISABLED_STATUS, renderApp, stubServer } from './render.tsx'

useDashboardHarness()

let reload = vi.fn<() => void>()
beforeEach(() => {
  reload = vi.fn<() => void>()
  vi.spyOn(pageNavigation, 'reload').mockImplementation(reload)
})
afterEach(() => {
  sessionStorage.removeItem(SESSION_ENDED_KEY)
  closeKeyboardDialogs()
  document.querySelectorAll('script[data-test-build]').forEach((script) => script.remove())
})

const header = () => page.getByRole('button', { name: /^Go to/ })
const tabs = () => page.getByRole('navigation', { name: 'Main' })
const exit = () => page.getByRole('button', { name: 'Exit wall view' })
const wall = () => document.querySelector<HTMLElement>('[data-wall-view]')
const newBuild = () => page.getByRole('region', { name: 'New version on the server' })

/** The socket drops (the page shows it), then comes back. */
async function reconnect(api: FakeWorker) {
  api.setConnection({ status: 'disconnected', initialDataReceived: false, attempt: 1 })
  await expect.element(page.getByText('Connection lost')).toBeVisible()
  api.setConnection({ status: 'connected', initialDataReceived: true, attempt: 0 })
  await expect.element(page.getByText('web-01')).toBeVisible()
}

/** The page as the built index.html loads it (a script added as HTML text never runs). */
function loadedBuild(src: string) {
  // First in the document: the test runner's own module scripts come after it.
  document.head.insertAdjacentHTML(
    'afterbegin',
    `<script data-test-build type="module" crossorigin src="${src}"></script>`,
  )
}

/** Wait until the page has read the answer of its last security status request. */
async function statusRead(fetchMock: ReturnType<typeof stubServer>) {
  const index = fetchMock.mock.calls.findLastIndex(([url]) =>
    String(url).endsWith('/api/security/status'),
  )
  const answer = (await fetchMock.mock.results[index]!.value) as Response
  await expect.poll(() => answer.bodyUsed).toBe(true)
}

/** A server whose index.html names `script`, and whose security status `security()` says. */
function serve(script: () => string, security: () => unknown = () => AUTH_DISABLED_STATUS) {
  return stubServer({
    demo: true,
    security,
    route: (url) =>
      new URL(url, window.location.href).pathname === '/'
        ? new Response(
            `<!doctype html><script type="module" crossorigin src="${script()}"></script>`,
          )
        : undefined,
  })
}

describe('wall view', () => {
  test('?kiosk=1 shows the live rows without header, tabs, banners or footer, in larger type', async () => {
    stubServer({ demo: true })
    renderApp(worker(), '/?kiosk=1')
    await expect.element(page.getByText('web-01')).toBeVisible()
    expect(header().query()).toBeNull()
    expect(tabs().query()).toBeNull()
    expect(page.getByText(/Demo mode/).query()).toBeNull()
    expect(page.getByText(/^Pulse v/).query()).toBeNull()
    expect(getComputedStyle(wall()!).zoom).toBe('1.25')
    await expect.element(page.getByRole('status', { name: 'Connection: Connected' })).toBeVisible()
  })

  test('Exit wall view brings the shell back on the same page', async () => {
    const { location } = renderApp(worker(), '/storage?kiosk=1')
    await exit().click()
    expect(location.history.at(-1)).toBe('/storage')
    await expect.element(tabs()).toBeVisible()
    expect(wall()).toBeNull()
  })

  test("the header's Wall view link opens the wall of the tab shown, or of Main", async () => {
    const first = renderApp(worker(), '/storage')
    await page.getByRole('link', { name: 'Wall view' }).click()
    expect(first.location.history.at(-1)).toBe('/storage?kiosk=1')
    await expect.element(exit()).toBeVisible()
    const second = renderApp(worker(), '/settings/system')
    expect(wall()).not.toBeNull()
    // Two apps mounted: take the second's link.
    await page.getByRole('link', { name: 'Wall view' }).last().click()
    expect(second.location.history.at(-1)).toBe('/?kiosk=1')
  })

  test('a page that is no live tab ignores the flag, and sub-tabs are hidden on the wall', async () => {
    renderApp(worker(), '/settings/pve?kiosk=1')
    await expect.element(tabs()).toBeVisible()
    expect(wall()).toBeNull()
    await expect.element(page.getByRole('navigation', { name: 'Settings' })).toBeVisible()
    renderApp(worker(), '/alerts/overview?kiosk=1')
    await expect.element(exit()).toBeVisible()
    expect(page.getByRole('navigation', { name: 'Alerts' }).query()).toBeNull()
  })

  test('the palette keeps the wall between live pages and leaves it for any other', async () => {
    const { location } = renderApp(worker(), '/?kiosk=1')
    await expect.element(exit()).toBeVisible()
    await userEvent.keyboard('{Control>}k{/Control}')
    await expect.element(page.getByRole('dialog', { name: 'Go to' })).toBeVisible()
    await userEvent.keyboard('backups')
    await expect.element(page.getByRole('option').first()).toHaveTextContent('Backups/backups')
    await userEvent.keyboard('{Enter}')
    expect(location.history.at(-1)).toBe('/backups?kiosk=1')
    await userEvent.keyboard('{Control>}k{/Control}')
    await expect.element(page.getByRole('dialog', { name: 'Go to' })).toBeVisible()
    await userEvent.keyboard('exit wall')
    await expect.element(page.getByRole('option').first()).toHaveTextContent('Exit wall view')
    await userEvent.keyboard('{Backspace}{Backspace}{Backspace}{Backspace}{Backspace}')
    await userEvent.keyboard('{Backspace}{Backspace}{Backspace}{Backspace}')
    await userEvent.keyboard('api token{Enter}')
    expect(location.history.at(-1)).toBe('/settings/security')
    await expect.element(tabs()).toBeVisible()
  })

  test('says when the data is old or the connection is down', async () => {
    const api = worker()
    api.setConnection({ lastUpdate: Date.now() - 5 * 60_000 })
    renderApp(api, '/?kiosk=1')
    await expect.element(page.getByText('(5 min ago: no new data)')).toBeVisible()
    api.setConnection({ lastUpdate: Date.now() })
    await expect.element(page.getByText(/no new data/)).not.toBeInTheDocument()
    api.setConnection({ status: 'disconnected', initialDataReceived: false, attempt: 1 })
    await expect.element(page.getByText('Not live: reconnecting by itself')).toBeVisible()
    await expect.element(page.getByText('Connection lost')).toBeVisible()
  })
})

describe('a wall for days', () => {
  test('reloads itself when the server serves a new build after a reconnect', async () => {
    loadedBuild('/assets/index-old.js')
    let script = '/assets/index-old.js'
    const fetchMock = serve(() => script)
    const api = worker()
    renderApp(api, '/?kiosk=1')
    await expect.element(page.getByText('web-01')).toBeVisible()
    const indexFetches = () => fetchMock.mock.calls.filter(([url]) => url === '/').length
    // The same build after a reconnect: nothing happens.
    await reconnect(api)
    await expect.poll(indexFetches).toBe(1)
    expect(reload).not.toHaveBeenCalled()
    // An upgraded server: a new script name.
    script = '/assets/index-new.js'
    await reconnect(api)
    await expect.poll(() => reload.mock.calls.length).toBe(1)
    expect(indexFetches()).toBe(2)
  })

  test('outside the wall view a new build offers Reload instead of reloading', async () => {
    loadedBuild('/assets/index-old.js')
    serve(() => '/assets/index-new.js')
    const api = worker()
    renderApp(api, '/')
    await expect.element(page.getByText('web-01')).toBeVisible()
    expect(newBuild().query()).toBeNull()
    await reconnect(api)
    await expect.element(newBuild()).toHaveTextContent(/Pulse was updated on the server/)
    expect(reload).not.toHaveBeenCalled()
    await newBuild().getByRole('button', { name: 'Reload' }).click()
    expect(reload).toHaveBeenCalledTimes(1)
  })

  test('outside the wall view a changed server version offers Reload too', async () => {
    const api = worker()
    renderApp(api, '/')
    await expect.element(page.getByText('web-01')).toBeVisible()
    api.setConnection({ serverVersion: '0.1.0' })
    api.setConnection({ serverVersion: '0.2.0' })
    await expect.element(newBuild()).toBeVisible()
    expect(reload).not.toHaveBeenCalled()
  })

  test('does not reload the wall when the server does not answer', async () => {
    loadedBuild('/assets/index-old.js')
    const fetchMock = stubServer({
      route: (url) =>
        new URL(url, window.location.href).pathname === '/'
          ? Promise.reject(new TypeError('Failed to fetch'))
          : undefined,
    })
    const indexFetch = () =>
      fetchMock.mock.results[fetchMock.mock.calls.findIndex(([url]) => url === '/')]
    const api = worker()
    renderApp(api, '/?kiosk=1')
    await expect.element(page.getByText('web-01')).toBeVisible()
    await reconnect(api)
    await expect.poll(() => indexFetch()).toBeDefined()
    // The page saw the failure; one turn later it has decided.
    await expect(indexFetch()!.value).rejects.toThrow('Failed to fetch')
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(reload).not.toHaveBeenCalled()
    expect(newBuild().query()).toBeNull()
  })

  test('reloads when the version the server reports changes', async () => {
    const api = worker()
    renderApp(api, '/?kiosk=1')
    await expect.element(page.getByText('web-01')).toBeVisible()
    api.setConnection({ serverVersion: '0.1.0' })
    expect(reload).not.toHaveBeenCalled()
    api.setConnection({ serverVersion: '0.2.0' })
    await expect.poll(() => reload.mock.calls.length).toBe(1)
  })

  // Not the wall's alone: a session ended from another browser takes any page to sign-in.
  test.each(['/?kiosk=1', '/'])(
    '%s reloads onto the sign-in page when refused and the session is gone',
    async (path) => {
      let security: unknown = AUTH_DISABLED_STATUS
      const fetchMock = serve(
        () => '',
        () => security,
      )
      const statusChecks = () =>
        fetchMock.mock.calls.filter(([url]) => String(url).endsWith('/api/security/status'))
      const api = worker()
      renderApp(api, path)
      await expect.element(page.getByText('web-01')).toBeVisible()
      // Refused while the session still holds (another cause): asked, answered, no reload.
      security = { disabled: false, requiresAuth: true, authenticated: true }
      const before = statusChecks().length
      api.setConnection({ status: 'disconnected', attempt: SESSION_CHECK_AFTER })
      await expect.poll(() => statusChecks().length).toBe(before + 1)
      await statusRead(fetchMock)
      await new Promise((resolve) => setTimeout(resolve, 0))
      expect(reload).not.toHaveBeenCalled()
      security = { disabled: false, requiresAuth: true, authenticated: false }
      api.setConnection({ status: 'reconnecting', attempt: SESSION_CHECK_AFTER + 1 })
      await expect.poll(() => reload.mock.calls.length).toBe(1)
      // The sign-in screen after the reload will say why.
      expect(sessionStorage.getItem(SESSION_ENDED_KEY)).toBe('1')
    },
  )
})

describe('a wall stays signed in', () => {
  test('asks about its session every hour, and goes to sign-in once it has ended', async () => {
    // Only the intervals are faked: the hour passes at once, the rest of the page runs as usual.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] })
    try {
      let security: unknown = AUTH_DISABLED_STATUS
      const fetchMock = serve(
        () => '',
        () => security,
      )
      renderApp(worker(), '/?kiosk=1')
      await expect.element(page.getByText('web-01')).toBeVisible()
      const checks = () =>
        fetchMock.mock.calls.filter(([url]) => String(url).endsWith('/api/security/status')).length
      const before = checks()
      vi.advanceTimersByTime(WALL_SESSION_CHECK_MS)
      await expect.poll(checks).toBe(before + 1)
      await statusRead(fetchMock)
      await new Promise((resolve) => setTimeout(resolve, 0))
      expect(reload).not.toHaveBeenCalled()
      security = { disabled: false, requiresAuth: true, authenticated: false }
      vi.advanceTimersByTime(WALL_SESSION_CHECK_MS)
      await expect.poll(() => reload.mock.calls.length).toBe(1)
    } finally {
      vi.useRealTimers()
    }
  })
})

describe('moduleScriptOf', () => {
  test("reads the built index.html's module script, whatever the attribute order", () => {
    expect(
      moduleScriptOf(
        '<head><script src="/x.js"></script><script type="module" crossorigin src="/assets/index-Ab1.js"></script>',
      ),
    ).toBe('/assets/index-Ab1.js')
    expect(moduleScriptOf("<script src='/a.js' type='module'></script>")).toBe('/a.js')
    expect(moduleScriptOf('<p>no scripts</p>')).toBeNull()
  })
})
