// The Storage tab end to end: the built app, the real server and the simulators in Chromium
// (spec 000 §2.1, §2.3, §5 storage and disk search, §8 storage texts, §9 disk health). The
// simulator's estate has a DEGRADED ZFS pool, Ceph storage on one cluster, a FAILED disk and an
// SSD with little life left; the spec reads which ones from /api/state instead of assuming names.
import { expect, test, type Page } from '@playwright/test'
import { createServerProcess, type ServerProcess } from './server-process.ts'

let server: ServerProcess

test.beforeAll(async () => {
  server = await createServerProcess({ DEMO_GUESTS_PER_NODE: '5' })
  await server.start()
})

test.afterAll(async () => {
  await server.stop()
  server.cleanup()
})

interface StateStorage {
  id: string
  name: string
  node: string
  instance: string
  type: string
  shared: boolean
  total: number
  zfsPool?: { name: string; state: string; readErrors: number; checksumErrors: number }
}

interface StateDisk {
  node: string
  devPath: string
  health: string
  wearout: number
}

interface LiveState {
  nodes: { id: string; name: string }[]
  storage: StateStorage[]
  physicalDisks: StateDisk[]
  cephClusters: { health: string; numOsds: number; numOsdsUp: number; numOsdsIn: number }[]
}

/**
 * The live state once every node's storage and disks and the Ceph cluster have been collected
 * (collectors report per node, so a first non-empty list can still be partial).
 */
async function liveState(): Promise<LiveState> {
  let state: LiveState | null = null
  await expect
    .poll(async () => {
      state = (await (await fetch(`${server.url}/api/state`)).json()) as LiveState
      const { nodes, storage, physicalDisks, cephClusters } = state
      return (
        nodes.length > 0 &&
        cephClusters.length > 0 &&
        nodes.every(
          (n) =>
            storage.some((e) => e.node === n.name) && physicalDisks.some((d) => d.node === n.name),
        )
      )
    })
    .toBe(true)
  return state!
}

const POOL_ROWS = 'tr[data-kind="pool"]'
const poolTable = (page: Page) => page.getByRole('table', { name: 'Storage pools' })
const searchBox = (page: Page) => page.getByRole('searchbox', { name: 'Search storage' })
const layout = (page: Page, name: string) =>
  page.getByRole('group', { name: 'Group storage' }).getByRole('button', { name, exact: true })
const poolRow = (page: Page, name: string) => page.locator(`${POOL_ROWS}[data-storage="${name}"]`)

/** Opens /storage and waits for pool rows. */
async function openStorage(page: Page): Promise<void> {
  await page.goto(`${server.url}/storage`)
  await expect(page.locator(POOL_ROWS).first()).toBeVisible()
}

/** Usage percents of the rendered pool rows, in order. */
async function usages(page: Page): Promise<number[]> {
  const texts = await page
    .locator(`${POOL_ROWS} [role="meter"]`)
    .evaluateAll((meters) => meters.map((m) => m.getAttribute('aria-valuetext') ?? ''))
  return texts.map((t) => Number.parseFloat(t))
}

test('By Node lists every entry under its node; By Storage merges shared storage', async ({
  page,
}) => {
  const state = await liveState()
  await openStorage(page)
  const shared = state.storage.find(
    (entry) =>
      entry.shared &&
      state.storage.filter((e) => e.name === entry.name && e.instance === entry.instance).length >
        1,
  )!
  const copies = state.storage.filter(
    (entry) => entry.name === shared.name && entry.instance === shared.instance,
  ).length
  await expect(page.locator(POOL_ROWS)).toHaveCount(state.storage.length)
  await expect(poolTable(page).getByRole('columnheader', { name: 'Shared' })).toBeVisible()
  await expect(page.locator('tr[data-kind="group"]')).toHaveCount(state.nodes.length)

  await layout(page, 'By Storage').click()
  await expect(page.locator('tr[data-kind="group"]')).toHaveCount(0)
  await expect(poolTable(page).getByRole('columnheader', { name: 'Shared' })).toHaveCount(0)
  const sameInstance = page.locator(`${POOL_ROWS}[data-storage="${shared.name}"]`)
  // One row per instance that has it, instead of one per node.
  const instances = new Set(
    state.storage.filter((e) => e.name === shared.name && e.shared).map((e) => e.instance),
  )
  await expect(sameInstance).toHaveCount(instances.size)
  expect(copies).toBeGreaterThan(1)

  // The choice survives a reload (saved preference).
  await page.reload()
  await expect(layout(page, 'By Storage')).toHaveAttribute('aria-pressed', 'true')
})

test('search node:<name> keeps that node; a miss shows the exact text', async ({ page }) => {
  const state = await liveState()
  await openStorage(page)
  await layout(page, 'By Node').click()
  const node = state.nodes[1]!
  await searchBox(page).fill(`node:${node.name}`)
  const expected = state.storage.filter((entry) => entry.node === node.name).length
  await expect(page.locator(POOL_ROWS)).toHaveCount(expected)
  await expect(page.locator('tr[data-kind="group"]')).toHaveCount(1)
  await expect(page.locator('tr[data-kind="group"]')).toContainText(node.name)
  await searchBox(page).fill(`node:${node.name} zfspool`)
  await expect(page.locator(POOL_ROWS)).toHaveCount(
    state.storage.filter((e) => e.node === node.name && e.type === 'zfspool').length,
  )
  await searchBox(page).fill('no-such-storage')
  await expect(page.getByText('No storage found')).toBeVisible()
  await expect(page.getByText('No storage matches your search "no-such-storage"')).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(searchBox(page)).toHaveValue('')
})

test('sort by usage in both directions; Reset returns to name ascending', async ({ page }) => {
  await liveState()
  await openStorage(page)
  await layout(page, 'By Storage').click()
  await page.getByRole('combobox', { name: 'Sort storage by' }).selectOption('usage')
  await expect.poll(async () => isSorted(await usages(page), 'asc')).toBe(true)
  await page.getByRole('button', { name: 'Sort ascending' }).click()
  await expect.poll(async () => isSorted(await usages(page), 'desc')).toBe(true)
  const values = await usages(page)
  expect(values[0]).toBeGreaterThan(values.at(-1)!)
  await page.getByRole('button', { name: 'Reset' }).click()
  await expect(page.getByRole('combobox', { name: 'Sort storage by' })).toHaveValue('name')
  await expect(layout(page, 'By Node')).toHaveAttribute('aria-pressed', 'true')
})

test('the degraded ZFS pool has the ERRORS badge and the ZFS Pool Status banner', async ({
  page,
}) => {
  const state = await liveState()
  const degraded = state.storage.find((e) => e.zfsPool && e.zfsPool.state !== 'ONLINE')!
  expect(degraded).toBeDefined()
  await openStorage(page)
  const banner = page.getByRole('alert', { name: 'ZFS Pool Status' })
  await expect(banner).toBeVisible()
  await expect(banner).toContainText(`on ${degraded.node}`)
  await expect(banner).toContainText(degraded.zfsPool!.state)
  await expect(banner).toContainText(`read errors ${degraded.zfsPool!.readErrors}`)
  await expect(banner).toContainText(`checksum errors ${degraded.zfsPool!.checksumErrors}`)
  await expect(banner).toContainText('FAULTED')
  await searchBox(page).fill(`node:${degraded.node} ${degraded.name}`)
  await expect(poolRow(page, degraded.name)).toHaveCount(1)
  await expect(poolRow(page, degraded.name).getByText('ERRORS', { exact: true })).toBeVisible()
})

test('a Ceph row opens the Ceph panel with live cluster data; the demo starts with an OSD down', async ({
  page,
}) => {
  const state = await liveState()
  // The demo starts its Ceph cluster with one OSD down for 20 minutes.
  const cluster = state.cephClusters[0]!
  expect(cluster).toMatchObject({ health: 'HEALTH_WARN', numOsdsUp: cluster.numOsds - 1 })
  const ceph = state.storage.find((e) => ['rbd', 'cephfs', 'ceph'].includes(e.type))!
  expect(ceph).toBeDefined()
  await openStorage(page)
  await layout(page, 'By Storage').click()
  const row = poolRow(page, ceph.name)
  await row.first().click()
  await expect(row.first()).toHaveAttribute('aria-expanded', 'true')
  const panel = page.getByRole('region', { name: 'Ceph cluster' })
  await expect(panel).toBeVisible()
  await expect(panel).toContainText('HEALTH_WARN')
  await expect(panel).toContainText('Monitors')
  await expect(panel).toContainText(
    `${cluster.numOsdsUp} up / ${cluster.numOsdsIn} in of ${cluster.numOsds}`,
  )
  expect(await panel.locator('ul').first().locator('li').count()).toBeLessThanOrEqual(3)
  await expect(panel).not.toContainText('Derived from')
  await row.first().click()
  await expect(panel).toHaveCount(0)
})

test('physical disks show FAILED and LOW LIFE; the node filter adds to the empty text', async ({
  page,
}) => {
  const state = await liveState()
  const failed = state.physicalDisks.filter((d) => d.health === 'FAILED')
  const lowLife = state.physicalDisks.filter(
    (d) => ['PASSED', 'OK', 'GOOD'].includes(d.health) && d.wearout >= 1 && d.wearout <= 9,
  )
  expect(failed.length).toBeGreaterThan(0)
  expect(lowLife.length).toBeGreaterThan(0)
  await openStorage(page)
  await page.getByRole('tab', { name: /Physical Disks/ }).click()
  const table = page.getByRole('table', { name: 'Physical disks' })
  await expect(table.locator('tr[data-kind="disk"]')).toHaveCount(state.physicalDisks.length)
  await expect(table.locator('[data-health="FAILED"]')).toHaveCount(failed.length)
  await expect(table.locator('[data-health="LOW LIFE"]')).toHaveCount(lowLife.length)
  const low = table
    .locator('tr[data-kind="disk"]')
    .filter({ has: page.locator('[data-health="LOW LIFE"]') })
  await expect(low.first().getByRole('meter', { name: 'SSD life' })).toHaveAttribute(
    'data-colour',
    'red',
  )

  // Selecting a node in the summary filters the disks to it.
  const node = state.nodes.find((n) => n.name === failed[0]!.node)!
  await page.locator(`tr[data-node-id="${node.id}"] td:nth-child(3)`).click()
  await expect(table.locator('tr[data-kind="disk"]')).toHaveCount(
    state.physicalDisks.filter((d) => d.node === node.name).length,
  )
  await page.getByRole('searchbox', { name: 'Search disks' }).fill('no-such-disk')
  await expect(
    page.getByText(`No physical disks found for node ${node.name} matching "no-such-disk"`),
  ).toBeVisible()
})

function isSorted(values: readonly number[], direction: 'asc' | 'desc'): boolean {
  return (
    values.length > 1 &&
    values.every(
      (v, i) => i === 0 || (direction === 'asc' ? values[i - 1]! <= v : values[i - 1]! >= v),
    )
  )
}
