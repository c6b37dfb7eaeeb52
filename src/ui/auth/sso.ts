// Single sign-on in the browser (spec 001 §2 Login screen, §4 Logout, §8 single sign-on errors):
// starting the provider login, the ?oidc_error= the server's callback redirects with, and whether
// the login screen offers the button.
import { proxy } from 'valtio'
import { apiJson } from '../api/http.ts'

/** Session-storage flag set by logout: the next start shows the login screen (spec 001 §4). */
export const JUST_LOGGED_OUT_KEY = 'pulse.justLoggedOut'

export const SSO_START_FAILED = 'Failed to start single sign-on. Please try again.'
export const SSO_GENERIC_FAILURE = 'Single sign-on failed. Please try again.'

/** Texts per ?oidc_error= code; any other code gets SSO_GENERIC_FAILURE. */
export const OIDC_ERROR_MESSAGES: Readonly<Record<string, string>> = {
  email_restricted: 'Your email address is not allowed to use Pulse.',
  domain_restricted: 'Your email domain is not allowed to use Pulse.',
  group_restricted: 'Your account is not in a group allowed to use Pulse.',
  role_restricted:
    'Your account is not in a group that has a role in Pulse. Please contact your administrator.',
  invalid_state: 'The single sign-on request expired or was already used. Please try again.',
  exchange_failed:
    'Pulse could not complete the sign-in with your identity provider. Please try again.',
  session_failed:
    'You signed in at your identity provider, but Pulse could not start a session. Please try again.',
  invalid_id_token:
    'Your identity provider sent an invalid ID token. Please contact your administrator.',
  invalid_signature_alg:
    'Your identity provider signed the ID token with an unsupported algorithm. Please contact your administrator.',
  invalid_nonce: 'The single sign-on answer did not match this sign-in. Please try again.',
}

/** The message for a ?oidc_error= code. */
export function oidcErrorMessage(code: string): string {
  return Object.hasOwn(OIDC_ERROR_MESSAGES, code) ? OIDC_ERROR_MESSAGES[code]! : SSO_GENERIC_FAILURE
}

export const OIDC_ERROR_PARAM = 'oidc_error'

/**
 * sessionStorage: single sign-on was offered when the user logged out, so the login screen shown
 * from the just-logged-out flag (no status read) still offers it.
 */
export const SSO_HINT_KEY = 'pulse.ssoAvailable'

export interface SsoState {
  /** The login screen offers single sign-on (status.oidcEnabled, or the hint after logout). */
  offered: boolean
  /** The single sign-on error to show on the login screen ('' = none). */
  error: string
}

export const ssoState = proxy<SsoState>({ offered: false, error: '' })

/** As on a fresh page (the auth store's reset). */
export function resetSso(): void {
  ssoState.offered = false
  ssoState.error = ''
}

/** Full-page navigation, behind an object so tests can replace it. */
export const ssoNavigation = {
  assign(url: string): void {
    window.location.assign(url)
  },
}

/**
 * Reads ?oidc_error= from the page URL into `ssoState` and removes it from the URL (keeping the
 * rest), so a reload does not show it again.
 */
export function captureOidcError(): void {
  let url: URL
  try {
    url = new URL(window.location.href)
  } catch {
    return
  }
  const code = url.searchParams.get(OIDC_ERROR_PARAM)
  if (code === null) return
  ssoState.error = oidcErrorMessage(code)
  url.searchParams.delete(OIDC_ERROR_PARAM)
  window.history.replaceState(window.history.state, '', url.pathname + url.search + url.hash)
}

export function clearSsoError(): void {
  ssoState.error = ''
}

/** Whether the login screen offers single sign-on; null = as the hint left at logout says. */
export function setSsoOffered(offered: boolean | null): void {
  if (offered !== null) {
    ssoState.offered = offered
    return
  }
  try {
    ssoState.offered = sessionStorage.getItem(SSO_HINT_KEY) === '1'
  } catch {
    ssoState.offered = false
  }
}

/**
 * After logout has cleared the stored data: leave the hint for the next login screen, and go to
 * the provider's logout URL when the server's answer names one (an OIDC session, spec 001 §4).
 */
export function afterLogout(answer: unknown): void {
  try {
    if (ssoState.offered) sessionStorage.setItem(SSO_HINT_KEY, '1')
  } catch {
    // Blocked storage: the next login screen reads the status instead.
  }
  const url = (answer as { logoutUrl?: unknown } | null)?.logoutUrl
  if (typeof url === 'string' && /^https?:\/\//i.test(url)) ssoNavigation.assign(url)
}

/**
 * POST /api/oidc/login with the page to come back to, then go to the provider. Resolves null when
 * the browser is on its way, else the start failure text.
 */
export async function startSso(returnTo: string): Promise<string | null> {
  try {
    const answer = await apiJson<{ authorizationUrl?: unknown }>('/api/oidc/login', {
      method: 'POST',
      body: { returnTo },
      retryRateLimit: false,
    })
    const url = answer?.authorizationUrl
    if (typeof url !== 'string' || !/^https?:\/\//i.test(url)) return SSO_START_FAILED
    // Signing in again: the logout flag must not send the returning page to the login screen.
    try {
      sessionStorage.removeItem(JUST_LOGGED_OUT_KEY)
    } catch {
      // Storage blocked: nothing was stored either.
    }
    ssoNavigation.assign(url)
    return null
  } catch (error) {
    console.warn('Single sign-on could not start.', error)
    return SSO_START_FAILED
  }
}
