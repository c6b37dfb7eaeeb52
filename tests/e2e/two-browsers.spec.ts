// Issue 16 acceptance 5 in Chromium against the real server: two browsers (two contexts, so two
// sockets and two storages) on the same estate. A theme chosen in one shows in the other, and a
// node deleted in one leaves the other's node list, both without a reload.
import { expect, test, type Browser, type Page } from '@playwright/test'
import { createServerProcess, type ServerProcess } from './server-process.ts'

let server: ServerProcess

test.describe.configure({ mode: 'serial' })

test.beforeAll(async () => {
  server = await createServerProcess()
  await server.start()
})

test.afterAll(async () => {
  await server?.stop()
  server?.cleanup()
})

interface StoredNode {
  id: string
  name: string
  type: string
  status: string
}

async function storedNodes(): Promise<StoredNode[]> {
  return (await (await fetch(`${server.url}/api/config/nodes`)).json()) as StoredNode[]
}

async function openBrowser(browser: Browser, path: string): Promise<Page> {
  const context = await browser.newContext({ colorScheme: 'light' })
  const page = await context.newPage()
  await page.goto(`${server.url}${path}`)
  return page
}

const isDark = (page: Page) =>
  page.evaluate(() => document.documentElement.classList.contains('dark'))

test('a theme chosen in one browser shows in the other', async ({ browser }) => {
  const a = await openBrowser(browser, '/')
  const b = await openBrowser(browser, '/')
  for (const page of [a, b]) {
    await expect(page.getByText('Connected', { exact: true })).toBeVisible()
    expect(await isDark(page)).toBe(false)
  }
  await a.getByRole('button', { name: 'Switch to dark mode' }).click()
  expect(await isDark(a)).toBe(true)
  await expect.poll(() => isDark(b)).toBe(true)
  await expect(b.getByRole('button', { name: 'Switch to light mode' })).toBeVisible()

  // And back, from the other side.
  await b.getByRole('button', { name: 'Switch to light mode' }).click()
  await expect.poll(() => isDark(a)).toBe(false)

  // A browser opened later starts with the stored theme, whatever its own system preference.
  await b.getByRole('button', { name: 'Switch to dark mode' }).click()
  await expect.poll(() => isDark(a)).toBe(true)
  const late = await openBrowser(browser, '/')
  await expect.poll(() => isDark(late)).toBe(true)
  for (const page of [a, b, late]) await page.context().close()
})

test('a node deleted in one browser leaves the other one’s list without a reload', async ({
  browser,
}) => {
  // While a node is pending its tab re-reads the list every 3 s; once none is, only every 30 s.
  // Waiting for that makes the event the only way the second list can change in time.
  await expect
    .poll(async () => (await storedNodes()).filter((n) => n.status === 'pending').length)
    .toBe(0)
  const victim = (await storedNodes()).find((n) => n.type === 'pve')!
  const a = await openBrowser(browser, '/settings/pve')
  const b = await openBrowser(browser, '/settings/pve')
  const itemIn = (page: Page) => page.getByRole('listitem', { name: victim.name, exact: true })
  await expect(itemIn(a)).toBeVisible()
  await expect(itemIn(b)).toBeVisible()
  // Marks the page: a reload would drop it.
  await b.evaluate(() => Object.assign(window, { __notReloaded: true }))
  // Both sockets are open (the lists above came over REST): an event sent before the second one
  // connected would never reach it. The count is published with each poll.
  await expect
    .poll(async () => {
      const state = (await (await fetch(`${server.url}/api/state`)).json()) as {
        stats?: { webSocketClients?: number }
      }
      return state.stats?.webSocketClients ?? 0
    })
    .toBeGreaterThanOrEqual(2)

  await itemIn(a).getByRole('button', { name: 'Delete' }).click()
  await a.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click()
  await expect(a.getByText('Node deleted successfully')).toBeVisible()

  // Well under the list's own 30 s re-read: only the socket's node_deleted can do this.
  await expect(itemIn(b)).toHaveCount(0, { timeout: 10_000 })
  expect(await b.evaluate(() => '__notReloaded' in window)).toBe(true)
  expect((await storedNodes()).some((n) => n.id === victim.id)).toBe(false)
  for (const page of [a, b]) await page.context().close()
})
