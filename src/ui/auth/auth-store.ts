// The browser side of authentication (spec 001 §4 Auth flow on start, Logout, Quick security
// setup): which screen the gate shows, who is signed in, and the calls behind the screens.
import { proxy } from 'valtio'
import type { ErrorCode } from '../../shared/model/errors.ts'
import { isRole, type Role } from '../../shared/model/roles.ts'
import type { SecurityStatus } from '../../shared/model/security.ts'
import { appErrorOf } from '../api/errors.ts'
import { HttpError, apiFetch, apiJson } from '../api/http.ts'
import { THEME_KEY, defaultDashboardState, uiState } from '../state.ts'
import { rememberSecurityStatus } from './security-status.ts'
import {
  JUST_LOGGED_OUT_KEY,
  afterLogout,
  captureOidcError,
  resetSso,
  setSsoOffered,
} from './sso.ts'
import { finiteOr } from '../../shared/model/coerce.ts'

export { JUST_LOGGED_OUT_KEY } from './sso.ts'

/** What the auth gate shows. `disabled` and `authenticated` let the app through. */
export const AUTH_PHASES = [
  'checking',
  'disabled',
  'setup',
  'login',
  'authenticated',
  'error',
] as const
export type AuthPhase = (typeof AUTH_PHASES)[number]

export interface AuthState {
  phase: AuthPhase
  /** The signed-in user ('' when unknown or auth is off). */
  username: string
  /**
   * The signed-in user's role (issue 29), or null when unknown (an older server): the UI then
   * shows everything and the server's 403 answers. 'admin' when auth is off.
   */
  role: Role | null
  /** Why the check failed (phase 'error'). */
  error: string
}

export const authState = proxy<AuthState>({
  phase: 'checking',
  username: '',
  role: null,
  error: '',
})

/** The role an answer names, or null. */
const roleOf = (value: unknown): Role | null => (isRole(value) ? value : null)

// Each flow takes a ticket; only the newest may write the state, so a slow start that finishes
// after a login (or a StrictMode double start) cannot overwrite it.
let ticket = 0

function take(): (patch: Partial<AuthState>) => void {
  const mine = ++ticket
  return (patch) => {
    if (mine === ticket) Object.assign(authState, patch)
  }
}

/** Back to 'checking', as on a fresh page (tests call it between mounts). */
export function resetAuth(): void {
  ticket += 1
  Object.assign(authState, { phase: 'checking', username: '', role: null, error: '' })
  resetSso()
}

function storageGet(storage: () => Storage, key: string): string | null {
  try {
    return storage().getItem(key)
  } catch {
    return null
  }
}

function storageSet(storage: () => Storage, key: string, value: string | null): void {
  try {
    if (value === null) storage().removeItem(key)
    else storage().setItem(key, value)
  } catch {
    // Blocked storage: the flag then lasts only for this page.
  }
}

const session = () => sessionStorage

/** The §4 start: just-logged-out flag, security status, then the /api/state probe. */
export async function startAuth(): Promise<void> {
  const set = take()
  set({ phase: 'checking', error: '' })
  // A failed single sign-on comes back as /?oidc_error=<code>: keep the message, drop the param.
  captureOidcError()
  if (storageGet(session, JUST_LOGGED_OUT_KEY) === '1') {
    setSsoOffered(null)
    set({ phase: 'login', username: '', role: null })
    return
  }
  // Partial: an older server's answer may lack fields.
  let status: Partial<SecurityStatus> | null = null
  try {
    status = await apiJson<Partial<SecurityStatus>>('/api/security/status')
  } catch (error) {
    // Spec 001 §7: a 429 on the status check assumes authentication is configured; any other
    // failure falls back to the probe too (spec 000 §6: 401 on the state call means login).
    if (!(error instanceof HttpError && error.status === 429)) {
      console.warn('Security status could not be read; probing /api/state.', error)
    }
  }
  // The security warning banner reads the same answer.
  rememberSecurityStatus(status)
  setSsoOffered(status?.oidcEnabled === true)
  if (status?.disabled) {
    set({ phase: 'disabled', username: '', role: 'admin' })
    return
  }
  if (status?.authenticated) {
    set({
      phase: 'authenticated',
      username: status.authUsername ?? '',
      role: roleOf(status.role),
    })
    return
  }
  if (status && status.hasAuthentication === false) {
    set({ phase: 'setup', username: '', role: null })
    return
  }
  try {
    const res = await apiFetch('/api/state')
    // Only the status matters; the full state arrives over the socket.
    void res.body?.cancel().catch(() => {})
    if (res.ok) {
      set({
        phase: 'authenticated',
        username: status?.authUsername ?? '',
        role: roleOf(status?.role),
      })
    } else if (res.status === 401) set({ phase: 'login', username: '', role: null })
    else set({ phase: 'error', error: `The server answered ${res.status} to the login check.` })
  } catch {
    set({ phase: 'error', error: 'Failed to connect to server.' })
  }
}

/** What the login form shows after a failed attempt. */
export interface LoginFailure {
  message: string
  /** Lockout: the form clears its fields. */
  clearFields: boolean
  /** The answer's catalogue code (ACCOUNT_LOCKED styles the lockout panel), else null. */
  code: ErrorCode | null
}

function numberOf(body: unknown, key: string): number | undefined {
  if (typeof body !== 'object' || body === null) return undefined
  const value = (body as Record<string, unknown>)[key]
  return finiteOr(value, undefined)
}

function serverMessage(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined
  const value = (body as { message?: unknown }).message
  return typeof value === 'string' && value.trim() ? value.trim() : undefined
}

/** An answer without a catalogue code (an older server, a proxy): its code read off the status. */
const STATUS_CODES: Partial<Record<number, ErrorCode>> = {
  401: 'INVALID_CREDENTIALS',
  403: 'ACCOUNT_LOCKED',
  429: 'RATE_LIMITED',
}

/**
 * The login error text of spec 001 §8 for a non-OK answer. Branches on the answer's code
 * (AppError.fromJSON), falling back to the status only when the body carries none.
 */
export function loginFailure(status: number, body: unknown): LoginFailure {
  const error = appErrorOf(body)
  const code = error?.code ?? STATUS_CODES[status] ?? null
  const text = serverMessage(body)
  switch (code) {
    case 'ACCOUNT_LOCKED': {
      const minutes = numberOf(body, 'remainingMinutes')
      const message =
        minutes !== undefined
          ? `Account locked. Please try again in ${minutes} minute(s).`
          : (text ?? 'Account locked. Please try again later.')
      return { message, clearFields: true, code }
    }
    case 'RATE_LIMITED':
      return {
        message: text ?? 'Too many requests. Please wait a moment and try again.',
        clearFields: false,
        code,
      }
    case 'INVALID_CREDENTIALS': {
      const base = text ?? 'Invalid username or password'
      const remaining = numberOf(body, 'remaining')
      const locked = (body as { locked?: unknown } | null)?.locked === true
      if (remaining !== undefined && remaining > 0) {
        const word = remaining === 1 ? 'attempt' : 'attempts'
        return { message: `${base} (${remaining} ${word} remaining)`, clearFields: false, code }
      }
      if (locked || remaining === 0) {
        return { message: `${base} (account locked)`, clearFields: true, code: 'ACCOUNT_LOCKED' }
      }
      return { message: base, clearFields: false, code }
    }
  }
  // Another catalogue answer below 500 (a bad field, no login configured yet) says what is wrong.
  if (error && status < 500) return { message: error.message, clearFields: false, code }
  return { message: 'Server error. Please try again.', clearFields: false, code }
}

/** POST /api/login. Resolves null on success (the app opens), else what the form shows. */
export async function login(username: string, password: string): Promise<LoginFailure | null> {
  const set = take()
  let answer: { username?: unknown; role?: unknown } | null
  try {
    answer = await apiJson<{ username?: unknown; role?: unknown }>('/api/login', {
      method: 'POST',
      body: { username, password },
      retryRateLimit: false,
    })
  } catch (error) {
    if (error instanceof HttpError) {
      // A 200 that is not JSON is a broken proxy, not a login answer.
      if (error.status < 400)
        return { message: 'Server error. Please try again.', clearFields: false, code: null }
      return loginFailure(error.status, error.body)
    }
    return { message: 'Failed to connect to server.', clearFields: false, code: null }
  }
  storageSet(session, JUST_LOGGED_OUT_KEY, null)
  const name = typeof answer?.username === 'string' ? answer.username : username
  set({ phase: 'authenticated', username: name, role: roleOf(answer?.role), error: '' })
  return null
}

/** Clears what this browser stored, except the theme (spec 001 §4 Logout). */
function clearStoredData(): void {
  try {
    const theme = localStorage.getItem(THEME_KEY)
    localStorage.clear()
    if (theme !== null) localStorage.setItem(THEME_KEY, theme)
  } catch {
    // Blocked storage holds nothing to clear.
  }
  try {
    sessionStorage.clear()
  } catch {
    // As above.
  }
  // What a reload would do to the in-memory copy of the cleared preferences.
  uiState.dashboard = defaultDashboardState()
}

/**
 * Logout: POST /api/logout (the server revokes the session and clears the cookies), clear stored
 * data except the theme, set the just-logged-out flag and show the login screen. A failed call
 * still signs out locally. A single sign-on session's answer names the provider's logout URL:
 * the browser goes there (spec 001 §4).
 */
export async function logout(): Promise<void> {
  const set = take()
  let answer: unknown = null
  try {
    answer = await apiJson('/api/logout', { method: 'POST', body: {} })
  } catch (error) {
    console.warn('Logout call failed; signing out locally.', error)
  }
  clearStoredData()
  storageSet(session, JUST_LOGGED_OUT_KEY, '1')
  set({ phase: 'login', username: '', role: null, error: '' })
  afterLogout(answer)
}

/** The one-time answer of a successful quick setup. */
export interface SetupCredentials {
  username: string
  password: string
  apiToken: string
}

interface QuickSetupAnswer {
  success?: boolean
  skipped?: boolean
  message?: string
  username?: string
  password?: string
  apiToken?: string
}

/** Thrown when the server says security is already configured. */
export class SetupSkippedError extends Error {
  override readonly name = 'SetupSkippedError'
}

/**
 * POST /api/security/quick-setup (spec 001 §4 Quick security setup). Without a password the
 * server generates one. The server also signs the browser in; `completeSetup` opens the app
 * once the user has saved the credentials.
 */
export async function quickSetup(request: {
  username: string
  password?: string
  /** Rotate: replace credentials that already exist (an authenticated admin only). */
  force?: boolean
}): Promise<SetupCredentials> {
  const answer = await apiJson<QuickSetupAnswer>('/api/security/quick-setup', {
    method: 'POST',
    body: request,
  })
  if (answer?.skipped || answer?.success === false) {
    throw new SetupSkippedError(
      answer.message ??
        'Security is already configured. Please remove existing security first if you want to reconfigure.',
    )
  }
  if (!answer || typeof answer.password !== 'string' || typeof answer.apiToken !== 'string') {
    throw new Error('The server did not return the new credentials')
  }
  return {
    username: typeof answer.username === 'string' ? answer.username : request.username,
    password: answer.password,
    apiToken: answer.apiToken,
  }
}

/** "Done - I've Saved My Credentials": into the app with the session the setup created. */
export function completeSetup(username: string): void {
  const set = take()
  storageSet(session, JUST_LOGGED_OUT_KEY, null)
  // Only the admin runs the first-run setup.
  set({ phase: 'authenticated', username, role: 'admin', error: '' })
}
