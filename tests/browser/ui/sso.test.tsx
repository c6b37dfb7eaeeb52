// Single sign-on in the browser (contract slice 2; spec 001 §2 Login screen, §4 Logout, §8 single
// sign-on errors) with a stubbed fetch: the login button, the start failure, the ?oidc_error=
// messages, and the provider logout. The server side is tested in tests/unit/server/auth/oidc*.
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { page } from 'vitest/browser'
import { JUST_LOGGED_OUT_KEY } from '../../../src/ui/auth/auth-store.ts'
import {
  OIDC_ERROR_MESSAGES,
  SSO_GENERIC_FAILURE,
  SSO_HINT_KEY,
  SSO_START_FAILED,
  ssoNavigation,
} from '../../../src/ui/auth/sso.ts'
import {
  CONFIGURED,
  appShown,
  authServer,
  callsTo,
  loginShown,
  setCsrfCookie,
  useAuthHarness,
  worker,
} from './auth-harness.ts'
import { renderApp, unmountAll } from './render.tsx'

useAuthHarness()

const SSO = { ...CONFIGURED, oidcEnabled: true }
const ssoButton = () => page.getByRole('button', { name: 'Sign in with single sign-on' })
const AUTHORIZATION_URL = 'https://id.example.com/auth?client_id=pulse&state=s1'

let assign: ReturnType<typeof vi.fn<(url: string) => void>>
let startUrl = ''
beforeEach(() => {
  startUrl = window.location.pathname + window.location.search + window.location.hash
  assign = vi.fn<(url: string) => void>()
  vi.spyOn(ssoNavigation, 'assign').mockImplementation(assign)
})
afterEach(() => {
  window.history.replaceState(window.history.state, '', startUrl)
})

describe('login screen', () => {
  test('single sign-on as the only way in: no password form, just the provider button', async () => {
    authServer(() => ({ ...SSO, hasPasswordLogin: false }), {
      'POST /api/oidc/login': () => Response.json({ authorizationUrl: AUTHORIZATION_URL }),
    })
    renderApp(worker())
    await expect.element(ssoButton()).toBeVisible()
    expect(page.getByLabelText('Password').query()).toBeNull()
    expect(page.getByRole('button', { name: 'Sign in', exact: true }).query()).toBeNull()
    await ssoButton().click()
    await expect.poll(() => assign.mock.calls.length).toBe(1)
  })

  test('offers single sign-on when the status says so, and goes to the provider', async () => {
    const fetchMock = authServer(() => SSO, {
      'POST /api/oidc/login': () => Response.json({ authorizationUrl: AUTHORIZATION_URL }),
    })
    renderApp(worker())
    await loginShown()
    await ssoButton().click()
    await expect.poll(() => assign.mock.calls.length).toBe(1)
    expect(assign).toHaveBeenCalledWith(AUTHORIZATION_URL)
    const [, init] = callsTo(fetchMock, 'POST', '/api/oidc/login')[0]!
    expect(JSON.parse(String(init!.body))).toEqual({
      returnTo: window.location.pathname + window.location.search,
    })
    // The browser is leaving: the button stays busy.
    await expect
      .element(page.getByRole('button', { name: 'Redirecting to single sign-on...' }))
      .toBeDisabled()
  })

  test('leaving for the provider clears the logout flag, so the return is signed in', async () => {
    authServer(() => SSO, {
      'POST /api/oidc/login': () => Response.json({ authorizationUrl: AUTHORIZATION_URL }),
    })
    // As a logout leaves them: the flag, and the hint that SSO is on.
    sessionStorage.setItem(JUST_LOGGED_OUT_KEY, '1')
    sessionStorage.setItem(SSO_HINT_KEY, '1')
    renderApp(worker())
    await loginShown()
    await ssoButton().click()
    await expect.poll(() => assign.mock.calls.length).toBe(1)
    expect(sessionStorage.getItem(JUST_LOGGED_OUT_KEY)).toBeNull()
  })

  test('no button when single sign-on is off', async () => {
    authServer(() => CONFIGURED)
    renderApp(worker())
    await loginShown()
    await expect.element(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible()
    expect(ssoButton().query()).toBeNull()
  })

  test.each([
    ['a 400', () => Response.json({ code: 'OIDC_DISABLED' }, { status: 400 })],
    ['a 502', () => Response.json({ code: 'OIDC_PROVIDER_UNREACHABLE' }, { status: 502 })],
    ['an answer without a URL', () => Response.json({ authorizationUrl: 'javascript:x' })],
  ])(
    '%s from the start shows the start failure text; the button works again',
    async (_, answer) => {
      authServer(() => SSO, { 'POST /api/oidc/login': answer })
      renderApp(worker())
      await loginShown()
      await ssoButton().click()
      await expect.element(page.getByRole('alert')).toHaveTextContent(SSO_START_FAILED)
      await expect.element(ssoButton()).toBeEnabled()
      expect(assign).not.toHaveBeenCalled()
    },
  )

  test('a network failure of the start shows the start failure text', async () => {
    authServer(
      () => SSO,
      {},
      (url, init) => {
        if (url.endsWith('/api/oidc/login') && init?.method === 'POST') {
          throw new TypeError('Failed to fetch')
        }
        return undefined
      },
    )
    renderApp(worker())
    await loginShown()
    await ssoButton().click()
    await expect.element(page.getByRole('alert')).toHaveTextContent(SSO_START_FAILED)
  })
})

describe('?oidc_error= (spec 001 §8)', () => {
  test.each(Object.entries(OIDC_ERROR_MESSAGES))(
    '%s shows its message and leaves the URL',
    async (code, message) => {
      window.history.replaceState(null, '', `/?keep=1&oidc_error=${code}`)
      authServer(() => SSO)
      renderApp(worker())
      await loginShown()
      await expect.element(page.getByRole('alert')).toHaveTextContent(message)
      expect(window.location.search).toBe('?keep=1')
    },
  )

  test('group_restricted names the group rule; an unknown code gets the generic text', async () => {
    expect(OIDC_ERROR_MESSAGES.group_restricted).toBe(
      'Your account is not in a group allowed to use Pulse.',
    )
    window.history.replaceState(null, '', '/?oidc_error=provider_error')
    authServer(() => SSO)
    renderApp(worker())
    await loginShown()
    await expect.element(page.getByRole('alert')).toHaveTextContent(SSO_GENERIC_FAILURE)
    expect(window.location.search).toBe('')
  })

  test('the message goes away when the user signs in with the password', async () => {
    window.history.replaceState(null, '', '/?oidc_error=invalid_state')
    authServer(() => SSO, {
      'POST /api/login': () => Response.json({ success: true, username: 'admin' }),
    })
    renderApp(worker())
    await loginShown()
    await expect.element(page.getByRole('alert')).toBeVisible()
    await page.getByLabelText('Username').fill('admin')
    await page.getByLabelText('Password').fill('pw')
    await page.getByRole('button', { name: 'Sign in', exact: true }).click()
    await appShown()
    expect(page.getByRole('alert').query()).toBeNull()
  })
})

describe('logout of a single sign-on session', () => {
  test('goes to the provider logout URL; after a reload the login screen still offers SSO', async () => {
    setCsrfCookie('csrf-1')
    let authenticated = true
    const fetchMock = authServer(
      () => ({ ...SSO, authenticated, authUsername: 'alice', oidcUsername: 'alice' }),
      {
        'POST /api/logout': () => {
          authenticated = false
          return Response.json({ success: true, logoutUrl: 'https://id.example.com/logout' })
        },
      },
    )
    renderApp(worker())
    await appShown()
    await page.getByRole('button', { name: 'Logout' }).click()
    await expect.poll(() => assign.mock.calls.length).toBe(1)
    expect(assign).toHaveBeenCalledWith('https://id.example.com/logout')
    expect(sessionStorage.getItem(JUST_LOGGED_OUT_KEY)).toBe('1')
    expect(sessionStorage.getItem(SSO_HINT_KEY)).toBe('1')

    const statusCalls = callsTo(fetchMock, 'GET', '/api/security/status').length
    unmountAll()
    renderApp(worker())
    await loginShown()
    await expect.element(ssoButton()).toBeVisible()
    expect(callsTo(fetchMock, 'GET', '/api/security/status')).toHaveLength(statusCalls)
  })

  test('a logout answer without a logout URL stays on the login screen', async () => {
    setCsrfCookie('csrf-1')
    authServer(() => ({ ...CONFIGURED, authenticated: true, authUsername: 'admin' }), {
      'POST /api/logout': () => Response.json({ success: true }),
    })
    renderApp(worker())
    await appShown()
    await page.getByRole('button', { name: 'Logout' }).click()
    await loginShown()
    expect(assign).not.toHaveBeenCalled()
    expect(sessionStorage.getItem(SSO_HINT_KEY)).toBeNull()
    expect(ssoButton().query()).toBeNull()
  })
})
