// Metrics history end to end (issue 25): the built app, the real server and the simulator (one
// PVE 8 and one PVE 9 cluster, a PBS) in Chromium. An expanded guest draws its CPU and memory
// charts from Proxmox RRD, the range buttons ask again, a guest's page opens from its URL, the
// trend column draws for the rows on screen, and a storage that fills says "full in N days".
import { expect, test, type Page } from '@playwright/test'
import { createServerProcess, type ServerProcess } from './server-process.ts'

let server: ServerProcess

test.beforeAll(async () => {
  server = await createServerProcess({
    DEMO_ALERT_SCENARIOS: 'false',
    DEMO_CLUSTERS: '2',
    DEMO_NODES_PER_CLUSTER: '2',
    DEMO_GUESTS_PER_NODE: '8',
  })
  await server.start()
})

test.afterAll(async () => {
  await server.stop()
  server.cleanup()
})

interface LiveGuest {
  id: string
  name: string
  status: string
}

async function runningGuest(): Promise<LiveGuest> {
  let guest: LiveGuest | undefined
  await expect
    .poll(async () => {
      const state = (await (await fetch(`${server.url}/api/state`)).json()) as {
        vms: LiveGuest[]
      }
      guest = state.vms.find((g) => g.status === 'running')
      return guest !== undefined
    })
    .toBe(true)
  return guest!
}

const historyOf = (page: Page, name: string) =>
  page.getByRole('region', { name: `History of ${name}` })
const plot = (page: Page, name: string, metric: string) =>
  historyOf(page, name).getByRole('img', { name: new RegExp(`^${metric} of ${name} over`) })

test('an expanded guest draws its CPU and memory history, and the range buttons ask again', async ({
  page,
}) => {
  const guest = await runningGuest()
  await page.goto(`${server.url}/`)
  const search = page.getByRole('searchbox', { name: 'Search guests' })
  await search.fill(guest.name)
  await page.getByRole('table', { name: 'Guests' }).getByText(guest.name, { exact: true }).click()
  await expect(plot(page, guest.name, 'CPU')).toBeVisible()
  await expect(plot(page, guest.name, 'Memory')).toBeVisible()
  await expect(historyOf(page, guest.name).getByTestId('history-caption')).toContainText(
    'Proxmox RRD',
  )
  const asked = page.waitForRequest((r) => r.url().includes('range=7d'))
  await historyOf(page, guest.name)
    .getByRole('group', { name: 'History range' })
    .getByRole('button', { name: '7d', exact: true })
    .click()
  await asked
  await expect(historyOf(page, guest.name).getByTestId('history-caption')).toContainText('step')
  await expect(plot(page, guest.name, 'CPU')).toBeVisible()
})

test("a guest's page opens from its URL with its charts", async ({ page }) => {
  const guest = await runningGuest()
  await page.goto(`${server.url}/guests/${encodeURIComponent(guest.id)}`)
  await expect(page.getByRole('heading', { name: guest.name })).toBeVisible()
  await expect(plot(page, guest.name, 'CPU')).toBeVisible()
  await expect(plot(page, guest.name, 'Memory')).toBeVisible()
})

test('the trend column draws sparklines for the rows on screen', async ({ page }) => {
  await runningGuest()
  await page.goto(`${server.url}/`)
  await page.getByRole('switch', { name: 'Trends' }).first().click()
  const sparklines = page
    .getByRole('table', { name: 'Guests' })
    .getByRole('img', { name: /over the last hour$/ })
  await expect(sparklines.first()).toBeVisible()
  expect(await sparklines.count()).toBeGreaterThan(3)
})

test('a storage that fills steadily says when it will be full', async ({ page }) => {
  await page.goto(`${server.url}/storage`)
  // The forecast job reads each storage's month of history after the start.
  await expect(page.getByText(/^full in \d+ days$/).first()).toBeVisible({ timeout: 80_000 })
})
