// Single sign-on as a user meets it: the real server with authentication on, a real OpenID
// provider (oidc-provider, its own login and consent pages) on 127.0.0.1, Chromium. The admin
// configures the provider in Settings → Security; alice (in pulse-admins) gets in, mallory (in no
// group) is turned away, and a forged callback is refused. Then the admin maps a group to a role
// there: olga (in pulse-operators) gets operator, nina (in an allowed group no rule maps) the
// default role viewer. Server rules in detail: tests/unit/server/auth/oidc-*.test.ts.
import { expect, test, type Page } from '@playwright/test'
import { CLIENT_ID, CLIENT_SECRET, startIdp, type TestIdp } from '../unit/server/auth/oidc-idp.ts'
import { createServerProcess, type ServerProcess } from './server-process.ts'
import { openSettingsTab } from './support/navigate.ts'

let server: ServerProcess
let idp: TestIdp
/** The admin account of the first-run setup. */
let admin: { password: string; apiToken: string }

const CALLBACK_PATH = '/api/oidc/callback'
const ALLOWED_GROUP = 'pulse-admins'
/** The last test maps this group to operator. */
const OPERATOR_GROUP = 'pulse-operators'
/** Allowed in the last test, but no rule maps it. */
const STAFF_GROUP = 'staff'

test.beforeAll(async () => {
  idp = await startIdp({ browserLogin: true })
  server = await createServerProcess({
    DISABLE_AUTH: 'false',
    DEMO_CLUSTERS: '1',
    DEMO_NODES_PER_CLUSTER: '1',
    DEMO_GUESTS_PER_NODE: '5',
  })
  idp.register([server.url + CALLBACK_PATH])
  // The groups claim depends on who logs in at the provider.
  idp.users.set('alice', {
    preferred_username: 'alice',
    email: 'alice@example.com',
    email_verified: true,
    groups: [ALLOWED_GROUP, 'staff'],
  })
  idp.users.set('olga', {
    preferred_username: 'olga',
    email: 'olga@example.com',
    email_verified: true,
    groups: [OPERATOR_GROUP],
  })
  idp.users.set('nina', {
    preferred_username: 'nina',
    email: 'nina@example.com',
    email_verified: true,
    groups: [STAFF_GROUP],
  })
  idp.users.set('mallory', {
    preferred_username: 'mallory',
    email: 'mallory@example.com',
    email_verified: true,
    groups: [],
  })
  await server.start()
  // First run (its screens are auth.spec.ts's): single sign-on needs authentication configured.
  const res = await fetch(`${server.url}/api/security/quick-setup`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: 'admin' }),
  })
  const answer = (await res.json()) as { password?: string; apiToken?: string }
  if (res.status !== 200 || !answer.password || !answer.apiToken) {
    throw new Error(`quick setup failed: ${res.status} ${JSON.stringify(answer)}`)
  }
  admin = { password: answer.password, apiToken: answer.apiToken }
})

test.afterAll(async () => {
  await server?.stop()
  server?.cleanup()
  await idp?.close()
})

test.beforeEach(async ({ context }) => {
  // Nothing leaves the machine (the provider's pages import a web font).
  await context.route(
    (url) => url.hostname !== '127.0.0.1',
    (route) => route.abort('blockedbyclient'),
  )
})

const guestRows = '[role="row"][data-kind="guest"]'
const SSO_BUTTON = { name: 'Sign in with single sign-on' }

async function signIn(page: Page, username: string, password: string) {
  await page.getByLabel('Username').fill(username)
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
}

/** On the login screen: single sign-on, then the provider's login and consent pages. */
async function signInWithSso(page: Page, login: string) {
  await page.getByRole('button', SSO_BUTTON).click()
  await expect(page).toHaveURL((url) => url.origin === idp.issuer)
  await page.getByPlaceholder('Enter any login').fill(login)
  await page.getByPlaceholder('and password').fill('any-password')
  await page.getByRole('button', { name: 'Sign-in' }).click()
  await page.getByRole('button', { name: 'Continue' }).click()
  await expect(page).toHaveURL((url) => url.origin === server.url)
}

/** The provider as the Security tab sets it up (first test) and as a script does (the others). */
const OIDC_SETTINGS = () => ({
  enabled: true,
  issuerUrl: idp.issuer,
  clientId: CLIENT_ID,
  clientSecret: CLIENT_SECRET,
  logoutUrl: `${idp.issuer}/session/end`,
  allowedGroups: [ALLOWED_GROUP],
})

test('the admin turns single sign-on on in Settings → Security; the login screen offers it', async ({
  page,
}) => {
  await page.goto(server.url)
  await signIn(page, 'admin', admin.password)
  await expect(page.locator(guestRows).first()).toBeVisible()

  await openSettingsTab(page, 'Security')
  const settings = OIDC_SETTINGS()
  const sso = page.getByRole('region', { name: 'Single sign-on (OIDC)' })
  const enable = sso.getByRole('switch', { name: 'Enable single sign-on' })
  await expect(enable).toHaveAttribute('aria-checked', 'false')
  await enable.click()
  await sso.getByLabel('Issuer URL').fill(settings.issuerUrl)
  await sso.getByLabel('Client ID').fill(settings.clientId)
  await sso.getByLabel('Client secret').fill(settings.clientSecret)
  // Left blank, the redirect URL is this address's callback: the one registered at the provider.
  await expect(sso.getByLabel('Redirect URL')).toHaveAttribute(
    'placeholder',
    server.url + CALLBACK_PATH,
  )
  await sso.getByLabel('Logout URL').fill(settings.logoutUrl)
  await sso.getByRole('button', { name: 'Show advanced OIDC options' }).click()
  await sso.getByLabel('Allowed groups').fill(settings.allowedGroups.join(', '))
  await sso.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(page.getByText('OIDC settings updated')).toBeVisible()
  await expect(page.locator('[data-tile="Single sign-on"]')).toHaveAttribute('data-on', 'true')
  await expect(page.locator('[data-status="Authentication"]')).toHaveText(
    'Enabled: password, single sign-on',
  )

  // Saved as entered.
  const saved = (await (
    await fetch(`${server.url}/api/security/oidc`, { headers: { 'X-API-Token': admin.apiToken } })
  ).json()) as Record<string, unknown>
  const { clientSecret, ...visible } = settings
  expect(saved).toMatchObject({ ...visible, clientSecretSet: true })
  expect(JSON.stringify(saved)).not.toContain(clientSecret)

  // Logout: the login screen offers single sign-on next to the password, also after a reload.
  await page.getByRole('button', { name: 'Logout' }).click()
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible()
  await expect(page.getByRole('button', SSO_BUTTON)).toBeVisible()
  await page.reload()
  await expect(page.getByRole('button', SSO_BUTTON)).toBeVisible()
})

/** The same configuration through the API, so each test stands alone. */
async function configureByApi() {
  const put = await fetch(`${server.url}/api/security/oidc`, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json', 'X-API-Token': admin.apiToken },
    body: JSON.stringify(OIDC_SETTINGS()),
  })
  expect(put.status, await put.text()).toBe(200)
}

test('after a password session and logout, single sign-on signs alice in', async ({ page }) => {
  await configureByApi()
  // Password once, then logout: the login screen offers single sign-on.
  await page.goto(server.url)
  await signIn(page, 'admin', admin.password)
  await expect(page.getByTestId('header-username')).toHaveText('admin')
  await page.getByRole('button', { name: 'Logout' }).click()
  await expect(page.getByRole('button', SSO_BUTTON)).toBeVisible()

  // alice is in the allowed group: back in the app, signed in as alice, live data.
  await signInWithSso(page, 'alice')
  await expect(page.getByTestId('header-username')).toHaveText('alice')
  await expect(page.locator(guestRows).first()).toBeVisible()
  await page.reload()
  await expect(page.getByTestId('header-username')).toHaveText('alice')
})

test('single sign-on: alice signs in and out; another group and a forged state are refused', async ({
  page,
}) => {
  await configureByApi()
  // A first visit offers single sign-on.
  await page.goto(server.url)
  await expect(page.getByRole('button', SSO_BUTTON)).toBeVisible()

  // alice is in the allowed group: back in the app, signed in as alice, live data.
  await signInWithSso(page, 'alice')
  await expect(page.getByTestId('header-username')).toHaveText('alice')
  await expect(page.locator(guestRows).first()).toBeVisible()

  // Logout of a single sign-on session goes on to the provider's logout page.
  await page.getByRole('button', { name: 'Logout' }).click()
  await expect(page).toHaveURL((url) => url.origin === idp.issuer)
  await page.getByRole('button', { name: 'Yes, sign me out' }).click()
  await expect(page.getByText('Sign-out Success')).toBeVisible()
  // Signed out of Pulse as well.
  const status = await page.request.get(`${server.url}/api/security/status`)
  expect(await status.json()).toMatchObject({ authenticated: false })
  await page.goto(server.url)
  await expect(page.getByRole('button', SSO_BUTTON)).toBeVisible()
  await expect(page.getByTestId('header-username')).toHaveCount(0)

  // mallory is in no allowed group: back on the login screen with the reason.
  await signInWithSso(page, 'mallory')
  await expect(page.getByText('Your account is not in a group allowed to use Pulse.')).toBeVisible()
  await expect(page.getByRole('button', SSO_BUTTON)).toBeVisible()
  await expect(page.getByTestId('header-username')).toHaveCount(0)
  expect(new URL(page.url()).searchParams.has('oidc_error')).toBe(false)

  // A callback that no login of this browser started: refused.
  await page.goto(`${server.url}${CALLBACK_PATH}?code=x&state=forged`)
  await expect(
    page.getByText('The single sign-on request expired or was already used. Please try again.'),
  ).toBeVisible()
  await expect(page.getByRole('button', SSO_BUTTON)).toBeVisible()
  await expect(page.getByTestId('header-username')).toHaveCount(0)

  // No session came of either, and the audit log recorded each outcome.
  const after = await page.request.get(`${server.url}/api/security/status`)
  expect(await after.json()).toMatchObject({ authenticated: false })
  const audit = (await (
    await fetch(`${server.url}/api/security/audit?limit=50`, {
      headers: { 'X-API-Token': admin.apiToken },
    })
  ).json()) as { events: { type: string; username: string; detail: string }[] }
  const ofType = (type: string) => audit.events.filter((event) => event.type === type)
  expect(ofType('oidc_login').map((event) => event.username)).toContain('alice')
  const failures = ofType('oidc_failure')
  expect(
    failures.some((e) => e.username === 'mallory' && e.detail.startsWith('group_restricted')),
  ).toBe(true)
  expect(failures.some((e) => e.detail.startsWith('invalid_state'))).toBe(true)
})

test('the admin maps a group to operator in Settings → Security; olga gets operator, nina the default viewer', async ({
  page,
}) => {
  await configureByApi()
  await page.goto(server.url)
  await signIn(page, 'admin', admin.password)
  await expect(page.getByTestId('header-username')).toHaveText('admin')
  await openSettingsTab(page, 'Security')

  // pulse-operators → operator; anyone else let in is a viewer.
  const sso = page.getByRole('region', { name: 'Single sign-on (OIDC)' })
  await sso.getByRole('button', { name: 'Add group', exact: true }).click()
  await sso.getByLabel('Group 1', { exact: true }).fill(OPERATOR_GROUP)
  await sso.getByLabel('Role of group 1', { exact: true }).selectOption('operator')
  await sso.getByLabel('Role of a user in no mapped group', { exact: true }).selectOption('viewer')
  // Who may sign in at all is a separate list: the staff group too.
  await sso.getByRole('button', { name: 'Show advanced OIDC options' }).click()
  const allowedGroups = [ALLOWED_GROUP, OPERATOR_GROUP, STAFF_GROUP]
  await sso.getByLabel('Allowed groups').fill(allowedGroups.join(', '))
  await sso.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(page.getByText('OIDC settings updated')).toBeVisible()

  // Saved as entered.
  const saved = (await (
    await fetch(`${server.url}/api/security/oidc`, { headers: { 'X-API-Token': admin.apiToken } })
  ).json()) as Record<string, unknown>
  expect(saved).toMatchObject({
    roleMapping: [{ group: OPERATOR_GROUP, role: 'operator' }],
    defaultRole: 'viewer',
    allowedGroups,
  })

  await page.getByRole('button', { name: 'Logout' }).click()
  await expect(page.getByRole('button', SSO_BUTTON)).toBeVisible()

  /** Signed in through the provider as `login`, with `role` in the header and for the server. */
  const signsInAs = async (login: string, role: string) => {
    await signInWithSso(page, login)
    await expect(page.getByTestId('header-username')).toHaveText(login)
    await expect(page.getByTestId('header-role')).toContainText(role)
    await expect(page.locator(guestRows).first()).toBeVisible()
    const status = await page.request.get(`${server.url}/api/security/status`)
    expect(await status.json()).toMatchObject({
      authenticated: true,
      authUsername: login,
      oidcUsername: login,
      role,
    })
  }

  await signsInAs('olga', 'operator')
  // Logout ends the provider's session too, so the next sign-in asks who it is.
  await page.getByRole('button', { name: 'Logout' }).click()
  await expect(page).toHaveURL((url) => url.origin === idp.issuer)
  await page.getByRole('button', { name: 'Yes, sign me out' }).click()
  await expect(page.getByText('Sign-out Success')).toBeVisible()
  await page.goto(server.url)
  await expect(page.getByRole('button', SSO_BUTTON)).toBeVisible()

  await signsInAs('nina', 'viewer')
})
