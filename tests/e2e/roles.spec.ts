// Issue 29 item 6, "the UI follows the role", in Chromium against the real demo server with
// authentication on: a viewer sees live data and no Acknowledge button, and the API answers 403 to
// their acknowledge; an operator acknowledges and silences from Overview but gets 403 saving the
// alert config. The users are made through the API with the admin's token (the Users card is
// tested in the browser tests). Loopback only.
import { expect, test, type Page } from '@playwright/test'
import { createServerProcess, type ServerProcess } from './server-process.ts'

// The first alerts of the demo may take a minute on a loaded machine.
test.describe.configure({ mode: 'serial', timeout: 180_000 })
// Tall enough that the virtualised list renders the first alerts.
test.use({ viewport: { width: 1440, height: 1200 } })

let server: ServerProcess
let apiToken = ''
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
  const answer = (await res.json()) as { apiToken?: string }
  if (res.status !== 200 || !answer.apiToken) {
    throw new Error(`quick setup failed: ${res.status} ${JSON.stringify(answer)}`)
  }
  apiToken = answer.apiToken
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
  await page.goto(server.url)
  await page.getByLabel('Username').fill(role)
  await page.getByLabel('Password', { exact: true }).fill(PASSWORDS[role])
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
  // Live data over the socket, and the header names the user and the role.
  await expect(page.locator(guestRows).first()).toBeVisible({ timeout: 60_000 })
  await expect(page.getByTestId('header-username')).toHaveText(role)
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
