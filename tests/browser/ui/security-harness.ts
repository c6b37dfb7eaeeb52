// Shared set-up of the Security tab tests: a signed-in status, the tab's routes stubbed, and
// helpers for request bodies, toasts and the page reload. The real server's routes are tested in
// tests/unit/server and end to end in tests/e2e.
import { expect, vi } from 'vitest'
import { page } from 'vitest/browser'
import { RELOAD_DELAY_MS, pageNavigation } from '../../../src/ui/lib/navigation.ts'
import { CONFIGURED, authServer, callsTo, worker, type Json } from './auth-harness.ts'
import { renderApp, type StubRoute } from './render.tsx'

/** Signed in with a password, API token set, private network, no HTTPS: score 4 of 5. */
export const STATUS = {
  ...CONFIGURED,
  authenticated: true,
  authUsername: 'admin',
  credentialsEncrypted: true,
  apiTokenConfigured: true,
  apiTokenHint: 'a1b2c3d4...8f90',
  oidcEnabled: false,
  oidcUsername: '',
  oidcLogoutURL: '',
  hasProxyAuth: false,
  proxyAuthUsername: '',
  proxyAuthIsAdmin: false,
  proxyAuthLogoutURL: '',
  exportProtected: true,
  unprotectedExportAllowed: false,
  hasHTTPS: false,
  hasAuditLogging: true,
  publicAccess: false,
  isPrivateNetwork: true,
  clientIP: '127.0.0.20',
  configuredButPendingRestart: false,
}

/** GET /api/security/oidc of a server where single sign-on was never set up. */
export const OIDC = {
  enabled: false,
  issuerUrl: '',
  clientId: '',
  clientSecretSet: false,
  redirectUrl: '',
  defaultRedirect: 'http://pulse.lan:7655/api/oidc/callback',
  logoutUrl: '',
  scopes: ['openid', 'profile', 'email'],
  usernameClaim: 'preferred_username',
  emailClaim: 'email',
  groupsClaim: 'groups',
  allowedGroups: [],
  allowedDomains: [],
  allowedEmails: [],
  envOverrides: [],
}

/** GET /api/users' first-run account. */
export const ADMIN_USER = {
  username: 'admin',
  role: 'admin',
  disabled: false,
  createdAt: 1_767_225_600_000,
  updatedAt: 1_767_225_600_000,
}

export type Routes = Partial<
  Record<string, (body: Json, init: RequestInit | undefined) => Response>
>

/** GET /api/security/lockout of an account that is not locked. */
export const UNLOCKED = {
  accounts: [
    { username: 'admin', locked: false, failures: 0, lockedUntil: null, remainingMinutes: 0 },
  ],
}

/**
 * Stubs the server for the tab: `status()` (STATUS by default), the OIDC config, an empty
 * audit log, an unlocked account, no named API tokens and no sessions unless `routes` (keyed 'METHOD /path')
 * say otherwise.
 */
export function securityServer({
  status = () => STATUS,
  routes = {},
  extra,
}: { status?: () => unknown; routes?: Routes; extra?: StubRoute } = {}) {
  return authServer(
    status,
    {
      'GET /api/security/oidc': () => Response.json(OIDC),
      'GET /api/security/audit': () => Response.json({ events: [] }),
      'GET /api/security/lockout': () => Response.json(UNLOCKED),
      'GET /api/users': () => Response.json({ users: [ADMIN_USER] }),
      'GET /api/security/tokens': () => Response.json({ tokens: [] }),
      'GET /api/security/sessions': () => Response.json({ sessions: [], truncated: false }),
      ...routes,
    },
    extra,
  )
}

/** Opens the app at /settings/security and waits for the tab. */
export async function openSecurityTab(size?: { width: number; height: number }) {
  const view = renderApp(worker(), '/settings/security', size)
  await expect.element(page.getByRole('heading', { name: 'Security posture' })).toBeVisible()
  return view
}

/** The parsed JSON body of the `index`th call to `method path`. */
export function bodyOf(
  mock: ReturnType<typeof securityServer>,
  method: string,
  path: string,
  index = 0,
): Json {
  const call = callsTo(mock, method, path)[index]
  if (!call) throw new Error(`no call ${index} to ${method} ${path}`)
  return JSON.parse(String(call[1]!.body)) as Json
}

/** The headers of the `index`th call to `method path`. */
export function headersOf(
  mock: ReturnType<typeof securityServer>,
  method: string,
  path: string,
  index = 0,
): Record<string, string> {
  return callsTo(mock, method, path)[index]![1]!.headers as Record<string, string>
}

/** Replaces the page reload (which would reload the test runner) with a spy. */
export function spyReload() {
  return vi.spyOn(pageNavigation, 'reload').mockImplementation(() => {})
}

/**
 * Holds the timers set for the reload delay instead of running them (other timers run as usual):
 * the test fires them itself, so it checks the delay without waiting on the clock.
 */
export function holdReloadTimers(): Array<() => void> {
  const held: Array<() => void> = []
  const real = window.setTimeout.bind(window)
  const hold = (handler: TimerHandler, ms?: number, ...args: unknown[]) => {
    if (ms === RELOAD_DELAY_MS && typeof handler === 'function') {
      held.push(() => void (handler as () => void)())
      return 0
    }
    return real(handler, ms, ...args)
  }
  vi.spyOn(window, 'setTimeout').mockImplementation(hold as typeof window.setTimeout)
  return held
}

/** The toast showing exactly `text`. */
export const toast = (text: string) => page.getByText(text, { exact: true })

/** The open dialog named `name`. */
export const dialog = (name: string) => page.getByRole('dialog', { name })
