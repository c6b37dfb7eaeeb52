// Settings → Security: the locked account with its Unlock button (issue 12 item 7), and the audit
// log card reloading after audited actions (item 16). The server is stubbed; its lockout and
// unlock routes are tested in tests/unit/server/auth/account-lockout.test.ts.
import { describe, expect, test, vi } from 'vitest'
import { page } from 'vitest/browser'
import { useAuthHarness, callsTo } from './auth-harness.ts'
import {
  UNLOCKED,
  bodyOf,
  dialog,
  openSecurityTab,
  securityServer,
  toast,
} from './security-harness.ts'

useAuthHarness()

const LOCKED = {
  accounts: [
    {
      username: 'admin',
      locked: true,
      failures: 5,
      lockedUntil: '2026-01-01T12:15:00.000Z',
      remainingMinutes: 12,
    },
  ],
}

const event = (id: number, type: string) => ({
  id,
  time: '2026-01-01T12:00:00.000Z',
  type,
  username: 'admin',
  ip: '203.0.113.9',
  detail: '',
})

const lockoutCard = () => page.getByRole('region', { name: 'Account lockout' })
const auditList = () => page.getByRole('list', { name: 'Security events' })

describe('account lockout card', () => {
  test('shows a locked account; Unlock lifts it and the audit log shows the unlock', async () => {
    let lock: object = LOCKED
    let events = [event(1, 'lockout')]
    const fetchMock = securityServer({
      routes: {
        'GET /api/security/lockout': () => Response.json(lock),
        'GET /api/security/audit': () => Response.json({ events }),
        'POST /api/security/unlock': () => {
          lock = UNLOCKED
          events = [event(2, 'account_unlocked'), ...events]
          return Response.json({ success: true, unlocked: true })
        },
      },
    })
    await openSecurityTab()
    await expect
      .element(lockoutCard())
      .toHaveTextContent('admin is locked after 5 failed sign-ins; it unlocks by itself in 12')
    await expect.element(auditList().getByText('Account locked')).toBeVisible()

    await lockoutCard().getByRole('button', { name: 'Unlock' }).click()
    await expect.element(toast('Account admin unlocked')).toBeVisible()
    expect(bodyOf(fetchMock, 'POST', '/api/security/unlock')).toEqual({ username: 'admin' })
    await expect.element(lockoutCard()).toHaveTextContent('admin is not locked.')
    expect(lockoutCard().getByRole('button', { name: 'Unlock' }).query()).toBeNull()
    await expect.element(auditList().getByText('Account unlocked')).toBeVisible()
  })

  test('a failed unlock shows the server text and keeps the button', async () => {
    securityServer({
      routes: {
        'GET /api/security/lockout': () => Response.json(LOCKED),
        'POST /api/security/unlock': () =>
          Response.json(
            { code: 'ADMIN_REQUIRED', message: 'Admin privileges required' },
            { status: 403 },
          ),
      },
    })
    await openSecurityTab()
    await lockoutCard().getByRole('button', { name: 'Unlock' }).click()
    await expect.element(lockoutCard().getByText('Admin privileges required')).toBeVisible()
    await expect.element(lockoutCard().getByRole('button', { name: 'Unlock' })).toBeEnabled()
  })
})

describe('audit log card', () => {
  test('reloads after an export and shows the export event without Refresh', async () => {
    vi.spyOn(URL, 'createObjectURL').mockImplementation(() => 'blob:export')
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {})
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {})
    let events = [event(1, 'login_success')]
    const fetchMock = securityServer({
      routes: {
        'GET /api/security/audit': () => Response.json({ events }),
        'POST /api/config/export': () => {
          events = [event(2, 'config_export'), ...events]
          return Response.json({ format: 'pulse-config' })
        },
      },
    })
    await openSecurityTab()
    await expect.element(auditList().getByText('Login', { exact: true })).toBeVisible()
    const loads = callsTo(fetchMock, 'GET', '/api/security/audit').length

    await page.getByRole('button', { name: 'Export configuration' }).click()
    await dialog('Export configuration')
      .getByLabelText('Login password', { exact: true })
      .fill('my-login-pw')
    await dialog('Export configuration')
      .getByRole('button', { name: 'Export', exact: true })
      .click()
    await expect.element(toast('Configuration exported successfully')).toBeVisible()
    await expect.element(auditList().getByText('Configuration exported')).toBeVisible()
    expect(callsTo(fetchMock, 'GET', '/api/security/audit').length).toBe(loads + 1)
  })
})
