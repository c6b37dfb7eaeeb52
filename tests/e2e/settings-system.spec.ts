// Settings > System end to end (issue 16 acceptance 1): the built app and the real server in
// Chromium. Allowed origins saved in the tab decide at once whether a socket from another origin
// is accepted; embedding off sends frame-ancestors 'none'; ALLOWED_ORIGINS in the environment
// shows the two warning lines and disables the field.
import { expect, test, type Page } from '@playwright/test'
import WebSocket from 'ws'
import { createServerProcess, type ServerProcess } from './server-process.ts'

const FOREIGN = 'https://dash.example.com'
const SMALL_DEMO = { DEMO_CLUSTERS: '1', DEMO_NODES_PER_CLUSTER: '1', DEMO_GUESTS_PER_NODE: '5' }

/** Open /ws with an Origin header: 101 when accepted, else the HTTP status of the refusal. */
function socketFrom(server: ServerProcess, origin: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws`, { headers: { origin } })
    ws.once('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0)
      ws.terminate()
    })
    ws.once('open', () => {
      resolve(101)
      ws.close()
    })
    ws.once('error', reject)
  })
}

const frameAncestors = async (server: ServerProcess) => {
  const csp = (await fetch(`${server.url}/settings/system`)).headers.get('content-security-policy')
  return /frame-ancestors ([^;]*)/.exec(csp ?? '')?.[1]
}

async function saveAndWaitForToast(page: Page) {
  await page.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(
    page.getByText(
      'Settings saved successfully. Service restart may be required for port changes.',
      { exact: true },
    ),
  ).toBeVisible()
}

test.describe('saved in the tab', () => {
  let server: ServerProcess
  test.beforeAll(async () => {
    server = await createServerProcess(SMALL_DEMO)
    await server.start()
  })
  test.afterAll(async () => {
    await server.stop()
    server.cleanup()
  })

  test('allowed origins change which sockets are accepted, without a restart', async ({ page }) => {
    expect(await socketFrom(server, FOREIGN)).toBe(403)
    expect(await socketFrom(server, server.url)).toBe(101)

    await page.goto(`${server.url}/settings/system`)
    const field = page.getByRole('textbox', { name: 'Allowed origins' })
    await expect(field).toBeEnabled()
    await expect(page.getByText('Overridden by ALLOWED_ORIGINS environment variable')).toHaveCount(
      0,
    )
    await field.fill(FOREIGN)
    await saveAndWaitForToast(page)
    expect(await socketFrom(server, FOREIGN)).toBe(101)
    expect(await socketFrom(server, 'https://other.example.net')).toBe(403)

    // The page reloads itself after 3 s and shows the saved value.
    await page.waitForEvent('load')
    await expect(page.getByRole('textbox', { name: 'Allowed origins' })).toHaveValue(FOREIGN)
  })

  test('embedding on allows framing by this origin; off sends frame-ancestors none', async ({
    page,
  }) => {
    expect(await frameAncestors(server)).toBe("'none'")
    await page.goto(`${server.url}/settings/system`)
    const embed = page.getByRole('checkbox', { name: /Allow embedding/ })
    await embed.check()
    await page
      .getByRole('textbox', { name: 'Allowed embed origins' })
      .fill('https://wiki.example.com')
    await saveAndWaitForToast(page)
    expect(await frameAncestors(server)).toBe("'self' https://wiki.example.com")

    await page.goto(`${server.url}/settings/system`)
    await expect(embed).toBeChecked()
    await embed.uncheck()
    await saveAndWaitForToast(page)
    expect(await frameAncestors(server)).toBe("'none'")
    const answer = await fetch(`${server.url}/api/health`)
    expect(answer.headers.get('x-frame-options')).toBe('DENY')
  })
})

test.describe('fixed by ALLOWED_ORIGINS', () => {
  let server: ServerProcess
  test.beforeAll(async () => {
    server = await createServerProcess({ ...SMALL_DEMO, ALLOWED_ORIGINS: FOREIGN })
    await server.start()
  })
  test.afterAll(async () => {
    await server.stop()
    server.cleanup()
  })

  test('the field is disabled with the two warning lines', async ({ page }) => {
    await page.goto(`${server.url}/settings/system`)
    const field = page.getByRole('textbox', { name: 'Allowed origins' })
    await expect(field).toBeDisabled()
    await expect(field).toHaveValue(FOREIGN)
    await expect(
      page.getByText('Overridden by ALLOWED_ORIGINS environment variable', { exact: true }),
    ).toBeVisible()
    await expect(
      page.getByText('Remove the env var and restart to enable UI configuration', { exact: true }),
    ).toBeVisible()
    expect(await socketFrom(server, FOREIGN)).toBe(101)
    expect(await socketFrom(server, 'https://other.example.net')).toBe(403)
  })
})
