// The built app, the real server and the simulator, driven in Chromium as a user would.
import { expect, test } from '@playwright/test'
import { createServerProcess, type ServerProcess } from './server-process.ts'

let server: ServerProcess

test.beforeAll(async () => {
  server = await createServerProcess()
  await server.start()
})

test.afterAll(async () => {
  await server.stop()
  server.cleanup()
})

const guestRows = '[role="row"][data-kind="guest"]'

test('lists guests from every simulated cluster with live CPU values', async ({ page }) => {
  await page.goto(server.url)
  await expect(page.locator(guestRows).first()).toBeVisible()
  await expect(page.getByText('Connected', { exact: true })).toBeVisible()

  // The first rows come from the first cluster that answered; the others follow within a cycle.
  const readState = async () =>
    (await (await fetch(`${server.url}/api/state`)).json()) as {
      nodes: Array<{ name: string; instance: string }>
    }
  const clustersOf = (state: Awaited<ReturnType<typeof readState>>) => [
    ...new Set(state.nodes.map((n) => n.instance)),
  ]
  await expect.poll(async () => clustersOf(await readState()), { timeout: 30_000 }).toHaveLength(3)
  const state = await readState()
  const clusters = clustersOf(state)

  // Each cluster's guests can be found in the page: search narrows to that cluster's nodes.
  const search = page.getByRole('searchbox')
  for (const cluster of clusters) {
    const nodeName = state.nodes.find((n) => n.instance === cluster)!.name
    await search.fill(nodeName)
    await expect(page.locator('[role="row"][data-kind="group"]').first()).toContainText(nodeName)
    await expect(page.locator(guestRows).first()).toBeVisible()
  }
  await search.fill('')
  await expect(page.locator(guestRows).first()).toBeVisible()

  // CPU values change over time without a reload.
  const cpuTexts = async () =>
    (
      await page.locator(`${guestRows}[data-active="true"] [data-column="cpu"]`).allInnerTexts()
    ).join('|')
  await expect.poll(cpuTexts).toMatch(/\d+%/)
  const before = await cpuTexts()
  await page.evaluate(() => ((window as unknown as { marker: number }).marker = 42))
  await expect.poll(cpuTexts, { timeout: 30_000 }).not.toBe(before)
  expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(42)
})

test('shows the connection loss and recovers live data when the server returns', async ({
  page,
}) => {
  await page.goto(server.url)
  await expect(page.locator(guestRows).first()).toBeVisible()
  await page.evaluate(() => ((window as unknown as { marker: number }).marker = 7))

  await server.stop()
  await expect(page.getByText('Connection lost')).toBeVisible()

  await server.start()
  await expect(page.locator(guestRows).first()).toBeVisible({ timeout: 60_000 })
  await expect(page.getByText('Connected', { exact: true })).toBeVisible()
  // Same page: the reconnect happened without a reload.
  expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(7)
})

test('serves client routes through the history fallback', async ({ page }) => {
  await page.goto(`${server.url}/settings`)
  await expect(page).toHaveURL(/\/settings\/pve$/)
  const res = await fetch(`${server.url}/storage`)
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toContain('text/html')
})
