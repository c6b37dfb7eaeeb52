// The browser side of authentication (spec 001 §2 Login screen, §4 Auth flow and Logout, §8 login
// errors) with a stubbed fetch and a fake worker: the real server's routes are tested in
// tests/unit/server and the two together in tests/e2e.
import { describe, expect, test, vi } from 'vitest'
import { page } from 'vitest/browser'
import { JUST_LOGGED_OUT_KEY } from '../../../src/ui/auth/auth-store.ts'
import { SESSION_ENDED_KEY } from '../../../src/ui/auth/useSessionEndWatch.ts'
import { PREFS_KEY } from '../../../src/ui/prefs.ts'
import {
  AUTH_BANNER_DISMISSED_KEY,
  AUTH_DISABLED_TEXT,
} from '../../../src/ui/shell/AuthDisabledBanner.tsx'
import { DEMO_DISMISSED_KEY } from '../../../src/ui/shell/DemoBanner.tsx'
import { THEME_KEY } from '../../../src/ui/state.ts'
import {
  CONFIGURED,
  appShown,
  authServer,
  callsTo,
  fillLogin,
  loginShown,
  setCsrfCookie,
  signIn,
  useAuthHarness,
  worker,
} from './auth-harness.ts'
import { renderApp, stubServer, unmountAll } from './render.tsx'

useAuthHarness()

describe('auth flow on start (spec 001 §4)', () => {
  test('"Checking authentication..." shows until the status answers', async () => {
    let release: (() => void) | undefined
    const held = new Promise<void>((resolve) => (release = resolve))
    authServer(
      () => ({}),
      {},
      (url) =>
        url.endsWith('/api/security/status')
          ? held.then(() => Response.json({ disabled: true }))
          : undefined,
    )
    const api = worker()
    renderApp(api)
    await expect.element(page.getByText('Checking authentication...')).toBeVisible()
    expect(api.connect).not.toHaveBeenCalled()
    release!()
    await appShown()
  })

  test('auth disabled: the app opens with the warning banner, dismissed for the session', async () => {
    const fetchMock = stubServer()
    const api = worker()
    renderApp(api)
    await appShown()
    await expect.element(page.getByText(AUTH_DISABLED_TEXT)).toBeVisible()
    expect(page.getByRole('button', { name: 'Logout' }).query()).toBeNull()
    expect(api.connect).toHaveBeenCalledTimes(1)
    expect(vi.mocked(api.connect).mock.calls[0]![0]!.url).toMatch(/^ws:\/\/.+\/ws$/)
    expect(callsTo(fetchMock, 'GET', '/api/state')).toHaveLength(0)
    await page.getByRole('button', { name: 'Dismiss authentication warning' }).click()
    expect(page.getByText(AUTH_DISABLED_TEXT).query()).toBeNull()
    expect(sessionStorage.getItem(AUTH_BANNER_DISMISSED_KEY)).toBe('1')
    unmountAll()
    renderApp(worker())
    await appShown()
    expect(page.getByText(AUTH_DISABLED_TEXT).query()).toBeNull()
  })

  test('in demo mode the demo banner mentions disabled auth instead of a second banner', async () => {
    sessionStorage.removeItem(DEMO_DISMISSED_KEY)
    stubServer({ demo: true })
    renderApp(worker())
    await expect.element(page.getByText(/Demo mode:.*Authentication is disabled/)).toBeVisible()
    expect(page.getByText(AUTH_DISABLED_TEXT).query()).toBeNull()
  })

  test('an authenticated status opens the app with the username and Logout, without a probe', async () => {
    const fetchMock = authServer(() => ({
      ...CONFIGURED,
      authenticated: true,
      authUsername: 'ops',
    }))
    renderApp(worker())
    await appShown()
    await expect.element(page.getByTestId('header-username')).toHaveTextContent('ops')
    await expect.element(page.getByRole('button', { name: 'Logout' })).toBeVisible()
    expect(page.getByText(AUTH_DISABLED_TEXT).query()).toBeNull()
    expect(callsTo(fetchMock, 'GET', '/api/state')).toHaveLength(0)
  })

  test('auth configured and /api/state answering 401 shows the login screen, no socket', async () => {
    const fetchMock = authServer(() => CONFIGURED)
    const api = worker()
    renderApp(api)
    await loginShown()
    await expect.element(page.getByLabelText('Username')).toHaveValue('')
    await expect
      .element(page.getByLabelText('Username'))
      .toHaveAttribute('autocomplete', 'username')
    expect(callsTo(fetchMock, 'GET', '/api/state')).toHaveLength(1)
    expect(api.connect).not.toHaveBeenCalled()
  })

  test('after a reload for an ended session the login screen says so, once', async () => {
    sessionStorage.setItem(SESSION_ENDED_KEY, '1')
    authServer(() => CONFIGURED)
    renderApp(worker())
    await loginShown()
    await expect.element(page.getByTestId('session-ended')).toHaveTextContent(/session has ended/)
    expect(sessionStorage.getItem(SESSION_ENDED_KEY)).toBeNull()
    unmountAll()
    authServer(() => CONFIGURED)
    renderApp(worker())
    await loginShown()
    expect(page.getByTestId('session-ended').query()).toBeNull()
  })

  test('a 429 on the status check assumes auth is configured and probes /api/state', async () => {
    const fetchMock = authServer(
      () => CONFIGURED,
      { 'GET /api/state': () => Response.json({}) },
      (url) =>
        url.endsWith('/api/security/status')
          ? new Response('', { status: 429, headers: { 'Retry-After': '0' } })
          : undefined,
    )
    renderApp(worker())
    await appShown()
    await expect.element(page.getByRole('button', { name: 'Logout' })).toBeVisible()
    expect(callsTo(fetchMock, 'GET', '/api/security/status')).toHaveLength(2)
    expect(callsTo(fetchMock, 'GET', '/api/state')).toHaveLength(1)
  })

  test('an unreachable server shows the error with Try again, which starts over', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    let down = true
    authServer(
      () => ({ disabled: true }),
      {},
      () => {
        if (down) throw new TypeError('Failed to fetch')
        return undefined
      },
    )
    renderApp(worker())
    await expect.element(page.getByText('Cannot check authentication')).toBeVisible()
    await expect.element(page.getByText('Failed to connect to server.')).toBeVisible()
    down = false
    await page.getByRole('button', { name: 'Try again' }).click()
    await appShown()
    expect(warn).toHaveBeenCalled()
  })
})

describe('login (spec 001 §8)', () => {
  test('a successful login opens the app with the username and the socket', async () => {
    const fetchMock = authServer(() => CONFIGURED, {
      'POST /api/login': (body) => Response.json({ success: true, username: body.username }),
    })
    const api = worker()
    renderApp(api)
    await loginShown()
    await fillLogin('admin', 'correct horse')
    await appShown()
    await expect.element(page.getByTestId('header-username')).toHaveTextContent('admin')
    const [, init] = callsTo(fetchMock, 'POST', '/api/login')[0]!
    expect(JSON.parse(String(init!.body))).toEqual({ username: 'admin', password: 'correct horse' })
    expect(init!.credentials).toBe('include')
    expect(api.connect).toHaveBeenCalledTimes(1)
  })

  test('401 with attempts left shows the message and the count, fields kept', async () => {
    authServer(() => CONFIGURED, {
      'POST /api/login': () =>
        Response.json(
          { success: false, message: 'Invalid username or password', remaining: 4 },
          { status: 401 },
        ),
    })
    renderApp(worker())
    await loginShown()
    await fillLogin('admin', 'wrong')
    const alert = page.getByRole('alert')
    await expect
      .element(alert)
      .toHaveTextContent('Invalid username or password (4 attempts remaining)')
    expect(alert.element().hasAttribute('data-lockout')).toBe(false)
    await expect.element(page.getByLabelText('Username')).toHaveValue('admin')
  })

  test('401 without a body falls back to the default text', async () => {
    authServer(() => CONFIGURED, { 'POST /api/login': () => new Response('', { status: 401 }) })
    renderApp(worker())
    await loginShown()
    await fillLogin('admin', 'wrong')
    await expect
      .element(page.getByRole('alert'))
      .toHaveTextContent(/^Invalid username or password$/)
  })

  test('403 locked shows the lockout panel with a lock icon and clears the fields', async () => {
    authServer(() => CONFIGURED, {
      'POST /api/login': () =>
        Response.json(
          {
            success: false,
            locked: true,
            remainingMinutes: 15,
            message: 'Account locked. Please try again in 15 minute(s).',
          },
          { status: 403 },
        ),
    })
    renderApp(worker())
    await loginShown()
    await fillLogin('admin', 'wrong')
    const alert = page.getByRole('alert')
    await expect
      .element(alert)
      .toHaveTextContent('Account locked. Please try again in 15 minute(s).')
    expect(alert.element().hasAttribute('data-lockout')).toBe(true)
    expect(alert.element().querySelector('svg')).not.toBeNull()
    expect(alert.element().className).toContain('bg-amber-50')
    await expect.element(page.getByLabelText('Username')).toHaveValue('')
    await expect.element(page.getByLabelText('Password')).toHaveValue('')
  })

  test('branches on the answer code, not its wording (AppError.fromJSON)', async () => {
    let answer = () =>
      Response.json(
        // A lockout worded without "locked": the code makes it one.
        { code: 'ACCOUNT_LOCKED', message: 'Konto gesperrt.', success: false },
        { status: 403 },
      )
    authServer(() => CONFIGURED, { 'POST /api/login': () => answer() })
    renderApp(worker())
    await loginShown()
    await fillLogin('admin', 'wrong')
    const alert = page.getByRole('alert')
    await expect.element(alert).toHaveTextContent('Konto gesperrt.')
    expect(alert.element().hasAttribute('data-lockout')).toBe(true)
    await expect.element(page.getByLabelText('Username')).toHaveValue('')
    // Wrong credentials whose text mentions "locked" are not a lockout.
    answer = () =>
      Response.json(
        { code: 'INVALID_CREDENTIALS', message: 'Wrong password for locked-room', remaining: 2 },
        { status: 401 },
      )
    await fillLogin('admin', 'wrong')
    await expect
      .element(page.getByRole('alert'))
      .toHaveTextContent('Wrong password for locked-room (2 attempts remaining)')
    expect(page.getByRole('alert').element().hasAttribute('data-lockout')).toBe(false)
    await expect.element(page.getByLabelText('Username')).toHaveValue('admin')
  })

  test('429 shows the server message at once, without waiting to retry', async () => {
    const fetchMock = authServer(() => CONFIGURED, {
      'POST /api/login': () =>
        Response.json(
          { message: 'Too many requests. Please wait a moment and try again.' },
          { status: 429, headers: { 'Retry-After': '60' } },
        ),
    })
    renderApp(worker())
    await loginShown()
    await fillLogin('admin', 'pw')
    await expect
      .element(page.getByRole('alert'))
      .toHaveTextContent('Too many requests. Please wait a moment and try again.')
    expect(callsTo(fetchMock, 'POST', '/api/login')).toHaveLength(1)
  })

  test('other statuses say Server error; a network failure says Failed to connect', async () => {
    let mode: 'error' | 'offline' = 'error'
    authServer(
      () => CONFIGURED,
      { 'POST /api/login': () => Response.json({ message: 'db down' }, { status: 500 }) },
      (_url, init) => {
        if (mode === 'offline' && init?.method === 'POST') throw new TypeError('Failed to fetch')
        return undefined
      },
    )
    renderApp(worker())
    await loginShown()
    await fillLogin('admin', 'pw')
    await expect
      .element(page.getByRole('alert'))
      .toHaveTextContent('Server error. Please try again.')
    mode = 'offline'
    await signIn().click()
    await expect.element(page.getByRole('alert')).toHaveTextContent('Failed to connect to server.')
  })

  test('the login card fits a 390 px phone', async () => {
    await page.viewport(390, 800)
    authServer(() => CONFIGURED)
    const { host } = renderApp(worker(), '/', { width: 390, height: 800 })
    await loginShown()
    const card = host.querySelector('form')!.parentElement!
    expect(card.getBoundingClientRect().width).toBeLessThanOrEqual(390)
    expect(host.scrollWidth).toBeLessThanOrEqual(390)
    await expect.element(signIn()).toBeVisible()
  })
})

describe('logout (spec 001 §4)', () => {
  test('Logout posts with the CSRF header, clears storage but the theme, and the flag survives a reload', async () => {
    setCsrfCookie('csrf-1')
    let authenticated = true
    const fetchMock = authServer(() => ({ ...CONFIGURED, authenticated, authUsername: 'admin' }), {
      'POST /api/logout': () => {
        authenticated = false
        return Response.json({ success: true })
      },
      'POST /api/login': () => {
        authenticated = true
        return Response.json({ success: true, username: 'admin' })
      },
    })
    localStorage.setItem(THEME_KEY, 'dark')
    localStorage.setItem(PREFS_KEY, '{"dashboardViewMode":"vm"}')
    const api = worker()
    const { location } = renderApp(api, '/alerts/overview')
    await expect.element(page.getByText('Loading alerts...')).toBeVisible()
    await page.getByRole('button', { name: 'Logout' }).click()
    await loginShown()

    const [, init] = callsTo(fetchMock, 'POST', '/api/logout')[0]!
    expect((init!.headers as Record<string, string>)['X-CSRF-Token']).toBe('csrf-1')
    expect(sessionStorage.getItem(JUST_LOGGED_OUT_KEY)).toBe('1')
    expect(localStorage.getItem(THEME_KEY)).toBe('dark')
    expect(localStorage.getItem(PREFS_KEY)).toBeNull()
    expect(api.disconnect).toHaveBeenCalled()
    await expect.poll(() => location.history.at(-1)).toBe('/')

    // A reload with a status that (say, via a proxy) still reads authenticated: the flag wins.
    authenticated = true
    const statusCalls = callsTo(fetchMock, 'GET', '/api/security/status').length
    unmountAll()
    const again = worker()
    renderApp(again)
    await loginShown()
    expect(callsTo(fetchMock, 'GET', '/api/security/status')).toHaveLength(statusCalls)
    expect(again.connect).not.toHaveBeenCalled()

    await fillLogin('admin', 'pw')
    await appShown()
    expect(sessionStorage.getItem(JUST_LOGGED_OUT_KEY)).toBeNull()
  })
})
