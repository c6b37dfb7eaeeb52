// First run (spec 001 §2 Login screen, §4 Quick security setup, §5 custom password rules) with a
// stubbed fetch and a fake worker: the real server's quick-setup route is tested in
// tests/unit/server and end to end in tests/e2e.
import { describe, expect, test, vi } from 'vitest'
import { page } from 'vitest/browser'
import { CREDENTIALS_FILE } from '../../../src/ui/auth/download.ts'
import {
  CONFIGURED,
  FRESH,
  PASSWORD,
  TOKEN,
  appShown,
  authServer,
  callsTo,
  loginShown,
  useAuthHarness,
  worker,
  type Json,
} from './auth-harness.ts'
import { renderApp } from './render.tsx'

useAuthHarness()

describe('first-run setup (spec 001 §4 Quick security setup)', () => {
  function setupServer(answer: (body: Json) => Response) {
    return authServer(() => FRESH, { 'POST /api/security/quick-setup': answer })
  }
  const generated = (body: Json) =>
    Response.json({
      success: true,
      skipped: false,
      username: body.username,
      password: typeof body.password === 'string' ? body.password : PASSWORD,
      apiToken: TOKEN,
    })
  const setupButton = () => page.getByRole('button', { name: 'Set up security' })

  test('no auth configured shows the setup with admin and Auto-Generate by default', async () => {
    const api = worker()
    setupServer(generated)
    renderApp(api)
    await expect.element(page.getByText(/No authentication is configured yet/)).toBeVisible()
    await expect.element(page.getByLabelText('Username')).toHaveValue('admin')
    await expect.element(page.getByRole('radio', { name: /Auto-Generate/ })).toBeChecked()
    expect(page.getByLabelText('New password').query()).toBeNull()
    expect(api.connect).not.toHaveBeenCalled()
  })

  test('Auto-Generate: credentials with Copy and Download, then Done opens the app', async () => {
    const writeText = vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue(undefined)
    const blobs: Blob[] = []
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      blobs.push(blob as Blob)
      return 'blob:credentials'
    })
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {})
    const downloads: string[] = []
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      downloads.push(this.download)
    })
    const fetchMock = setupServer(generated)
    const api = worker()
    renderApp(api)
    await setupButton().click()

    await expect
      .element(page.getByText(/Admin credentials generated\. Save them before continuing\./))
      .toBeVisible()
    await expect.element(page.getByText(PASSWORD)).toBeVisible()
    await expect.element(page.getByText(TOKEN)).toBeVisible()
    const [, init] = callsTo(fetchMock, 'POST', '/api/security/quick-setup')[0]!
    expect(JSON.parse(String(init!.body))).toEqual({ username: 'admin' })
    expect((init!.headers as Record<string, string>)['Content-Type']).toBe('application/json')

    await page.getByRole('button', { name: 'Copy password' }).click()
    expect(writeText).toHaveBeenCalledWith(PASSWORD)
    await expect.element(page.getByText('Copied')).toBeVisible()
    await page.getByRole('button', { name: 'Copy API token' }).click()
    expect(writeText).toHaveBeenLastCalledWith(TOKEN)

    await page.getByRole('button', { name: 'Download credentials' }).click()
    expect(downloads).toEqual([CREDENTIALS_FILE])
    const text = await blobs[0]!.text()
    expect(text).toContain('Username: admin')
    expect(text).toContain(`Password: ${PASSWORD}`)
    expect(text).toContain(`API token: ${TOKEN}`)
    expect(api.connect).not.toHaveBeenCalled()

    await page.getByRole('button', { name: "Done - I've Saved My Credentials" }).click()
    await appShown()
    await expect.element(page.getByTestId('header-username')).toHaveTextContent('admin')
    expect(api.connect).toHaveBeenCalledTimes(1)
  })

  test('a failed copy says so', async () => {
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new Error('denied'))
    setupServer(generated)
    renderApp(worker())
    await setupButton().click()
    await page.getByRole('button', { name: 'Copy username' }).click()
    await expect.element(page.getByText('Failed to copy to clipboard')).toBeVisible()
  })

  test('Custom password: too short and mismatched texts, then the password is sent', async () => {
    const fetchMock = setupServer(generated)
    renderApp(worker())
    await page.getByRole('radio', { name: /Custom password/ }).click()
    await page.getByLabelText('Username').fill('root')
    await page.getByLabelText('New password').fill('short')
    await page.getByLabelText('Confirm password').fill('short')
    await setupButton().click()
    await expect
      .element(page.getByRole('alert'))
      .toHaveTextContent('Password must be at least 8 characters')
    await page.getByLabelText('New password').fill('long-enough-1')
    await page.getByLabelText('Confirm password').fill('long-enough-2')
    await setupButton().click()
    await expect.element(page.getByRole('alert')).toHaveTextContent('Passwords do not match')
    expect(callsTo(fetchMock, 'POST', '/api/security/quick-setup')).toHaveLength(0)

    await page.getByLabelText('Confirm password').fill('long-enough-1')
    await setupButton().click()
    await expect
      .element(page.getByText(/Security configured\. Save your credentials before continuing\./))
      .toBeVisible()
    const [, init] = callsTo(fetchMock, 'POST', '/api/security/quick-setup')[0]!
    expect(JSON.parse(String(init!.body))).toEqual({ username: 'root', password: 'long-enough-1' })
  })

  test('a skipped setup shows the server message and leads to sign in', async () => {
    let configured = false
    authServer(() => (configured ? CONFIGURED : FRESH), {
      'POST /api/security/quick-setup': () => {
        configured = true
        return Response.json({
          success: false,
          skipped: true,
          message:
            'Security is already configured. Please remove existing security first if you want to reconfigure.',
        })
      },
    })
    renderApp(worker())
    await setupButton().click()
    await expect
      .element(page.getByRole('alert'))
      .toHaveTextContent(/^Security is already configured\. Please remove existing security first/)
    await page.getByRole('button', { name: 'Go to sign in' }).click()
    await loginShown()
  })

  test('a server error reads Failed to setup security: {error}', async () => {
    setupServer(() => Response.json({ message: 'disk full' }, { status: 500 }))
    renderApp(worker())
    await setupButton().click()
    await expect
      .element(page.getByRole('alert'))
      .toHaveTextContent('Failed to setup security: disk full')
  })
})
