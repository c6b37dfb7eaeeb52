// The Dashboard tab end to end: the built app, the real server and the simulator in Chromium,
// driven as a new user would (spec 000 §2.1, §2.2, §4, §5 search history, §8 dashboard texts).
// Alert highlight/Ack need alerts the demo does not raise yet; the browser component tests in
// tests/browser/ui cover them, and the agent-sourced detail sections too.
import { expect, test, type Locator, type Page } from '@playwright/test'
import { createServerProcess, type ServerProcess } from './server-process.ts'

let server: ServerProcess

test.beforeAll(async () => {
  // A small estate: 2 clusters x 2 nodes x 30 guests, with PVE's usual share of stopped guests
  // (the filters need stopped VMs and containers to show), not the alert demo's few.
  server = await createServerProcess({
    DEMO_ALERT_SCENARIOS: 'false',
    DEMO_CLUSTERS: '2',
    DEMO_NODES_PER_CLUSTER: '2',
    DEMO_GUESTS_PER_NODE: '30',
  })
  await server.start()
})

test.afterAll(async () => {
  await server.stop()
  server.cleanup()
})

interface StateNode {
  id: string
  name: string
  host?: string
  instance: string
}

interface LiveState {
  nodes: StateNode[]
  vms: unknown[]
  containers: unknown[]
}

async function liveState(): Promise<LiveState> {
  return (await (await fetch(`${server.url}/api/state`)).json()) as LiveState
}

const GUEST_ROWS = '[role="row"][data-kind="guest"]'
const GROUP_ROWS = '[role="row"][data-kind="group"]'

const searchBox = (page: Page) => page.getByRole('searchbox', { name: 'Search guests' })
const guestTable = (page: Page) => page.getByRole('table', { name: 'Guests' })
const nodeTable = (page: Page) => page.getByRole('table', { name: 'Nodes', exact: true })
const nodeRows = (page: Page) => nodeTable(page).locator('tbody tr')
const toggle = (page: Page, group: string, option: string) =>
  page.getByRole('group', { name: group }).getByRole('button', { name: option, exact: true })
const footer = (page: Page) => page.locator('p[aria-live="polite"]').filter({ hasText: 'running' })
const guestHeader = (page: Page, label: string) =>
  guestTable(page).getByRole('columnheader', { name: label, exact: true })

/** Opens the dashboard and waits for live guest rows. */
async function openDashboard(page: Page): Promise<void> {
  await page.goto(server.url)
  await expect(page.locator(GUEST_ROWS).first()).toBeVisible()
}

/** Moves focus off any control, as a click on empty page space does. */
async function focusBody(page: Page): Promise<void> {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
  await expect.poll(() => page.evaluate(() => document.activeElement === document.body)).toBe(true)
}

/** Running and stopped counts from the footer, plus "N of M shown" when present. */
async function footerCounts(page: Page) {
  const text = await footer(page).innerText()
  const match = /(\d+) running · (\d+) stopped(?: · (\d+) of (\d+) shown)?/.exec(text)
  if (!match) throw new Error(`footer not readable: ${text}`)
  return {
    running: Number(match[1]),
    stopped: Number(match[2]),
    shown: match[3] === undefined ? null : Number(match[3]),
    total: match[4] === undefined ? null : Number(match[4]),
  }
}

/** The text of one cell column of every rendered guest row (1-based column). */
async function columnTexts(page: Page, column: number): Promise<string[]> {
  return page.locator(`${GUEST_ROWS} > [role="cell"]:nth-child(${column})`).allInnerTexts()
}

/** CPU percents of the rendered active guest rows, in order (inactive rows show '-'). */
async function cpuValues(page: Page): Promise<number[]> {
  const texts = await page
    .locator(`${GUEST_ROWS} [data-column="cpu"] [role="meter"]`)
    .evaluateAll((meters) => meters.map((m) => m.getAttribute('aria-valuetext') ?? ''))
  return texts.map((t) => Number.parseFloat(t)).filter((n) => Number.isFinite(n))
}

function isSorted(values: readonly number[], direction: 'asc' | 'desc'): boolean {
  return values.every(
    (v, i) => i === 0 || (direction === 'asc' ? values[i - 1]! <= v : values[i - 1]! >= v),
  )
}

async function nodeNames(page: Page): Promise<string[]> {
  return nodeRows(page).locator('td:first-child [data-name]').allInnerTexts()
}

async function expectPressed(locator: Locator): Promise<void> {
  await expect(locator).toHaveAttribute('aria-pressed', 'true')
}

test.describe('node summary table', () => {
  test('one row per node with the dashboard columns; headers sort and cycle back', async ({
    page,
  }) => {
    await openDashboard(page)
    // Both clusters must have reported before the state is the truth to compare against:
    // the first guest rows can arrive while the second cluster's first poll is still running.
    await expect.poll(async () => (await liveState()).nodes.length).toBe(4)
    const state = await liveState()
    await expect(nodeTable(page)).toBeVisible()
    await expect(nodeRows(page)).toHaveCount(state.nodes.length)
    const headers = nodeTable(page).getByRole('columnheader')
    const labels = (await headers.allInnerTexts()).map((t) => t.trim().toLowerCase())
    for (const label of ['Node', 'Uptime', 'CPU', 'Memory', 'Disk', 'VMs', 'Containers']) {
      expect(labels).toContain(label.toLowerCase())
    }

    // Default order: every simulated node is an online hypervisor, so by name.
    const defaultOrder = await nodeNames(page)
    expect(new Set(defaultOrder)).toEqual(new Set(state.nodes.map((n) => n.name)))
    expect(defaultOrder).toEqual([...defaultOrder].sort())

    // Name starts ascending, flips to descending, and the third click restores the default.
    const nameHeader = nodeTable(page).getByRole('columnheader', { name: 'Node', exact: true })
    await nameHeader.getByRole('button').click()
    await expect(nameHeader).toHaveAttribute('aria-sort', 'ascending')
    await expect.poll(() => nodeNames(page)).toEqual([...defaultOrder].sort())
    await nameHeader.getByRole('button').click()
    await expect(nameHeader).toHaveAttribute('aria-sort', 'descending')
    await expect.poll(() => nodeNames(page)).toEqual([...defaultOrder].sort().reverse())
    await nameHeader.getByRole('button').click()
    await expect(nameHeader).toHaveAttribute('aria-sort', 'none')
    await expect.poll(() => nodeNames(page)).toEqual(defaultOrder)

    // A numeric column starts descending; the third click restores the default order.
    const vmsColumn = labels.indexOf('vms') + 1
    const vmCounts = async () =>
      (await nodeRows(page).locator(`td:nth-child(${vmsColumn})`).allInnerTexts()).map(Number)
    const vmsHeader = nodeTable(page).getByRole('columnheader', { name: 'VMs', exact: true })
    await vmsHeader.getByRole('button').click()
    await expect(vmsHeader).toHaveAttribute('aria-sort', 'descending')
    await expect(nameHeader).toHaveAttribute('aria-sort', 'none')
    await expect.poll(async () => isSorted(await vmCounts(), 'desc')).toBe(true)
    await vmsHeader.getByRole('button').click()
    await expect(vmsHeader).toHaveAttribute('aria-sort', 'ascending')
    await expect.poll(async () => isSorted(await vmCounts(), 'asc')).toBe(true)
    await vmsHeader.getByRole('button').click()
    await expect(vmsHeader).toHaveAttribute('aria-sort', 'none')
    await expect.poll(() => nodeNames(page)).toEqual(defaultOrder)

    const cpuHeader = nodeTable(page).getByRole('columnheader', { name: 'CPU', exact: true })
    await cpuHeader.getByRole('button').click()
    await expect(cpuHeader).toHaveAttribute('aria-sort', 'descending')
  })

  test('clicking a node filters the guests to it and dims the others; click or Escape deselects', async ({
    page,
  }) => {
    await openDashboard(page)
    const rows = nodeRows(page)
    await expect(rows).not.toHaveCount(0)
    const row = rows.nth(1)
    const nodeId = (await row.getAttribute('data-node-id'))!
    const nodeName = await row.locator('td:first-child [data-name]').innerText()
    await expect.poll(async () => (await footerCounts(page)).shown).toBeNull()
    // Click the Uptime cell (the name would select it too).
    await row.locator('td').nth(1).click()
    await expect(row).toHaveAttribute('aria-selected', 'true')
    await expect(row).toHaveCSS('opacity', '1')
    for (const other of await rows.all()) {
      if ((await other.getAttribute('data-node-id')) === nodeId) continue
      await expect(other).toHaveAttribute('aria-selected', 'false')
      await expect(other).toHaveCSS('opacity', '0.4')
    }
    await expect(page.locator(GROUP_ROWS)).toHaveCount(1)
    await expect(page.locator(GROUP_ROWS)).toContainText(nodeName)
    // The footer says only some of the estate is shown.
    await expect.poll(async () => (await footerCounts(page)).shown).not.toBeNull()
    await expect
      .poll(async () => {
        const keys = await page
          .locator(GUEST_ROWS)
          .evaluateAll((els) => els.map((el) => el.getAttribute('data-key') ?? ''))
        return keys.length > 0 && keys.every((key) => key.startsWith(`${nodeId}-`))
      })
      .toBe(true)

    // Clicking it again deselects: the whole estate is shown again.
    await row.locator('td').nth(1).click()
    await expect(row).toHaveAttribute('aria-selected', 'false')
    await expect.poll(async () => (await footerCounts(page)).shown).toBeNull()
    for (const other of await rows.all()) await expect(other).toHaveCSS('opacity', '1')

    // Escape deselects too.
    await row.locator('td').nth(1).click()
    await expect(row).toHaveAttribute('aria-selected', 'true')
    await page.keyboard.press('Escape')
    await expect(row).toHaveAttribute('aria-selected', 'false')
    await expect.poll(async () => (await footerCounts(page)).shown).toBeNull()
    // Escape only deselected: the filter bar is still shown.
    await expect(searchBox(page)).toBeVisible()
  })

  test("a node's link icon opens its own web interface in a new tab", async ({ page }) => {
    await openDashboard(page)
    const state = await liveState()
    for (const node of state.nodes) {
      const link = nodeRows(page).getByRole('link', {
        name: `Open ${node.name} in the Proxmox web interface`,
      })
      await expect(link).toHaveAttribute('target', '_blank')
      const href = await link.getAttribute('href')
      // Its host when known (the demo knows it: the simulator's https URL), else name:8006.
      expect(href).toBe(node.host ? node.host : `https://${node.name}:8006`)
    }
  })
})

test.describe('filter bar', () => {
  test('a printable key on the page body types into the search; search narrows; clear', async ({
    page,
  }) => {
    await openDashboard(page)
    await expect.poll(async () => (await footerCounts(page)).shown).toBeNull()
    await focusBody(page)
    await page.keyboard.press('w')
    await expect(searchBox(page)).toBeFocused()
    await expect(searchBox(page)).toHaveValue('w')
    await page.keyboard.type('eb')
    await expect(searchBox(page)).toHaveValue('web')
    await expect.poll(async () => (await footerCounts(page)).shown).not.toBeNull()
    const counts = await footerCounts(page)
    expect(counts.shown!).toBeGreaterThan(0)
    expect(counts.shown!).toBeLessThan(counts.total!)
    expect(counts.running + counts.stopped).toBe(counts.shown)

    await page.getByRole('button', { name: 'Clear search' }).click()
    await expect(searchBox(page)).toHaveValue('')
    await expect(searchBox(page)).toBeFocused()
    await expect.poll(async () => (await footerCounts(page)).shown).toBeNull()
  })

  test('search history: Enter saves, clock and ArrowDown open it, entries removable, Clear history', async ({
    page,
  }) => {
    await openDashboard(page)
    const historyButton = page.getByRole('button', { name: 'Search history' })
    const recent = page.getByRole('list', { name: 'Recent searches' })
    const emptyText = page.getByText('Searches you run will appear here.')

    // A new user has no history yet.
    await historyButton.click()
    await expect(historyButton).toHaveAttribute('aria-expanded', 'true')
    await expect(emptyText).toBeVisible()
    await historyButton.click()
    await expect(emptyText).toBeHidden()

    await searchBox(page).fill('web')
    await searchBox(page).press('Enter')
    await searchBox(page).fill('db')
    await searchBox(page).press('Enter')
    // Trimmed, and a case-insensitive duplicate moves to the top with its newest spelling.
    await searchBox(page).fill('  WEB ')
    await searchBox(page).press('Enter')
    // Leaving the search box saves too.
    await searchBox(page).fill('app')
    await focusBody(page)
    // Focus moving to the history button does not save a half-typed search.
    await searchBox(page).fill('half')
    await historyButton.click()
    await expect(recent.getByRole('listitem')).toHaveText(['app', 'WEB', 'db'])

    // Picking an entry runs it and closes the dropdown.
    await recent.getByRole('button', { name: 'db', exact: true }).click()
    await expect(searchBox(page)).toHaveValue('db')
    await expect(recent).toBeHidden()

    // ArrowDown in the search box opens it too, with focus on the newest entry.
    await searchBox(page).focus()
    await page.keyboard.press('ArrowDown')
    await expect(recent).toBeVisible()
    await expect(recent.getByRole('listitem')).toHaveText(['db', 'app', 'WEB'])
    await expect(recent.getByRole('button', { name: 'db', exact: true })).toBeFocused()

    await recent.getByRole('button', { name: 'Remove "WEB" from history' }).click()
    await expect(recent.getByRole('listitem')).toHaveText(['db', 'app'])

    await page.getByRole('button', { name: 'Clear history' }).click()
    await expect(emptyText).toBeVisible()
    await expect(recent).toBeHidden()

    // The emptied history stays empty after a reload.
    await page.reload()
    await expect(page.locator(GUEST_ROWS).first()).toBeVisible()
    await historyButton.click()
    await expect(emptyText).toBeVisible()
  })

  test('search tips list the examples', async ({ page }) => {
    await openDashboard(page)
    await page.getByRole('button', { name: 'Search tips' }).click()
    const tips = page.getByRole('region', { name: 'Search tips' })
    await expect(tips).toBeVisible()
    for (const example of ['cpu>80', 'memory<20', 'tags:prod', 'node:pve1']) {
      await expect(tips.getByText(example, { exact: true })).toBeVisible()
    }
    await expect(tips).toContainText(/AND/)
  })

  test('type, status and layout toggles', async ({ page }) => {
    await openDashboard(page)
    await expectPressed(toggle(page, 'Guest type', 'All'))

    await toggle(page, 'Guest type', 'VMs').click()
    await expectPressed(toggle(page, 'Guest type', 'VMs'))
    await expect.poll(async () => new Set(await columnTexts(page, 2))).toEqual(new Set(['VM']))
    await toggle(page, 'Guest type', 'LXCs').click()
    await expect.poll(async () => new Set(await columnTexts(page, 2))).toEqual(new Set(['LXC']))
    await toggle(page, 'Guest type', 'All').click()
    await expect
      .poll(async () => new Set(await columnTexts(page, 2)))
      .toEqual(new Set(['VM', 'LXC']))

    await toggle(page, 'Guest status', 'Running').click()
    await expectPressed(toggle(page, 'Guest status', 'Running'))
    await expect.poll(async () => (await footerCounts(page)).stopped).toBe(0)
    // Clicking the active status returns to All.
    await toggle(page, 'Guest status', 'Running').click()
    await expectPressed(toggle(page, 'Guest status', 'All'))
    await expect(toggle(page, 'Guest status', 'Running')).toHaveAttribute('aria-pressed', 'false')
    await expect.poll(async () => (await footerCounts(page)).shown).toBeNull()

    await toggle(page, 'Guest status', 'Stopped').click()
    await expect.poll(async () => (await footerCounts(page)).running).toBe(0)
    await toggle(page, 'Guest status', 'All').click()

    await expect(page.locator(GROUP_ROWS).first()).toBeVisible()
    await toggle(page, 'Layout', 'List').click()
    await expectPressed(toggle(page, 'Layout', 'List'))
    await expect(page.locator(GROUP_ROWS)).toHaveCount(0)
    await expect(page.locator(GUEST_ROWS).first()).toBeVisible()
    await toggle(page, 'Layout', 'Grouped').click()
    await expect(page.locator(GROUP_ROWS).first()).toBeVisible()
  })

  test('Reset restores the defaults', async ({ page }) => {
    await openDashboard(page)
    await searchBox(page).fill('web')
    await toggle(page, 'Guest type', 'VMs').click()
    await toggle(page, 'Guest status', 'Stopped').click()
    await toggle(page, 'Layout', 'List').click()
    await guestHeader(page, 'CPU').getByRole('button').click()
    await expect(guestHeader(page, 'CPU')).toHaveAttribute('aria-sort', 'descending')

    await page.getByRole('button', { name: 'Reset' }).click()
    await expect(searchBox(page)).toHaveValue('')
    await expectPressed(toggle(page, 'Guest type', 'All'))
    await expectPressed(toggle(page, 'Guest status', 'All'))
    await expectPressed(toggle(page, 'Layout', 'Grouped'))
    await expect(guestHeader(page, 'VMID')).toHaveAttribute('aria-sort', 'ascending')
    await expect(guestHeader(page, 'CPU')).toHaveAttribute('aria-sort', 'none')
    await expect(page.locator(GROUP_ROWS).first()).toBeVisible()
  })

  test('Escape resets active filters, otherwise hides and shows the filter bar', async ({
    page,
  }) => {
    await openDashboard(page)
    await toggle(page, 'Guest type', 'VMs').click()
    await toggle(page, 'Guest status', 'Running').click()
    await searchBox(page).fill('web')
    await focusBody(page)
    await page.keyboard.press('Escape')
    await expect(searchBox(page)).toHaveValue('')
    await expectPressed(toggle(page, 'Guest type', 'All'))
    await expectPressed(toggle(page, 'Guest status', 'All'))

    // No active filter: Escape hides the bar, the next Escape shows it again.
    await page.keyboard.press('Escape')
    await expect(searchBox(page)).toHaveCount(0)
    await expect(page.getByRole('group', { name: 'Guest type' })).toHaveCount(0)
    await expect(page.locator(GUEST_ROWS).first()).toBeVisible()
    await page.keyboard.press('Escape')
    await expect(searchBox(page)).toBeVisible()

    // A printable key while the bar is hidden shows it and types into it.
    await focusBody(page)
    await page.keyboard.press('Escape')
    await expect(searchBox(page)).toHaveCount(0)
    await page.keyboard.type('db')
    await expect(searchBox(page)).toBeVisible()
    await expect(searchBox(page)).toBeFocused()
    await expect(searchBox(page)).toHaveValue('db')
  })
})

test.describe('guest table', () => {
  test('default VMID ascending; header click and Enter sort', async ({ page }) => {
    await openDashboard(page)
    await toggle(page, 'Layout', 'List').click()
    await expect(page.locator(GROUP_ROWS)).toHaveCount(0)
    await expect(guestHeader(page, 'VMID')).toHaveAttribute('aria-sort', 'ascending')
    await expect
      .poll(async () => {
        const ids = (await columnTexts(page, 3)).map(Number)
        return ids.length > 5 && isSorted(ids, 'asc')
      })
      .toBe(true)

    // CPU: the first click sorts descending.
    await guestHeader(page, 'CPU').getByRole('button').click()
    await expect(guestHeader(page, 'CPU')).toHaveAttribute('aria-sort', 'descending')
    await expect(guestHeader(page, 'VMID')).toHaveAttribute('aria-sort', 'none')
    await expect
      .poll(async () => {
        const values = await cpuValues(page)
        return values.length > 5 && isSorted(values, 'desc')
      })
      .toBe(true)
    await guestHeader(page, 'CPU').getByRole('button').click()
    await expect(guestHeader(page, 'CPU')).toHaveAttribute('aria-sort', 'ascending')

    // Enter on a focused header sorts by it; text columns start ascending.
    await guestHeader(page, 'Name').getByRole('button').focus()
    await page.keyboard.press('Enter')
    await expect(guestHeader(page, 'Name')).toHaveAttribute('aria-sort', 'ascending')
    await expect
      .poll(async () => {
        const names = (await columnTexts(page, 1)).map((t) => t.trim())
        const sorted = [...names].sort((a, b) => a.localeCompare(b))
        return names.length > 5 && names.every((n, i) => n.localeCompare(sorted[i]!) === 0)
      })
      .toBe(true)
    await page.keyboard.press('Enter')
    await expect(guestHeader(page, 'Name')).toHaveAttribute('aria-sort', 'descending')

    // Every column of the spec is there.
    for (const label of [
      'Name',
      'Type',
      'VMID',
      'Uptime',
      'CPU',
      'Memory',
      'Disk',
      'Disk Read',
      'Disk Write',
      'Net In',
      'Net Out',
    ]) {
      await expect(guestHeader(page, label)).toBeVisible()
    }
  })

  test('clicking a tag dot adds tags:<tag> to the search', async ({ page }) => {
    await openDashboard(page)
    const dot = guestTable(page)
      .getByRole('button', { name: /^Filter by tag / })
      .first()
    await expect(dot).toBeVisible()
    const tag = (await dot.getAttribute('aria-label'))!.replace('Filter by tag ', '')
    const row = dot.locator('xpath=ancestor::*[@role="row"][1]')
    const expandedBefore = await row.getAttribute('aria-expanded')
    await dot.click()
    await expect(searchBox(page)).toHaveValue(`tags:${tag}`)
    // The tag click does not expand the row.
    expect(await page.locator('[data-kind="guest-detail"]').count()).toBe(0)
    expect(expandedBefore === null || expandedBefore === 'false').toBe(true)
    // Every remaining row carries the tag.
    await expect
      .poll(async () => {
        const tags = await page
          .locator(GUEST_ROWS)
          .evaluateAll((rows) =>
            rows.map((r) =>
              [
                ...r.querySelectorAll(
                  'button[aria-label^="Filter by tag "], button[aria-label*="more tags"]',
                ),
              ]
                .map((b) => b.getAttribute('aria-label') ?? '')
                .join(' '),
            ),
          )
        return tags.length > 0 && tags.every((t) => t.includes(tag))
      })
      .toBe(true)
  })

  test('footer counts running and stopped guests of the whole estate', async ({ page }) => {
    await openDashboard(page)
    await expect
      .poll(
        async () => {
          const state = await liveState()
          const counts = await footerCounts(page)
          return counts.running + counts.stopped === state.vms.length + state.containers.length
        },
        { timeout: 30_000 },
      )
      .toBe(true)
    const counts = await footerCounts(page)
    expect(counts.running).toBeGreaterThan(0)
    expect(counts.stopped).toBeGreaterThan(0)
  })

  test('the table keeps 900 px and scrolls sideways on a narrow screen', async ({ page }) => {
    await page.setViewportSize({ width: 600, height: 800 })
    await openDashboard(page)
    const table = guestTable(page)
    const size = await table.evaluate((el) => ({
      scrollWidth: el.scrollWidth,
      clientWidth: el.clientWidth,
    }))
    expect(size.scrollWidth).toBeGreaterThanOrEqual(900)
    expect(size.clientWidth).toBeLessThan(600)
    const scrolled = await table.evaluate((el) => {
      el.scrollLeft = 200
      return el.scrollLeft
    })
    expect(scrolled).toBeGreaterThan(0)
  })

  test('a search that matches nothing shows "No guests found" with the term', async ({ page }) => {
    await openDashboard(page)
    await searchBox(page).fill('zz-no-such-guest')
    await expect(page.getByText('No guests found', { exact: true })).toBeVisible()
    await expect(
      page.getByText('No guests match your search "zz-no-such-guest"', { exact: true }),
    ).toBeVisible()
    await expect(page.locator(GUEST_ROWS)).toHaveCount(0)
    // The filter bar stays, so the search can be cleared.
    await page.getByRole('button', { name: 'Clear search' }).click()
    await expect(page.locator(GUEST_ROWS).first()).toBeVisible()
  })
})

test.describe('preferences', () => {
  test('type, status, layout and sort survive a reload; a bad saved value falls back alone', async ({
    page,
  }) => {
    await openDashboard(page)
    await toggle(page, 'Guest type', 'LXCs').click()
    await toggle(page, 'Guest status', 'Stopped').click()
    await toggle(page, 'Layout', 'List').click()
    await guestHeader(page, 'Memory').getByRole('button').click()
    await expect(guestHeader(page, 'Memory')).toHaveAttribute('aria-sort', 'descending')
    await searchBox(page).fill('x')

    await page.reload()
    await expect(page.getByRole('group', { name: 'Guest type' })).toBeVisible()
    await expectPressed(toggle(page, 'Guest type', 'LXCs'))
    await expectPressed(toggle(page, 'Guest status', 'Stopped'))
    await expectPressed(toggle(page, 'Layout', 'List'))
    await expect(guestHeader(page, 'Memory')).toHaveAttribute('aria-sort', 'descending')
    // The search text is not a preference.
    await expect(searchBox(page)).toHaveValue('')

    // A saved value outside its allowed values takes its default; the others stay.
    await page.evaluate(() => {
      const saved = JSON.parse(localStorage.getItem('pulse.prefs') ?? '{}') as Record<
        string,
        unknown
      >
      saved.dashboardViewMode = 'banana'
      localStorage.setItem('pulse.prefs', JSON.stringify(saved))
    })
    await page.reload()
    await expect(page.getByRole('group', { name: 'Guest type' })).toBeVisible()
    await expectPressed(toggle(page, 'Guest type', 'All'))
    await expectPressed(toggle(page, 'Guest status', 'Stopped'))
    await expectPressed(toggle(page, 'Layout', 'List'))
    await expect(guestHeader(page, 'Memory')).toHaveAttribute('aria-sort', 'descending')
  })

  test('a hidden filter bar stays hidden after a reload', async ({ page }) => {
    await openDashboard(page)
    await focusBody(page)
    await page.keyboard.press('Escape')
    await expect(searchBox(page)).toHaveCount(0)
    await page.reload()
    await expect(page.locator(GUEST_ROWS).first()).toBeVisible()
    await expect(searchBox(page)).toHaveCount(0)
    await page.keyboard.press('Escape')
    await expect(searchBox(page)).toBeVisible()
  })
})
