// Issue 29, "several users, three roles, scoped API tokens", in Chromium against the real demo
// server with authentication on: a viewer sees live data and no Acknowledge button, and the API
// answers 403 to their acknowledge; an operator acknowledges and silences from Overview but gets
// 403 saving the alert config; the admin creates a viewer and an operator in Settings → Security →
// Users and each signs in with that role; a token the admin revokes there is refused at once, and
// the socket opened with it closes. The first two tests' users are made through the API with the
// admin's token. Loopback only.
import { expect, test, type Page } from '@playwright/test'
import WebSocket from 'ws'
import { createServerProcess, type ServerProcess } from './server-process.ts'
import { openSettingsTab } from './support/navigate.ts'

// The first alerts of the demo may take a minute on a loaded machine.
test.describe.configure({ mode: 'serial', timeout: 180_000 })
// Tall enough that the virtualised list renders the first alerts.
test.use({ viewport: { width: 1440, height: 1200 } })

let server: ServerProcess
let apiToken = ''
/** The first-run admin's password (quick setup generates it). */
let adminPassword = ''
const PASSWORDS = { viewer: 'viewer-password-1', operator: 'operator-password-1' }

async function adminApi(method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      'X-API-Token': apiToken,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const text = await res.text()
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`)
  return text ? JSON.parse(text) : null
}

test.beforeAll(async () => {
  server = await createServerProcess({
    DISABLE_AUTH: 'false',
    DEMO_CLUSTERS: '1',
    DEMO_NODES_PER_CLUSTER: '2',
    DEMO_GUESTS_PER_NODE: '10',
  })
  await server.start()
  // First run (its screens are auth.spec.ts's), then one user per role.
  const res = await fetch(`${server.url}/api/security/quick-setup`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: 'admin' }),
  })
  const answer = (await res.json()) as { apiToken?: string; password?: string }
  if (res.status !== 200 || !answer.apiToken || !answer.password) {
    throw new Error(`quick setup failed: ${res.status} ${JSON.stringify(answer)}`)
  }
  apiToken = answer.apiToken
  adminPassword = answer.password
  for (const role of ['viewer', 'operator'] as const) {
    await adminApi('POST', '/api/users', { username: role, password: PASSWORDS[role], role })
  }
})

test.afterAll(async () => {
  await server?.stop()
  server?.cleanup()
})

const guestRows = '[role="row"][data-kind="guest"]'

async function signIn(page: Page, role: keyof typeof PASSWORDS) {
  await signInAs(page, role, PASSWORDS[role], role)
}

async function signInAs(page: Page, username: string, password: string, role: string) {
  await page.goto(server.url)
  await page.getByLabel('Username').fill(username)
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
  // Live data over the socket, and the header names the user and the role.
  await expect(page.locator(guestRows).first()).toBeVisible({ timeout: 60_000 })
  await expect(page.getByTestId('header-username')).toHaveText(username)
  await expect(page.getByTestId('header-role')).toContainText(role)
}

/** The session's CSRF header, read from the pulse_csrf cookie as the app does. */
async function csrfHeader(page: Page): Promise<Record<string, string>> {
  const cookie = (await page.context().cookies(server.url)).find((c) => c.name === 'pulse_csrf')
  expect(cookie, 'pulse_csrf cookie').toBeDefined()
  return { 'x-csrf-token': cookie!.value }
}

/** The first alert row on Overview once the demo has raised one. */
async function firstAlertRow(page: Page) {
  await page.goto(`${server.url}/alerts/overview`)
  const row = page.locator('[data-alert-id]').first()
  await expect(row).toBeVisible({ timeout: 120_000 })
  const id = await row.getAttribute('data-alert-id')
  expect(id).toBeTruthy()
  return { id: id!, row: page.locator(`[data-alert-id="${id}"]`) }
}

test('a viewer sees live data and no Acknowledge button; the API refuses their acknowledge', async ({
  page,
}) => {
  await signIn(page, 'viewer')
  const { id, row } = await firstAlertRow(page)
  await expect(row.getByRole('button', { name: /^Notes on / })).toBeVisible()
  await expect(page.getByRole('button', { name: /Acknowledge/ })).toHaveCount(0)
  await expect(page.getByRole('button', { name: /^Silence / })).toHaveCount(0)
  await expect(page.getByRole('button', { name: 'New silence' })).toHaveCount(0)
  await expect(page.getByRole('checkbox')).toHaveCount(0)

  // The server decides regardless of the UI: the viewer's session, with its CSRF token.
  const res = await page.request.post(`${server.url}/api/alerts/bulk/acknowledge`, {
    headers: await csrfHeader(page),
    data: { alertIds: [id] },
  })
  expect(res.status()).toBe(403)
  expect(((await res.json()) as { code: string }).code).toBe('ROLE_REQUIRED')
})

test('an operator acknowledges and silences from Overview but may not save thresholds', async ({
  page,
}) => {
  await signIn(page, 'operator')
  const { id, row } = await firstAlertRow(page)
  await row.getByRole('button', { name: /^Acknowledge / }).click()
  await expect(row.getByRole('button', { name: /^Unacknowledge / })).toBeVisible()
  await expect
    .poll(async () => {
      const active = (await adminApi('GET', '/api/alerts/active')) as Array<{
        id: string
        acknowledged: boolean
      }>
      return active.find((a) => a.id === id)?.acknowledged
    })
    .toBe(true)

  await row.getByRole('button', { name: /^Silence / }).click()
  const dialog = page.getByRole('dialog')
  await dialog.getByRole('button', { name: '1 h', exact: true }).click()
  await dialog.getByLabel('Comment').fill('operator on call')
  await dialog.getByRole('button', { name: 'Silence', exact: true }).click()
  await expect(dialog).toBeHidden()
  const silences = page.getByRole('list', { name: 'Active and upcoming silences' })
  await expect(silences.getByText(/operator on call/)).toBeVisible()
  await expect(row.getByText(/^Silenced/)).toBeVisible()

  // Reading the alert config is allowed; saving it needs the admin role.
  const config = await page.request.get(`${server.url}/api/alerts/config`)
  expect(config.status()).toBe(200)
  const saved = await page.request.put(`${server.url}/api/alerts/config`, {
    headers: await csrfHeader(page),
    data: await config.json(),
  })
  expect(saved.status()).toBe(403)
  expect(((await saved.json()) as { code: string }).code).toBe('ROLE_REQUIRED')
})

test('the admin adds a viewer and an operator in Settings → Security → Users; each signs in with that role', async ({
  page,
  playwright,
}) => {
  await signInAs(page, 'admin', adminPassword, 'admin')
  await openSettingsTab(page, 'Security')
  const card = page.getByRole('region', { name: 'Users', exact: true })
  // The users so far: the admin and the two the API made.
  await expect(card.getByLabel('Role of admin', { exact: true })).toHaveValue('admin')
  await expect(card.getByLabel('Role of viewer', { exact: true })).toHaveValue('viewer')

  const added = [
    { username: 'vera2', password: 'vera2-password-1', role: 'viewer' },
    { username: 'otto2', password: 'otto2-password-1', role: 'operator' },
  ] as const
  for (const user of added) {
    await card.getByRole('button', { name: 'Add user', exact: true }).click()
    const dialog = page.getByRole('dialog', { name: 'Add user' })
    await dialog.getByLabel('Username', { exact: true }).fill(user.username)
    await dialog.getByLabel('Password', { exact: true }).fill(user.password)
    await dialog.getByLabel('Role', { exact: true }).selectOption(user.role)
    await dialog.getByRole('button', { name: 'Add user', exact: true }).click()
    await expect(dialog).toBeHidden()
    await expect(page.getByText(`User ${user.username} added`, { exact: true })).toBeVisible()
    await expect(card.getByLabel(`Role of ${user.username}`, { exact: true })).toHaveValue(
      user.role,
    )
  }

  // Stored: listed with their roles after a reload too, each active.
  await page.reload()
  for (const user of added) {
    await expect(card.getByLabel(`Role of ${user.username}`, { exact: true })).toHaveValue(
      user.role,
    )
    await expect(card.locator(`[data-user="${user.username}"]`)).toContainText('Active')
  }

  // Each signs in with the password the admin gave and is what the admin chose.
  for (const user of added) {
    const client = await playwright.request.newContext({ baseURL: server.url })
    try {
      const login = await client.post('/api/login', {
        data: { username: user.username, password: user.password },
      })
      expect(login.status(), await login.text()).toBe(200)
      expect(await login.json()).toMatchObject({ username: user.username, role: user.role })
      const status = await client.get('/api/security/status')
      expect(await status.json()).toMatchObject({
        authenticated: true,
        authUsername: user.username,
        role: user.role,
      })
    } finally {
      await client.dispose()
    }
  }
})

test('a token the admin revokes in Settings → Security is refused at once, also on an open socket', async ({
  page,
}) => {
  await signInAs(page, 'admin', adminPassword, 'admin')
  await openSettingsTab(page, 'Security')
  const card = page.getByRole('region', { name: 'API tokens', exact: true })

  // A viewer token for a script, shown once.
  await card.getByRole('button', { name: 'New token', exact: true }).click()
  const dialog = page.getByRole('dialog', { name: 'New API token' })
  await dialog.getByLabel('Name', { exact: true }).fill('ws-script')
  await dialog.getByLabel('Role', { exact: true }).selectOption('viewer')
  await dialog.getByRole('button', { name: 'Create token', exact: true }).click()
  const shown = dialog.locator('[data-credential="Token \\"ws-script\\" (viewer)"]')
  await expect(shown).toHaveText(/\S{16,}/)
  const token = (await shown.textContent())!.trim()
  await dialog.getByRole('button', { name: 'Done', exact: true }).click()
  await expect(dialog).toBeHidden()
  const row = card.locator('[data-token="ws-script"]')
  await expect(row).toContainText('viewer')

  const state = () => fetch(`${server.url}/api/state`, { headers: { 'X-API-Token': token } })
  expect((await state()).status).toBe(200)

  // A script's socket with the token: let in, and the live updates keep coming.
  const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws`, {
    headers: { 'X-API-Token': token },
  })
  let received = 0
  let closeCode: number | undefined
  ws.on('message', () => received++)
  ws.on('close', (code) => (closeCode = code))
  ws.on('error', () => {}) // a refusal below fails the test; later errors end in 'close'
  try {
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve())
      ws.once('unexpected-response', (_req, res) =>
        reject(new Error(`socket refused: HTTP ${res.statusCode}`)),
      )
      ws.once('error', reject)
    })
    await expect.poll(() => received, { timeout: 60_000 }).toBeGreaterThanOrEqual(2)
    expect(closeCode).toBeUndefined()

    // Revoke, confirmed in the dialog.
    await card.getByRole('button', { name: 'Revoke ws-script', exact: true }).click()
    const confirm = page.getByRole('alertdialog', { name: 'Revoke the token "ws-script"?' })
    await confirm.getByRole('button', { name: 'Revoke token', exact: true }).click()
    await expect(confirm).toBeHidden()
    await expect(page.getByText('Token "ws-script" revoked', { exact: true })).toBeVisible()
    await expect(row).toHaveCount(0)

    // The open socket closes with "policy violation", and the token no longer gets in.
    await expect.poll(() => closeCode).toBe(1008)
    expect((await state()).status).toBe(401)
    const again = await new Promise<number>((resolve, reject) => {
      const retry = new WebSocket(`ws://127.0.0.1:${server.port}/ws`, {
        headers: { 'X-API-Token': token },
      })
      retry.once('unexpected-response', (_req, res) => {
        resolve(res.statusCode ?? 0)
        retry.terminate()
      })
      retry.once('open', () => {
        resolve(101)
        retry.close()
      })
      retry.once('error', reject)
    })
    expect(again).toBe(401)
  } finally {
    ws.terminate()
  }
})

test('a user ends their session on another browser in Settings → Security → Sessions; that browser goes to sign-in', async ({
  browser,
}) => {
  // Two browsers of a viewer signed in nowhere else: a laptop, and a wall screen left open.
  await adminApi('POST', '/api/users', {
    username: 'wanda',
    password: 'wanda-password-1',
    role: 'viewer',
  })
  const laptop = await browser.newContext({ viewport: { width: 1440, height: 1200 } })
  const wall = await browser.newContext({ viewport: { width: 1440, height: 1200 } })
  try {
    const here = await laptop.newPage()
    const there = await wall.newPage()
    await signInAs(there, 'wanda', 'wanda-password-1', 'viewer')
    await signInAs(here, 'wanda', 'wanda-password-1', 'viewer')
    await openSettingsTab(here, 'Security')
    const card = here.getByRole('region', { name: 'Sessions', exact: true })
    const mine = card.locator('[data-current]')
    await expect(mine).toContainText('This session')
    await expect(mine).toContainText('Chrome on Linux')
    const other = card.locator('[data-session]:not([data-current])')
    await expect(other).toHaveCount(1)
    // The wall holds its live connection.
    await expect(other).toContainText('Connected now')
    await other.getByRole('button', { name: /^End session on/ }).click()
    const confirm = here.getByRole('alertdialog', { name: /^End the session on/ })
    await confirm.getByRole('button', { name: 'End session', exact: true }).click()
    await expect(other).toHaveCount(0)
    // The other browser is signed out at once: its socket closes, and it lands on sign-in.
    await expect(there.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible({
      timeout: 60_000,
    })
    await expect(there.getByTestId('session-ended')).toContainText('Your session has ended')
    // This one carries on.
    await here.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Main' }).click()
    await expect(here.locator(guestRows).first()).toBeVisible()
  } finally {
    await laptop.close()
    await wall.close()
  }
})
