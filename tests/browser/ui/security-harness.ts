// Shared set-up of the Security tab tests: a signed-in status, the tab's routes stubbed, and
// helpers for request bodies, toasts and the page reload. The real server's routes are tested in
// tests/unit/server and end to end in tests/e2e.
import { expect, vi } from 'vitest'
import { page } from 'vitest/browser'
import { pageNavigation } from '../../../src/ui/lib/navigation.ts'
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

export type Routes = Partial<
  Record<string, (body: Json, init: RequestInit | undefined) => Response>
>

/**
 * Stubs the server for the tab: `status()` (STATUS by default), the OIDC config and an empty
 * audit log unless `routes` (keyed 'METHOD /path') say otherwise.
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

/** The toast showing exactly `text`. */
export const toast = (text: string) => page.getByText(text, { exact: true })

/** The open dialog named `name`. */
export const dialog = (name: string) => page.getByRole('dialog', { name })
