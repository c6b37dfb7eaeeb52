// Settings > Security (spec 001 §2 Security tab, §4 API token / Change password / Quick security
// setup, §5, §8) with a stubbed fetch and a fake worker.
import { describe, expect, test, vi } from 'vitest'
import { page } from 'vitest/browser'
import { setDark } from '../../../src/ui/state.ts'
import { PASSWORD, TOKEN, callsTo, setCsrfCookie, useAuthHarness } from './auth-harness.ts'
import {
  STATUS,
  bodyOf,
  dialog,
  headersOf,
  openSecurityTab,
  securityServer,
  spyReload,
  toast,
  holdReloadTimers,
} from './security-harness.ts'

useAuthHarness()

const score = () => page.getByTestId('security-score')

describe('status and posture (spec 001 §2)', () => {
  test.each([
    { name: 'password, token, export, audit', patch: {}, text: '4/5', level: 'good' },
    { name: 'everything with HTTPS', patch: { hasHTTPS: true }, text: '5/5', level: 'good' },
    {
      name: 'no API token',
      patch: { apiTokenConfigured: false, apiTokenHint: '' },
      text: '3/5',
      level: 'fair',
    },
    {
      name: 'no token, unprotected export',
      patch: { apiTokenConfigured: false, exportProtected: false },
      text: '2/5',
      level: 'weak',
    },
    {
      name: 'single sign-on only, nothing else',
      patch: {
        hasAuthentication: false,
        oidcEnabled: true,
        oidcUsername: 'sso-user',
        apiTokenConfigured: false,
        exportProtected: false,
        hasAuditLogging: false,
      },
      text: '1/5',
      level: 'poor',
    },
  ])('$name scores $text ($level)', async ({ patch, text, level }) => {
    securityServer({ status: () => ({ ...STATUS, ...patch }) })
    await openSecurityTab()
    await expect.element(score()).toHaveTextContent(text)
    expect(score().element().getAttribute('data-level')).toBe(level)
    const colour = {
      good: 'text-emerald',
      fair: 'text-yellow',
      weak: 'text-orange',
      poor: 'text-red',
    }[level]!
    expect(score().element().className).toContain(colour)
    await expect
      .element(page.getByRole('meter', { name: 'Security score' }))
      .toHaveAttribute('aria-valuenow', text.split('/')[0]!)
  })

  test('the seven tiles in order, on or off, and the status rows', async () => {
    securityServer()
    await openSecurityTab()
    const tiles = [...document.querySelectorAll<HTMLElement>('[data-tile]')]
    expect(tiles.map((tile) => [tile.dataset.tile, tile.dataset.on])).toEqual([
      ['Password login', 'true'],
      ['Single sign-on', 'false'],
      ['Proxy auth', 'false'],
      ['API token', 'true'],
      ['Export protection', 'true'],
      ['HTTPS', 'false'],
      ['Audit log', 'true'],
    ])
    const row = (term: string) => document.querySelector(`[data-status="${term}"]`)!.textContent
    expect(row('Authentication')).toBe('Enabled: password')
    expect(row('Signed in as')).toBe('admin')
    expect(row('Your address')).toBe('127.0.0.20 (private network)')
    expect(row('Stored secrets')).toBe('Encrypted at rest')
    await expect.element(page.getByRole('button', { name: 'Change password' })).toBeVisible()
    await expect.element(page.getByRole('button', { name: 'Rotate credentials' })).toBeVisible()
  })

  test('auth disabled: the red banner with Setup, which opens the quick setup without force', async () => {
    const fetchMock = securityServer({
      status: () => ({ disabled: true, hasAuthentication: false, hasAuditLogging: true }),
      routes: {
        'POST /api/security/quick-setup': (body) =>
          Response.json({
            success: true,
            skipped: false,
            username: body.username,
            password: PASSWORD,
            apiToken: TOKEN,
          }),
      },
    })
    await openSecurityTab()
    const banner = page.getByRole('note', { name: 'Authentication disabled' })
    await expect.element(banner).toHaveTextContent(/Authentication is disabled \(DISABLE_AUTH\)/)
    expect(page.getByRole('button', { name: 'Change password' }).query()).toBeNull()
    expect(document.querySelector('[data-tile="Password login"]')!.textContent).toContain(
      'Disabled by DISABLE_AUTH',
    )
    await banner.getByRole('button', { name: 'Setup' }).click()
    const setup = dialog('Set up password login')
    await expect.element(setup.getByLabelText('Username')).toHaveValue('admin')
    await setup.getByRole('button', { name: 'Set up security' }).click()
    await expect.element(dialog('Save your credentials')).toBeVisible()
    expect(bodyOf(fetchMock, 'POST', '/api/security/quick-setup')).toEqual({ username: 'admin' })
  })

  test('proxy auth detected: username, admin confirmed and the proxy logout link', async () => {
    securityServer({
      status: () => ({
        ...STATUS,
        authUsername: '',
        hasProxyAuth: true,
        proxyAuthUsername: 'alice',
        proxyAuthIsAdmin: true,
        proxyAuthLogoutURL: 'https://sso.example.com/logout',
      }),
    })
    await openSecurityTab()
    const banner = page.getByRole('note', { name: 'Proxy authentication detected' })
    await expect.element(banner).toHaveTextContent(/reverse proxy as alice\. Admin confirmed\./)
    await expect
      .element(banner.getByRole('link', { name: 'Proxy logout' }))
      .toHaveAttribute('href', 'https://sso.example.com/logout')
    expect(document.querySelector('[data-status="Signed in as"]')!.textContent).toBe(
      'alice (reverse proxy)',
    )
  })

  test('the tab fits a 390 px phone in dark mode', async () => {
    await page.viewport(390, 800)
    setDark(true)
    try {
      securityServer()
      const { host } = await openSecurityTab({ width: 390, height: 800 })
      const main = host.querySelector('main')!
      expect(main.scrollWidth).toBeLessThanOrEqual(main.clientWidth)
      const card = page.getByRole('region', { name: 'Security posture' }).element()
      // Tailwind's dark gray-900 card, not the light white one.
      expect(getComputedStyle(card).backgroundColor).not.toBe('rgb(255, 255, 255)')
      await page.getByRole('button', { name: 'Change password' }).click()
      const panel = dialog('Change password').element()
      expect(panel.getBoundingClientRect().width).toBeLessThanOrEqual(390)
      expect(getComputedStyle(panel).backgroundColor).not.toBe('rgb(255, 255, 255)')
    } finally {
      setDark(false)
    }
  })
})

describe('change password (spec 001 §4, §5, §8)', () => {
  const current = () => page.getByLabelText('Current Password')
  const fresh = () => page.getByLabelText('New Password', { exact: true })
  const confirm = () => page.getByLabelText('Confirm New Password')
  const submit = () => dialog('Change password').getByRole('button', { name: 'Change password' })
  const error = () => dialog('Change password').getByRole('alert')

  test('validation texts in order, then the 401 text; nothing is sent while invalid', async () => {
    const fetchMock = securityServer({
      routes: {
        'POST /api/security/change-password': () =>
          Response.json({ message: 'Current password is incorrect' }, { status: 401 }),
      },
    })
    await openSecurityTab()
    await page.getByRole('button', { name: 'Change password' }).click()
    await expect.element(dialog('Change password')).toHaveAttribute('aria-modal', 'true')
    await expect.element(current()).toHaveFocus()
    await submit().click()
    await expect.element(error()).toHaveTextContent('All fields are required')
    await current().fill('old-password')
    await fresh().fill('new-password-1')
    await confirm().fill('new-password-2')
    await submit().click()
    await expect.element(error()).toHaveTextContent('New passwords do not match')
    await fresh().fill('short')
    await confirm().fill('short')
    await submit().click()
    await expect.element(error()).toHaveTextContent('Password must be at least 8 characters')
    expect(callsTo(fetchMock, 'POST', '/api/security/change-password')).toHaveLength(0)

    await fresh().fill('new-password-1')
    await confirm().fill('new-password-1')
    await submit().click()
    await expect.element(error()).toHaveTextContent(/^Current password is incorrect$/)
    await expect.element(dialog('Change password')).toBeVisible()
  })

  test('other failures show the server text, or the default', async () => {
    let answer = () => Response.json({ message: 'Password is too common' }, { status: 400 })
    securityServer({
      routes: { 'POST /api/security/change-password': () => answer() },
    })
    await openSecurityTab()
    await page.getByRole('button', { name: 'Change password' }).click()
    await current().fill('old-password')
    await fresh().fill('new-password-1')
    await confirm().fill('new-password-1')
    await submit().click()
    await expect.element(error()).toHaveTextContent('Password is too common')
    answer = () => new Response('', { status: 500 })
    await submit().click()
    await expect.element(error()).toHaveTextContent('Failed to change password')
  })

  test('success: the body with CSRF, the toast, the dialog closes and the page reloads after 2 s', async () => {
    setCsrfCookie('csrf-9')
    const reload = spyReload()
    const reloads = holdReloadTimers()
    const fetchMock = securityServer({
      routes: { 'POST /api/security/change-password': () => Response.json({ success: true }) },
    })
    await openSecurityTab()
    await page.getByRole('button', { name: 'Change password' }).click()
    await current().fill('old-password')
    await fresh().fill('new-password-1')
    await confirm().fill('new-password-1')
    await submit().click()
    await expect
      .element(toast('Password changed successfully. Please log in with your new password.'))
      .toBeVisible()
    expect(dialog('Change password').query()).toBeNull()
    expect(bodyOf(fetchMock, 'POST', '/api/security/change-password')).toEqual({
      currentPassword: 'old-password',
      newPassword: 'new-password-1',
    })
    expect(headersOf(fetchMock, 'POST', '/api/security/change-password')['X-CSRF-Token']).toBe(
      'csrf-9',
    )
    // Scheduled for the spec's 2 s, not done at once: the held timer reloads when it fires.
    expect(reload).not.toHaveBeenCalled()
    expect(reloads).toHaveLength(1)
    reloads[0]!()
    expect(reload).toHaveBeenCalledTimes(1)
  })

  test('Escape closes the dialog and the focus returns to the button', async () => {
    securityServer()
    await openSecurityTab()
    const button = page.getByRole('button', { name: 'Change password' })
    await button.click()
    await expect.element(dialog('Change password')).toBeVisible()
    await expect.element(current()).toHaveFocus()
    await page.getByLabelText('Current Password').fill('x')
    document.activeElement!.dispatchEvent(
      new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }),
    )
    await expect.element(dialog('Change password')).not.toBeInTheDocument()
    await expect.element(button).toHaveFocus()
  })
})

describe('API token (spec 001 §4)', () => {
  test('hint, Generate New Token, confirm, one-time display with Copy, Done shows the new hint', async () => {
    const writeText = vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue(undefined)
    let hint = STATUS.apiTokenHint
    const fetchMock = securityServer({
      status: () => ({ ...STATUS, apiTokenHint: hint }),
      routes: {
        'POST /api/security/regenerate-token': () => {
          hint = `${TOKEN.slice(0, 8)}...${TOKEN.slice(-4)}`
          return Response.json({ token: TOKEN })
        },
      },
    })
    await openSecurityTab()
    const hintText = page.getByTestId('api-token-hint')
    await expect.element(hintText).toHaveTextContent('Current token: a1b2c3d4...8f90')

    // Cancel first: nothing happens.
    await page.getByRole('button', { name: 'Generate New Token' }).click()
    const confirm = page.getByRole('alertdialog', { name: 'Generate a new API token?' })
    await expect.element(confirm).toHaveTextContent(/The current token stops working at once/)
    await expect.element(confirm.getByRole('button', { name: 'Cancel' })).toHaveFocus()
    await confirm.getByRole('button', { name: 'Cancel' }).click()
    expect(confirm.query()).toBeNull()
    expect(callsTo(fetchMock, 'POST', '/api/security/regenerate-token')).toHaveLength(0)

    await page.getByRole('button', { name: 'Generate New Token' }).click()
    await confirm.getByRole('button', { name: 'Generate token' }).click()
    await expect
      .element(toast("New API token generated! Save it now - it won't be shown again."))
      .toBeVisible()
    await expect.element(page.getByText(TOKEN)).toBeVisible()
    expect(hintText.query()).toBeNull()
    await page.getByRole('button', { name: 'Copy new API token' }).click()
    expect(writeText).toHaveBeenCalledWith(TOKEN)

    await page.getByRole('button', { name: 'Done' }).click()
    await expect.element(hintText).toHaveTextContent(`${TOKEN.slice(0, 8)}...${TOKEN.slice(-4)}`)
    expect(page.getByText(TOKEN).query()).toBeNull()
  })

  test('a failed generation says so in an error toast and keeps the hint', async () => {
    securityServer({
      routes: {
        'POST /api/security/regenerate-token': () =>
          Response.json({ message: 'database is locked' }, { status: 500 }),
      },
    })
    await openSecurityTab()
    await page.getByRole('button', { name: 'Generate New Token' }).click()
    await page.getByRole('button', { name: 'Generate token' }).click()
    await expect.element(toast('Failed to generate token: database is locked')).toBeVisible()
    await expect.element(page.getByTestId('api-token-hint')).toHaveTextContent('a1b2c3d4...8f90')
  })
})

describe('rotate credentials (spec 001 §4 Quick security setup)', () => {
  test('Auto-Generate sends force and shows the credentials panel; Done reloads', async () => {
    const reload = spyReload()
    const fetchMock = securityServer({
      routes: {
        'POST /api/security/quick-setup': (body) =>
          Response.json({
            success: true,
            skipped: false,
            username: body.username,
            password: PASSWORD,
            apiToken: TOKEN,
          }),
      },
    })
    await openSecurityTab()
    await page.getByRole('button', { name: 'Rotate credentials' }).click()
    const rotate = dialog('Rotate credentials')
    await expect.element(rotate).toHaveTextContent(/signs out every other session/)
    await expect.element(rotate.getByLabelText('Username')).toHaveValue('admin')
    await expect.element(rotate.getByRole('radio', { name: /Auto-Generate/ })).toBeChecked()
    await rotate.getByRole('button', { name: 'Rotate credentials' }).click()

    const saved = dialog('Save your credentials')
    await expect
      .element(saved.getByText(/Admin credentials generated\. Save them before continuing\./))
      .toBeVisible()
    await expect.element(saved.getByText(PASSWORD)).toBeVisible()
    await expect.element(saved.getByText(TOKEN)).toBeVisible()
    expect(bodyOf(fetchMock, 'POST', '/api/security/quick-setup')).toEqual({
      username: 'admin',
      force: true,
    })
    // The one-time secrets cannot be closed away by accident.
    expect(saved.getByRole('button', { name: 'Close' }).query()).toBeNull()
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }))
    await expect.element(saved).toBeVisible()
    expect(reload).not.toHaveBeenCalled()
    await saved.getByRole('button', { name: "Done - I've Saved My Credentials" }).click()
    expect(reload).toHaveBeenCalledTimes(1)
  })

  test('Custom password: the texts of §5, then the password is sent', async () => {
    const fetchMock = securityServer({
      routes: {
        'POST /api/security/quick-setup': (body) =>
          Response.json({
            success: true,
            username: body.username,
            password: body.password,
            apiToken: TOKEN,
          }),
      },
    })
    await openSecurityTab()
    await page.getByRole('button', { name: 'Rotate credentials' }).click()
    const rotate = dialog('Rotate credentials')
    await rotate.getByRole('radio', { name: /Custom password/ }).click()
    await rotate.getByLabelText('New password').fill('short')
    await rotate.getByRole('button', { name: 'Rotate credentials' }).click()
    await expect
      .element(rotate.getByRole('alert'))
      .toHaveTextContent('Password must be at least 8 characters')
    await rotate.getByLabelText('New password').fill('long-enough-1')
    await rotate.getByLabelText('Confirm password').fill('long-enough-2')
    await rotate.getByRole('button', { name: 'Rotate credentials' }).click()
    await expect.element(rotate.getByRole('alert')).toHaveTextContent('Passwords do not match')
    await rotate.getByLabelText('Confirm password').fill('long-enough-1')
    await rotate.getByRole('button', { name: 'Rotate credentials' }).click()
    await expect
      .element(page.getByText(/Security configured\. Save your credentials before continuing\./))
      .toBeVisible()
    expect(bodyOf(fetchMock, 'POST', '/api/security/quick-setup')).toEqual({
      username: 'admin',
      password: 'long-enough-1',
      force: true,
    })
  })

  test('a skipped answer is an error toast and the dialog closes', async () => {
    const message =
      'Security is already configured. Please remove existing security first if you want to reconfigure.'
    securityServer({
      routes: {
        'POST /api/security/quick-setup': () =>
          Response.json({ success: false, skipped: true, message }),
      },
    })
    await openSecurityTab()
    await page.getByRole('button', { name: 'Rotate credentials' }).click()
    await dialog('Rotate credentials').getByRole('button', { name: 'Rotate credentials' }).click()
    await expect.element(toast(message)).toBeVisible()
    expect(dialog('Rotate credentials').query()).toBeNull()
  })
})

describe('audit log', () => {
  test('GET ?limit=50: newest first with type, user, IP and time', async () => {
    const fetchMock = securityServer({
      routes: {
        'GET /api/security/audit': () =>
          Response.json({
            events: [
              {
                id: 3,
                time: '2025-03-02T10:00:00.000Z',
                type: 'token_regenerated',
                username: 'admin',
                ip: '127.0.0.20',
                detail: '',
              },
              {
                id: 2,
                time: '2025-03-01T09:00:00.000Z',
                type: 'login_failure',
                username: 'mallory',
                ip: '203.0.113.9',
                detail: 'bad password',
              },
              {
                id: 1,
                time: '2025-03-01T08:00:00.000Z',
                type: 'something_new',
                username: '',
                ip: '127.0.0.30',
                detail: '',
              },
            ],
          }),
      },
    })
    await openSecurityTab()
    const list = page.getByRole('list', { name: 'Security events' })
    await expect.element(list).toBeVisible()
    const items = [...list.element().querySelectorAll('li')]
    expect(items.map((item) => item.dataset.auditType)).toEqual([
      'token_regenerated',
      'login_failure',
      'something_new',
    ])
    expect(items[0]!.textContent).toContain('API token regenerated')
    expect(items[0]!.textContent).toContain('127.0.0.20')
    expect(items[1]!.textContent).toMatch(/Failed login.*mallory.*203\.0\.113\.9.*bad password/)
    expect(items[2]!.textContent).toContain('something_new')
    expect(items[0]!.querySelector('time')!.getAttribute('datetime')).toBe(
      '2025-03-02T10:00:00.000Z',
    )
    const [url] = callsTo(fetchMock, 'GET', '/api/security/audit')[0]!
    expect(new URL(String(url), location.href).searchParams.get('limit')).toBe('50')
  })

  test('empty and failing logs', async () => {
    let fail = false
    securityServer({
      routes: {
        'GET /api/security/audit': () =>
          fail
            ? Response.json({ message: 'Authentication required' }, { status: 401 })
            : Response.json({ events: [] }),
      },
    })
    await openSecurityTab()
    await expect.element(page.getByText('No security events yet.')).toBeVisible()
    fail = true
    await page.getByRole('button', { name: 'Refresh', exact: true }).click()
    await expect
      .element(page.getByText('Failed to load the audit log: Authentication required'))
      .toBeVisible()
  })
})
