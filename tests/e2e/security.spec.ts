// Settings → Security as an administrator meets it: the real server with authentication on, the
// built app, Chromium. First run with a chosen password, then the posture score, a new API token,
// a password change, export and import of the configuration, and the audit log of all that.
// Server rules in detail: tests/unit/server/auth.
import { expect, test, type Page } from '@playwright/test'
import fs from 'node:fs'
import { createServerProcess, type ServerProcess } from './server-process.ts'
import { openSettingsTab } from './support/navigate.ts'

let server: ServerProcess

test.beforeAll(async () => {
  server = await createServerProcess({
    DISABLE_AUTH: 'false',
    DEMO_CLUSTERS: '1',
    DEMO_NODES_PER_CLUSTER: '1',
    DEMO_GUESTS_PER_NODE: '5',
  })
  await server.start()
})

test.afterAll(async () => {
  await server.stop()
  server.cleanup()
})

const guestRows = '[role="row"][data-kind="guest"]'
const FIRST_PASSWORD = 'first-Pa55word-e2e'
const NEW_PASSWORD = 'second-Pa55word-e2e'

async function signIn(page: Page, username: string, password: string) {
  await page.getByLabel('Username').fill(username)
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Sign in' }).click()
}

/** The HTTP status of GET /api/state with this token. */
async function stateWithToken(token: string): Promise<number> {
  const res = await fetch(`${server.url}/api/state`, { headers: { 'X-API-Token': token } })
  await res.body?.cancel()
  return res.status
}

/** The HTTP status of a password login as admin (a script's sign-in, outside the browser). */
async function loginStatus(password: string): Promise<number> {
  const res = await fetch(`${server.url}/api/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password }),
  })
  await res.body?.cancel()
  return res.status
}

test('security tab: posture, API token, password, export and import, audit log', async ({
  page,
}) => {
  // First run with a custom password.
  await page.goto(server.url)
  await expect(page.getByText('No authentication is configured yet')).toBeVisible()
  await page.getByRole('radio', { name: /Custom password/ }).check()
  await page.getByLabel('New password').fill(FIRST_PASSWORD)
  await page.getByLabel('Confirm password').fill(FIRST_PASSWORD)
  await page.getByRole('button', { name: 'Set up security' }).click()
  await expect(page.getByRole('heading', { name: 'Save your credentials' })).toBeVisible()
  await expect(page.getByText('Security configured.')).toBeVisible()
  await expect(page.locator('[data-credential="Password"]')).toHaveText(FIRST_PASSWORD)
  const firstToken = (await page.locator('[data-credential="API token"]').innerText()).trim()
  expect(firstToken).toMatch(/^[0-9a-f]{48}$/)
  await page.getByRole('button', { name: /Done - I've Saved My Credentials/ }).click()
  await expect(page.locator(guestRows).first()).toBeVisible()

  // Settings → Security.
  await openSettingsTab(page, 'Security')
  await expect(page).toHaveURL(/\/settings\/security$/)

  // The posture card scores what the server reports: one point each for a sign-in method, an API
  // token, export protection, HTTPS and the audit log.
  const status = (await (
    await fetch(`${server.url}/api/security/status`, { headers: { 'X-API-Token': firstToken } })
  ).json()) as Record<string, unknown>
  const expected = [
    status.hasAuthentication === true,
    status.apiTokenConfigured === true,
    status.exportProtected === true,
    status.hasHTTPS === true,
    status.hasAuditLogging === true,
  ].filter(Boolean).length
  expect(expected).toBeGreaterThanOrEqual(2)
  await expect(page.getByTestId('security-score')).toHaveText(`${expected}/5`)
  await expect(page.getByRole('meter', { name: 'Security score' })).toHaveAttribute(
    'aria-valuenow',
    String(expected),
  )
  await expect(page.locator('[data-tile="Password login"]')).toHaveAttribute('data-on', 'true')
  await expect(page.locator('[data-tile="API token"]')).toHaveAttribute('data-on', 'true')
  await expect(page.locator('[data-tile="HTTPS"]')).toHaveAttribute('data-on', 'false')

  // A new API token: confirm, shown once, Done. The old token stops working at once.
  await page.getByRole('button', { name: 'Generate New Token' }).click()
  const confirm = page.getByRole('alertdialog', { name: 'Generate a new API token?' })
  await expect(confirm).toBeVisible()
  await confirm.getByRole('button', { name: 'Generate token' }).click()
  await expect(page.getByText('it is shown only this once')).toBeVisible()
  const newToken = (await page.locator('[data-credential="New API token"]').innerText()).trim()
  expect(newToken).toMatch(/^[0-9a-f]{48}$/)
  expect(newToken).not.toBe(firstToken)
  await page.getByRole('button', { name: 'Done', exact: true }).click()
  await expect(page.locator('[data-credential="New API token"]')).toHaveCount(0)
  await expect(page.getByTestId('api-token-hint')).toContainText(newToken.slice(0, 8))
  expect(await stateWithToken(newToken)).toBe(200)
  expect(await stateWithToken(firstToken)).toBe(401)

  // Change password: a wrong current password is refused, the right one ends every session.
  await page.getByRole('button', { name: 'Change password' }).click()
  const change = page.getByRole('dialog', { name: 'Change password' })
  await change.getByLabel('Current Password').fill('not-the-password')
  await change.getByLabel('New Password', { exact: true }).fill(NEW_PASSWORD)
  await change.getByLabel('Confirm New Password').fill(NEW_PASSWORD)
  await change.getByRole('button', { name: 'Change password' }).click()
  await expect(change.getByRole('alert')).toHaveText('Current password is incorrect')
  await change.getByLabel('Current Password').fill(FIRST_PASSWORD)
  await change.getByRole('button', { name: 'Change password' }).click()
  await expect(
    page.getByText('Password changed successfully. Please log in with your new password.'),
  ).toBeVisible()
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible()
  expect(await loginStatus(FIRST_PASSWORD)).toBe(401)
  await signIn(page, 'admin', NEW_PASSWORD)
  await expect(page.getByTestId('header-username')).toHaveText('admin')
  await expect(page.getByTestId('security-score')).toHaveText(`${expected}/5`)

  // Export with the login password: the server's file downloads.
  await page.getByRole('button', { name: 'Export configuration' }).click()
  const exporting = page.getByRole('dialog', { name: 'Export configuration' })
  await expect(exporting.getByRole('radio', { name: /Use your login password/ })).toBeChecked()
  await exporting.getByLabel('Login password', { exact: true }).fill(NEW_PASSWORD)
  const download = page.waitForEvent('download')
  await exporting.getByRole('button', { name: 'Export', exact: true }).click()
  const file = await download
  expect(file.suggestedFilename()).toMatch(/^pulse-config-\d{4}-\d{2}-\d{2}\.json$/)
  const exportPath = await file.path()
  const exported = JSON.parse(fs.readFileSync(exportPath, 'utf8')) as Record<string, unknown>
  expect(exported.format).toBe('pulse-config')
  expect(fs.readFileSync(exportPath, 'utf8')).not.toContain(NEW_PASSWORD)
  await expect(exporting).toHaveCount(0)

  // Import with a wrong password: the server's message, and nothing changed.
  await page.getByRole('button', { name: 'Restore configuration' }).click()
  const importing = page.getByRole('dialog', { name: 'Restore configuration' })
  await importing.getByLabel('Configuration file').setInputFiles(exportPath)
  await importing.getByLabel('Backup password').fill('wrong-passphrase-e2e')
  await importing.getByRole('button', { name: 'Import', exact: true }).click()
  await expect(importing.getByRole('alert')).toHaveText(
    'Wrong passphrase, or the file was changed.',
  )
  expect(await loginStatus(NEW_PASSWORD)).toBe(200)
  expect(await stateWithToken(newToken)).toBe(200)
  await expect(page.getByTestId('header-username')).toHaveText('admin')

  // Import with the right password: success, then the page reloads, still signed in.
  await importing.getByLabel('Backup password').fill(NEW_PASSWORD)
  const reloaded = page.waitForEvent('load')
  await importing.getByRole('button', { name: 'Import', exact: true }).click()
  await expect(page.getByText('Configuration imported successfully. Reloading...')).toBeVisible()
  await reloaded
  await expect(page.getByTestId('header-username')).toHaveText('admin')
  expect(await loginStatus(NEW_PASSWORD)).toBe(200)
  expect(await stateWithToken(newToken)).toBe(200)

  // The audit log lists what happened, newest first.
  const events = page.getByRole('list', { name: 'Security events' })
  const types = [
    'login_success',
    'token_regenerated',
    'password_changed',
    'config_export',
    'config_import',
  ]
  for (const type of types) {
    await expect(events.locator(`li[data-audit-type="${type}"]`).first()).toBeVisible()
  }
  // Newest first: each step above the one before it (the last sign-ins aside, made after).
  const order = await events
    .locator('li')
    .evaluateAll((items) => items.map((item) => item.getAttribute('data-audit-type')))
  const steps = ['config_import', 'config_export', 'password_changed', 'token_regenerated']
  for (let i = 1; i < steps.length; i++) {
    expect(order.indexOf(steps[i - 1]!), `${steps[i - 1]} above ${steps[i]}`).toBeLessThan(
      order.indexOf(steps[i]!),
    )
  }
  await expect(events.locator('li[data-audit-type="config_import"]').first()).toContainText(
    'Configuration imported',
  )
})
