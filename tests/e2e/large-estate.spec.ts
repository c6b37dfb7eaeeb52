// A larger estate end to end: 2,000 guests over 20 nodes reach the dashboard and the first rows
// render. Behaviour only; the 100,000-guest timings are a benchmark (`npm run bench -- browser-100k`).
import { expect, test } from '@playwright/test'
import { createServerProcess, type ServerProcess } from './server-process.ts'

const NODES = 20
const GUESTS = NODES * 100

let server: ServerProcess

test.beforeAll(async () => {
  server = await createServerProcess({
    DEMO_CLUSTERS: '2',
    DEMO_NODES_PER_CLUSTER: String(NODES / 2),
    DEMO_GUESTS_PER_NODE: String(GUESTS / NODES),
  })
  await server.start()
})

test.afterAll(async () => {
  await server?.stop()
  server?.cleanup()
})

test('2,000 guests: every node is listed, the footer counts the estate, the first rows render', async ({
  page,
}) => {
  await page.goto(server.url)
  await expect(page.getByRole('table', { name: 'Nodes', exact: true })).toHaveAttribute(
    'aria-rowcount',
    String(NODES + 1),
  )
  await expect(page.locator('[role="row"][data-kind="guest"]').first()).toBeVisible()
  const footer = page.locator('p[aria-live="polite"]').filter({ hasText: 'running' })
  await expect
    .poll(async () => {
      const match = /(\d+) running · (\d+) stopped/.exec(await footer.innerText())
      return match ? Number(match[1]) + Number(match[2]) : 0
    })
    // The simulator creates and destroys a guest now and then.
    .toBeGreaterThan(GUESTS * 0.98)
})
