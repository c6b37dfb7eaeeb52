// The dashboard's node summary table against models from a fake worker API (the real view is
// tested in tests/unit/shared/views/node-summary.test.ts and its subscription in tests/unit/worker).
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { page, userEvent } from 'vitest/browser'
import type {
  NodeSummaryModel,
  NodeSummaryRow,
} from '../../../src/shared/views/node-summary-types.ts'
import { uiState } from '../../../src/ui/state.ts'
import { clearNodeSelection, nodeSelection } from '../../../src/ui/summary/selection.ts'
import { FakeWorker, guestRow, viewModel } from './fake-worker.ts'
import { cleanup, renderApp } from './render.tsx'
import { fixtureAnswer } from './history-fixtures.ts'

beforeEach(async () => {
  await page.viewport(1280, 800)
})
afterEach(() => {
  cleanup()
  clearNodeSelection()
})

function summaryRow(name: string, change: Partial<NodeSummaryRow> = {}): NodeSummaryRow {
  return {
    id: `lab-${name}`,
    kind: 'pve',
    name,
    href: `https://${name}:8006`,
    online: true,
    uptimeText: '5d 2h',
    uptimeShort: false,
    cpuPercent: 12,
    cpuText: '12%',
    memoryPercent: 40,
    memoryText: '40%',
    memoryDetail: '8 GB / 16 GB',
    diskPercent: 20,
    diskText: '20%',
    diskDetail: '20 GB / 100 GB',
    temperature: null,
    temperatureText: '-',
    temperatureColour: null,
    badges: { type: 'PVE', version: '8.2.4', cluster: 'lab', displayName: null },
    counts: { vms: 2, containers: 1 },
    ...change,
  }
}

function summaryModel(
  rows: NodeSummaryRow[],
  change: Partial<NodeSummaryModel> = {},
): NodeSummaryModel {
  return {
    kind: 'nodeSummary',
    version: 1,
    tab: 'dashboard',
    nameLabel: 'Node',
    diskLabel: 'Disk',
    showTemperature: false,
    countColumns: [
      { key: 'vms', label: 'VMs' },
      { key: 'containers', label: 'Containers' },
    ],
    rows,
    ...change,
  }
}

/** A dashboard with two nodes (one hot, one offline) and a guest, so the page shows content. */
function setup() {
  const api = new FakeWorker()
  api.push(viewModel([guestRow(100, 'web-01')]))
  api.nodeSummary = summaryModel(
    [
      summaryRow('pve1', {
        temperature: 83,
        temperatureText: '83°C',
        temperatureColour: 'red',
        badges: { type: 'PVE', version: '8.2.4', cluster: 'lab', displayName: 'Rack 3' },
      }),
      summaryRow('pve2', {
        online: false,
        uptimeText: '-',
        cpuPercent: -1,
        cpuText: '-',
        memoryPercent: -1,
        memoryText: '-',
        diskPercent: -1,
        diskText: '-',
        badges: { type: 'PVE', version: '8.1.0', cluster: 'Standalone', displayName: null },
        counts: { vms: 0, containers: 4 },
      }),
    ],
    { showTemperature: true },
  )
  const { host } = renderApp(api)
  const table = page.getByRole('table', { name: 'Nodes', exact: true })
  const row = (name: string) =>
    host.querySelector<HTMLTableRowElement>(`tr[data-node-id="lab-${name}"]`)!
  return { api, host, table, row }
}

test('renders a row per node with badges, bars, temperature and counts', async () => {
  const { table, row } = setup()
  await expect.element(table).toBeVisible()
  await expect.element(table.getByText('pve1', { exact: true })).toBeVisible()
  const headers = table
    .getByRole('columnheader')
    .elements()
    .map((th) => th.textContent)
  expect(headers).toEqual(['Node', 'Uptime', 'CPU', 'Memory', 'Disk', 'Temp', 'VMs', 'Containers'])
  const first = row('pve1')
  expect(first.textContent).toContain('PVE')
  expect(first.textContent).toContain('v8.2.4')
  expect(first.textContent).toContain('lab')
  expect(first.textContent).toContain('Rack 3')
  expect(first.querySelectorAll('[role="meter"]')).toHaveLength(3)
  expect(page.getByText('83°C').element().className).toContain('text-red')
  expect(row('pve2').textContent).toContain('Standalone')
  // Offline: dimmed, no bars, counts still shown.
  expect(row('pve2').className).toContain('opacity-60')
  expect(row('pve2').querySelectorAll('[role="meter"]')).toHaveLength(0)
  expect([...row('pve2').cells].map((cell) => cell.textContent).slice(-2)).toEqual(['0', '4'])
})

test('a header click or Enter asks the worker for the new sort, cycling back to default', async () => {
  const { api, table } = setup()
  await expect.element(table).toBeVisible()
  expect(api.summaryRequests[0]).toEqual({ kind: 'nodeSummary', tab: 'dashboard', sort: null })
  await table.getByRole('button', { name: 'CPU' }).click()
  await expect
    .poll(() => api.summaryRequests.at(-1)?.sort)
    .toEqual({ key: 'cpu', direction: 'desc' })
  await expect
    .element(table.getByRole('columnheader', { name: 'CPU' }))
    .toHaveAttribute('aria-sort', 'descending')
  table.getByRole('button', { name: 'Node' }).element().focus()
  await userEvent.keyboard('{Enter}')
  await expect
    .poll(() => api.summaryRequests.at(-1)?.sort)
    .toEqual({ key: 'name', direction: 'asc' })
  await userEvent.keyboard('{Enter}')
  await expect
    .poll(() => api.summaryRequests.at(-1)?.sort)
    .toEqual({ key: 'name', direction: 'desc' })
  await userEvent.keyboard('{Enter}')
  await expect.poll(() => api.summaryRequests.at(-1)?.sort).toBeNull()
  await expect
    .element(table.getByRole('columnheader', { name: 'Node' }))
    .toHaveAttribute('aria-sort', 'none')
})

test('clicking a row selects its node, dims the others and filters the guests; again deselects', async () => {
  const { api, table, row } = setup()
  await expect.element(table).toBeVisible()
  await userEvent.click(row('pve1').cells[2]!)
  await expect.poll(() => api.lastRequest?.selectedNode).toBe('lab-pve1')
  expect(row('pve1').getAttribute('aria-selected')).toBe('true')
  expect(row('pve1').className).not.toMatch(/\bopacity-\d/)
  expect(row('pve2').className).toContain('opacity-40')
  await userEvent.click(row('pve1').cells[2]!)
  await expect.poll(() => api.lastRequest?.selectedNode).toBeNull()
  expect(row('pve1').getAttribute('aria-selected')).toBe('false')
  expect(row('pve2').className).not.toContain('opacity-40')
})

test('rows are keyboard operable: Enter selects, Space deselects', async () => {
  const { api, table, row } = setup()
  await expect.element(table).toBeVisible()
  row('pve2').focus()
  await userEvent.keyboard('{Enter}')
  await expect.poll(() => api.lastRequest?.selectedNode).toBe('lab-pve2')
  await userEvent.keyboard(' ')
  await expect.poll(() => api.lastRequest?.selectedNode).toBeNull()
})

test('clicking the name selects the node; the web UI opens from its own labelled icon', async () => {
  const { api, table, row } = setup()
  await expect.element(table).toBeVisible()
  await table.getByText('pve1', { exact: true }).click()
  await expect.poll(() => api.lastRequest?.selectedNode).toBe('lab-pve1')
  expect(row('pve1').getAttribute('aria-selected')).toBe('true')
  await table.getByText('pve1', { exact: true }).click()
  await expect.poll(() => api.lastRequest?.selectedNode).toBeNull()

  const link = table.getByRole('link', { name: 'Open pve1 in the Proxmox web interface' })
  await expect.element(link).toHaveAttribute('href', 'https://pve1:8006')
  await expect.element(link).toHaveAttribute('target', '_blank')
  await expect.element(link).toHaveAttribute('rel', 'noopener noreferrer')
  expect(link.element().querySelector('svg')).not.toBeNull()
  expect(link.element().textContent).toBe('')
  // Keep the browser on this page: the click still reaches the row's handler.
  link.element().addEventListener('click', (event) => event.preventDefault())
  await link.click()
  expect(nodeSelection.nodeId).toBeNull()
  expect(row('pve1').getAttribute('aria-selected')).toBe('false')
})

test('a click anywhere in a header cell sorts, not only on its label', async () => {
  const { api, table } = setup()
  await expect.element(table).toBeVisible()
  const cell = table.getByRole('columnheader', { name: 'CPU' })
  const box = cell.element().getBoundingClientRect()
  // The cell's far right corner: outside the label.
  await userEvent.click(cell.element(), { position: { x: box.width - 3, y: box.height - 3 } })
  await expect
    .poll(() => api.summaryRequests.at(-1)?.sort)
    .toEqual({ key: 'cpu', direction: 'desc' })
  await expect.element(cell).toHaveAttribute('aria-sort', 'descending')
})

test('changing tab clears the selection', async () => {
  const { table, row } = setup()
  await expect.element(table).toBeVisible()
  await userEvent.click(row('pve1').cells[1]!)
  await expect.poll(() => nodeSelection.nodeId).toBe('lab-pve1')
  await page.getByRole('link', { name: 'Storage' }).click()
  await expect.poll(() => nodeSelection.nodeId).toBeNull()
})

test('the hidden node table toggles a node:<name> search term', async () => {
  const { host, table } = setup()
  await expect.element(table).toBeVisible()
  const hidden = host.querySelector<HTMLTableElement>('table[data-testid="hidden-node-table"]')!
  expect(hidden.hidden).toBe(true)
  const headers = [...hidden.querySelectorAll('th')].map((th) => th.textContent)
  expect(headers).toEqual([
    'Node',
    'Status',
    'CPU',
    'Memory',
    'Disk',
    'VMs',
    'Containers',
    'Uptime',
  ])
  const button = (name: string) =>
    [...hidden.querySelectorAll('button')].find((b) => b.textContent === name)!
  uiState.dashboard.search = 'web'
  button('pve1').click()
  expect(uiState.dashboard.search).toBe('web node:pve1')
  button('pve2').click()
  expect(uiState.dashboard.search).toBe('web node:pve1 node:pve2')
  button('pve1').click()
  expect(uiState.dashboard.search).toBe('web node:pve2')
})

describe('size', () => {
  /** A dashboard whose summary has `count` online nodes. */
  function withNodes(count: number, size?: { width: number; height: number }) {
    const api = new FakeWorker()
    api.push(viewModel([guestRow(100, 'web-01')]))
    api.nodeSummary = summaryModel(
      Array.from({ length: count }, (_, i) => summaryRow(`pve${i + 1}`)),
    )
    renderApp(api, '/', size)
    const table = page.getByRole('table', { name: 'Nodes', exact: true })
    return { table, box: () => table.element().parentElement! }
  }

  test('the box is as tall as its rows: ten nodes show whole, nothing to scroll', async () => {
    await page.viewport(1600, 1000)
    const { table, box } = withNodes(10, { width: 1600, height: 1000 })
    await expect.element(table).toBeVisible()
    await expect.poll(() => table.element().querySelectorAll('tbody tr').length).toBe(10)
    expect(box().scrollHeight).toBeLessThanOrEqual(box().clientHeight)
  })

  test('many nodes scroll in a box capped at whole rows, never half a row', async () => {
    const { table, box } = withNodes(40)
    await expect.element(table).toBeVisible()
    expect(box().scrollHeight).toBeGreaterThan(box().clientHeight)
    const header = table.element().querySelector('thead')!.getBoundingClientRect().height
    const row = table.element().querySelector('tbody tr')!.getBoundingClientRect().height
    const rows = (box().clientHeight - header) / row
    expect(Math.abs(rows - Math.round(rows))).toBeLessThan(0.1)
    // At most 40 % of the 800 px window.
    expect(box().getBoundingClientRect().height).toBeLessThanOrEqual(320)
  })

  test('on a 390 px phone storage node names show whole: alpha-pve1 and alpha-pve2 differ', async () => {
    await page.viewport(390, 844)
    const api = new FakeWorker()
    api.push(viewModel([guestRow(100, 'web-01')]))
    api.nodeSummary = summaryModel(
      ['charlie-pve1', 'charlie-pve2'].map((name) =>
        summaryRow(name, { counts: { storage: 5, disks: 6 } }),
      ),
      {
        // The storage tab's count columns (its widest), shown here on the dashboard.
        countColumns: [
          { key: 'storage', label: 'Storage' },
          { key: 'disks', label: 'Disks' },
        ],
      },
    )
    renderApp(api, '/', { width: 390, height: 844 })
    const table = page.getByRole('table', { name: 'Nodes', exact: true })
    for (const name of ['charlie-pve1', 'charlie-pve2']) {
      const text = table.getByText(name, { exact: true })
      await expect.element(text).toBeVisible()
      const element = text.element() as HTMLElement
      expect(element.scrollWidth).toBeLessThanOrEqual(element.clientWidth)
      expect(element.scrollHeight).toBeLessThanOrEqual(element.clientHeight)
    }
    expect(table.element().scrollWidth).toBeLessThanOrEqual(390)
  })

  test('on a 390 px phone the summary fits the width, with short labels', async () => {
    await page.viewport(390, 844)
    const { table, box } = withNodes(3, { width: 390, height: 844 })
    await expect.element(table).toBeVisible()
    expect(table.element().scrollWidth).toBeLessThanOrEqual(box().clientWidth)
    await expect
      .element(table.getByRole('button', { name: 'Containers' }))
      .toHaveTextContent('LXCs')
  })
})

test('a node row’s History button opens its charts below the summary without selecting it', async () => {
  const { api, row } = setup()
  api.historyAnswer = fixtureAnswer('node')
  const button = page.getByRole('button', { name: 'History of pve1', exact: true })
  await expect.element(button).toHaveAttribute('aria-expanded', 'false')
  await button.click()
  await expect.element(button).toHaveAttribute('aria-expanded', 'true')
  const region = page.getByRole('region', { name: 'History of pve1' })
  await expect.element(region.getByTestId('history-plot-cpu')).toBeVisible()
  await expect.element(region.getByTestId('history-plot-load')).toBeVisible()
  expect(api.chartRequests.at(-1)).toMatchObject({ resourceId: 'lab-pve1', range: '1h' })
  expect(row('pve1').getAttribute('aria-selected')).toBe('false')
  await page.getByRole('button', { name: 'Close history of pve1' }).click()
  await expect.element(region).not.toBeInTheDocument()
  await expect.element(button).toHaveAttribute('aria-expanded', 'false')
})
