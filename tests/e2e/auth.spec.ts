// Authentication as a new user meets it: the real server with authentication on (not the demo's
// DISABLE_AUTH), the built app, Chromium. Server rules in detail: tests/unit/server/auth.
import { expect, test, type Page } from '@playwright/test'
import fs from 'node:fs'
import path from 'node:path'
import { createServerProcess, type ServerProcess } from './server-process.ts'

let server: ServerProcess

test.beforeAll(async () => {
  server = await createServerProcess({
    DISABLE_AUTH: 'false',
    DEMO_CLUSTERS: '1',
    DEMO_NODES_PER_CLUSTER: '2',
    DEMO_GUESTS_PER_NODE: '10',
  })
  await server.start()
})

test.afterAll(async () => {
  await server.stop()
  server.cleanup()
})

const guestRows = '[role="row"][data-kind="guest"]'

async function signIn(page: Page, username: string, password: string) {
  await page.getByLabel('Username').fill(username)
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Sign in' }).click()
}

test('first run, credentials, live data, logout, login, lockout, API token', async ({ page }) => {
  // Before setup nothing but the public routes answers.
  expect((await fetch(`${server.url}/api/state`)).status).toBe(401)

  // First run: the setup screen, generated credentials shown once.
  await page.goto(server.url)
  await expect(page.getByText('No authentication is configured yet')).toBeVisible()
  await page.getByRole('button', { name: 'Set up security' }).click()
  await expect(page.getByText('Save your credentials')).toBeVisible()
  const password = (await page.locator('[data-credential="Password"]').innerText()).trim()
  const apiToken = (await page.locator('[data-credential="API token"]').innerText()).trim()
  expect(password).toMatch(/^[A-Za-z0-9_-]{16}$/)
  expect(apiToken).toMatch(/^[0-9a-f]{48}$/)
  const download = page.waitForEvent('download')
  await page.getByRole('button', { name: 'Download credentials' }).click()
  const file = await (await download).path()
  expect(fs.readFileSync(file, 'utf8')).toContain(password)
  await page.getByRole('button', { name: /Done - I've Saved My Credentials/ }).click()

  // Signed in: the live estate arrives over the authenticated socket.
  await expect(page.locator(guestRows).first()).toBeVisible()
  await expect(page.getByText('admin', { exact: true })).toBeVisible()

  // Logout returns to the login screen, and a reload stays there.
  await page.getByRole('button', { name: 'Logout' }).click()
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible()
  await page.reload()
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible()

  await signIn(page, 'admin', password)
  await expect(page.locator(guestRows).first()).toBeVisible()
  await page.getByRole('button', { name: 'Logout' }).click()

  // Wrong passwords count down, then the account locks.
  await signIn(page, 'admin', 'wrong-password-1')
  await expect(
    page.getByText(/Invalid username or password \(4 attempts remaining\)/),
  ).toBeVisible()
  for (let i = 2; i <= 5; i++) await signIn(page, 'admin', `wrong-password-${i}`)
  await expect(page.getByText(/Account locked\. Please try again in \d+ minute/)).toBeVisible()
  // Locked even with the right password.
  await signIn(page, 'admin', password)
  await expect(page.getByText(/Account locked/)).toBeVisible()

  // The API token opens the API without a session; a wrong one does not.
  const withToken = await fetch(`${server.url}/api/state`, { headers: { 'X-API-Token': apiToken } })
  expect(withToken.status).toBe(200)
  const wrong = await fetch(`${server.url}/api/state`, {
    headers: { 'X-API-Token': 'f'.repeat(48) },
  })
  expect(wrong.status).toBe(401)

  // Nothing secret in the database files (WAL included) in plain text.
  for (const name of fs.readdirSync(server.dataDir).filter((f) => f.startsWith('pulse.db'))) {
    const bytes = fs.readFileSync(path.join(server.dataDir, name))
    expect(bytes.includes(Buffer.from(password)), name).toBe(false)
    expect(bytes.includes(Buffer.from(apiToken)), name).toBe(false)
  }
})
