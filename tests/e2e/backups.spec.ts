// The Backups tab end to end: the built app, the real server and the simulator (with one PBS) in
// Chromium (spec 000 §2.1 backups columns, §2.4, §4 Backups, §5 backup search, §8 backup texts).
import { expect, test, type Page } from '@playwright/test'
import { createServerProcess, type ServerProcess } from './server-process.ts'

let server: ServerProcess

test.beforeAll(async () => {
  server = await createServerProcess({
    DEMO_CLUSTERS: '1',
    DEMO_NODES_PER_CLUSTER: '2',
    DEMO_GUESTS_PER_NODE: '20',
    DEMO_PBS: '1',
  })
  await server.start()
})

test.afterAll(async () => {
  await server.stop()
  server.cleanup()
})

interface PbsBackupWire {
  instance: string
  datastore: string
  namespace: string
}

async function pbsBackups(): Promise<PbsBackupWire[]> {
  const state = (await (await fetch(`${server.url}/api/state`)).json()) as {
    pbsBackups: PbsBackupWire[]
  }
  return state.pbsBackups
}

const ROWS = '[role="row"][data-kind="backup"]'
const toggle = (page: Page, group: string, option: string) =>
  page.getByRole('group', { name: group }).getByRole('button', { name: option, exact: true })
const classes = async (page: Page) =>
  new Set(
    await page
      .locator(ROWS)
      .evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.class)),
  )

/** Opens the backups tab and waits for live rows. */
async function openBackups(page: Page): Promise<void> {
  await page.goto(`${server.url}/backups`)
  await expect(page.locator(ROWS).first()).toBeVisible({ timeout: 60_000 })
}

test('lists live backups under day groups with the backups summary columns', async ({ page }) => {
  await openBackups(page)
  await expect(page.getByRole('columnheader', { name: 'Node / PBS' })).toBeVisible()
  await expect(page.getByRole('columnheader', { name: 'Backups' })).toBeVisible()
  await expect(page.locator('[role="row"][data-kind="group"]').first()).toBeVisible()
  await expect(page.getByTestId('backups-chart')).toBeVisible()
})

test('view modes restrict the list to one class of record', async ({ page }) => {
  await openBackups(page)
  await toggle(page, 'Backup source', 'PBS').click()
  await expect.poll(() => classes(page)).toEqual(new Set(['remote']))
  await toggle(page, 'Backup source', 'PVE').click()
  await expect.poll(() => classes(page)).toEqual(new Set(['local']))
  await page.getByRole('button', { name: 'Reset' }).click()
  await expect(toggle(page, 'Backup source', 'All')).toHaveAttribute('aria-pressed', 'true')
})

test('the pbs: term filters to one datastore namespace', async ({ page }) => {
  const [first] = await pbsBackups()
  // The demo always runs a PBS with backups (DEMO_PBS=1): none is a failure, not a skip.
  expect(first).toBeDefined()
  await openBackups(page)
  const term = `pbs:${first!.instance}:${first!.datastore}:${first!.namespace}`
  await page.getByRole('searchbox', { name: 'Search backups' }).fill(term)
  await expect.poll(() => classes(page)).toEqual(new Set(['remote']))
  const location = first!.namespace ? `${first!.datastore}/${first!.namespace}` : first!.datastore
  const locations = await page
    .locator(`${ROWS} [role="cell"]:nth-child(9)`)
    .evaluateAll((cells) => [...new Set(cells.map((c) => c.textContent))])
  expect(locations).toEqual([location])
})

test('choosing the PBS forces the remote view', async ({ page }) => {
  const [first] = await pbsBackups()
  // The demo always runs a PBS with backups (DEMO_PBS=1): none is a failure, not a skip.
  expect(first).toBeDefined()
  await openBackups(page)
  await page
    .getByRole('combobox', { name: 'Node or namespace' })
    .selectOption({ label: first!.instance })
  await expect(toggle(page, 'Backup source', 'PBS')).toHaveAttribute('aria-pressed', 'true')
  await expect.poll(() => classes(page)).toEqual(new Set(['remote']))
})

test('a chart bar selects its day and Clear filter removes the selection', async ({ page }) => {
  await openBackups(page)
  const over = page.getByTestId('backups-chart').locator('.u-over')
  const box = (await over.boundingBox())!
  // Today's bar is the last of 30; the demo takes backups every day.
  await over.click({ position: { x: box.width - box.width / 60, y: box.height - 3 } })
  const clear = page.getByRole('button', { name: /Clear filter/ })
  await expect(clear).toBeVisible()
  const labels = await page
    .locator('[role="row"][data-kind="group"] [role="cell"]')
    .evaluateAll((cells) => cells.map((c) => c.textContent))
  expect(labels.length).toBeLessThanOrEqual(1)
  await clear.click()
  await expect(clear).toBeHidden()
})

/** The text of one cell column of every rendered backup row (1-based column). */
const column = (page: Page, n: number) =>
  page.locator(`${ROWS} > [role="cell"]:nth-child(${n})`).allInnerTexts()
const groupLabels = (page: Page) =>
  page.locator('[role="row"][data-kind="group"] > [role="cell"]:first-child').allInnerTexts()

test('the summary counts each node and the backup server; the PBS row counts its backups', async ({
  page,
}) => {
  await openBackups(page)
  const rows = page.getByRole('table', { name: 'Nodes', exact: true }).locator('tbody tr')
  const pbsRow = rows.filter({ hasText: 'PBS' })
  await expect(pbsRow).toHaveCount(1)
  const count = async (row: typeof pbsRow) =>
    Number((await row.locator('td:last-child').innerText()).trim())
  // Every node of the demo has snapshots and local backups.
  await expect
    .poll(async () => {
      const all = await rows.all()
      return (await Promise.all(all.map(count))).every((n) => n > 0)
    })
    .toBe(true)
  await expect.poll(async () => (await count(pbsRow)) === (await pbsBackups()).length).toBe(true)
})

test('the type filter keeps one guest type; Host appears for the host backups', async ({
  page,
}) => {
  await openBackups(page)
  await toggle(page, 'Guest type', 'LXC').click()
  await expect.poll(async () => new Set(await column(page, 2))).toEqual(new Set(['LXC']))
  await toggle(page, 'Guest type', 'VM').click()
  await expect.poll(async () => new Set(await column(page, 2))).toEqual(new Set(['VM']))
  // The demo PBS keeps weekly host backups off-site.
  await toggle(page, 'Guest type', 'Host').click()
  await page
    .getByRole('group', { name: 'Chart range' })
    .getByRole('button', { name: '90d' })
    .click()
  await expect.poll(async () => new Set(await column(page, 2))).toEqual(new Set(['Host']))
  await toggle(page, 'Guest type', 'All').click()
  await expect.poll(async () => new Set(await column(page, 2)).size).toBeGreaterThan(1)
})

test('grouping by guest, header sorts, relative time and Reset', async ({ page }) => {
  await openBackups(page)
  const first = (await groupLabels(page))[0]
  // The newest day: just after midnight the night's backups have not run yet.
  expect(['Today', 'Yesterday']).toContain(first)
  await toggle(page, 'Grouping', 'By guest').click()
  await expect.poll(async () => (await groupLabels(page))[0]).not.toBe(first)
  await toggle(page, 'Grouping', 'By date').click()

  // Size starts descending on the first header click.
  await page.getByRole('columnheader', { name: /^Size/ }).click()
  await expect(page.getByRole('combobox', { name: 'Sort by' })).toHaveValue('size')
  await expect(page.getByRole('button', { name: 'Sort descending' })).toBeVisible()

  const times = () => column(page, 6)
  expect((await times())[0]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/)
  await page.getByText('Relative time').click()
  await expect.poll(async () => (await times())[0]).toMatch(/ago$|^just now$/i)

  await page.getByRole('button', { name: 'Reset' }).click()
  await expect(page.getByRole('combobox', { name: 'Sort by' })).toHaveValue('backupTime')
  await expect(page.getByRole('button', { name: 'Sort descending' })).toBeVisible()
  await expect(toggle(page, 'Grouping', 'By date')).toHaveAttribute('aria-pressed', 'true')
  await expect(
    page.getByRole('group', { name: 'Chart range' }).getByRole('button', { name: '30d' }),
  ).toHaveAttribute('aria-pressed', 'true')
})

test('the chart ranges change the number of days shown', async ({ page }) => {
  await openBackups(page)
  const chart = page.getByTestId('backups-chart')
  await expect(chart).toHaveAttribute('aria-label', /last 30 days/)
  for (const [label, days] of [
    ['7d', 7],
    ['90d', 90],
    ['1y', 365],
  ] as const) {
    await page
      .getByRole('group', { name: 'Chart range' })
      .getByRole('button', { name: label })
      .click()
    await expect(chart).toHaveAttribute('aria-label', new RegExp(`last ${days} days`))
  }
})

test('a phone shows backup cards instead of the wide table', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 })
  await openBackups(page)
  await expect(page.getByRole('columnheader', { name: /^Size/ })).toBeHidden()
  const card = page.locator(ROWS).first()
  const box = (await card.boundingBox())!
  expect(box.width).toBeLessThanOrEqual(390)
})
