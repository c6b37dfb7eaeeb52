// The guest table against view models from a fake worker API (the real worker's views are tested
// in tests/browser/worker and end to end in tests/e2e).
import { act } from 'react'
import { afterEach, beforeEach, expect, test } from 'vitest'
import { page, userEvent } from 'vitest/browser'
import { FakeWorker, groupRow, guestRow, viewModel } from './fake-worker.ts'
import { cleanup, renderApp } from './render.tsx'

/** Runs `push` inside React's act() and resolves once every update it caused is rendered. */
async function rendered(push: () => void): Promise<void> {
  const scope = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }
  scope.IS_REACT_ACT_ENVIRONMENT = true
  try {
    await act(async () => push())
  } finally {
    scope.IS_REACT_ACT_ENVIRONMENT = false
  }
}

beforeEach(async () => {
  await page.viewport(1280, 800)
})
afterEach(cleanup)

function estate() {
  return viewModel([
    groupRow('pve1', 2),
    guestRow(100, 'web-01', { cpuPercent: 12, cpuText: '12%' }),
    guestRow(101, 'db-01', { status: 'stopped', active: false, typeLabel: 'LXC' }),
    groupRow('pve2', 1),
    guestRow(200, 'cache-01', {
      uptimeShort: true,
      uptimeText: '12m',
      cpuPercent: 95,
      cpuText: '95%',
    }),
  ])
}

test('renders node group rows and guest rows from the view model', async () => {
  const api = new FakeWorker()
  api.push(estate())
  const { host } = renderApp(api)
  const table = page.getByRole('table', { name: 'Guests' })
  await expect.element(table).toBeVisible()
  await expect.element(table.getByRole('row', { name: /pve1/ })).toBeVisible()
  await expect.element(table.getByRole('row', { name: /pve2/ })).toBeVisible()
  await expect.element(table.getByText('web-01')).toBeVisible()
  await expect.element(table.getByText('cache-01')).toBeVisible()
  // Header row plus five body rows.
  expect(host.querySelectorAll('[role="table"] [role="row"]')).toHaveLength(6)
  expect(host.querySelectorAll('[role="columnheader"]')).toHaveLength(11)
  await expect.element(page.getByText('2 running')).toBeVisible()
  await expect.element(page.getByText('1 stopped')).toBeVisible()
})

test('an inactive guest is dimmed and shows dashes instead of live values', async () => {
  const api = new FakeWorker()
  api.push(estate())
  const { host } = renderApp(api)
  await expect.element(page.getByText('db-01')).toBeVisible()
  const row = host.querySelector('[role="row"][data-active="false"]')!
  expect(row.className).toContain('opacity-50')
  expect(row.querySelectorAll('[role="meter"]')).toHaveLength(0)
  expect(
    [...row.querySelectorAll('[role="cell"]')].filter((c) => c.textContent === '-').length,
  ).toBe(8)
})

test('short uptime is orange and a high CPU bar is red', async () => {
  const api = new FakeWorker()
  api.push(estate())
  const { host } = renderApp(api)
  await expect.element(page.getByText('12m')).toBeVisible()
  expect(page.getByText('12m').element().className).toContain('text-orange')
  const meter = host.querySelector('[role="meter"][aria-valuetext="95%"]')!
  expect(meter.firstElementChild!.className).toContain('bg-red')
})

test('asks the worker for a window of rows starting at the top', async () => {
  const api = new FakeWorker()
  api.push(viewModel([guestRow(100, 'web-01')], { rowCount: 5000 }))
  renderApp(api)
  await expect.element(page.getByText('web-01')).toBeVisible()
  const request = api.lastRequest!
  expect(request.window.start).toBe(0)
  expect(request.window.count).toBeGreaterThan(0)
  expect(request.window.count).toBeLessThan(200)
  expect(request.sort).toEqual({ key: 'vmid', direction: 'asc' })
})

test('scrolling moves the requested window further down', async () => {
  const api = new FakeWorker()
  api.push(viewModel([guestRow(100, 'web-01')], { rowCount: 5000 }))
  const { host } = renderApp(api)
  await expect.element(page.getByText('web-01')).toBeVisible()
  host.querySelector('[role="table"]')!.scrollTop = 36 * 2000
  await expect.poll(() => api.lastRequest!.window.start).toBeGreaterThan(1900)
  const { start, count } = api.lastRequest!.window
  expect(start).toBeLessThanOrEqual(2000)
  expect(start + count).toBeGreaterThan(2010)
})

test('on a phone the page scrolls the guests: no box of their own, the window follows', async () => {
  await page.viewport(390, 844)
  const api = new FakeWorker()
  api.push(viewModel([guestRow(100, 'web-01')], { rowCount: 5000 }))
  const { host } = renderApp(api, '/', { width: 390, height: 844 })
  await expect.element(page.getByText('web-01')).toBeVisible()
  const table = host.querySelector<HTMLElement>('[role="table"]')!
  expect(table.scrollHeight).toBeLessThanOrEqual(table.clientHeight + 1)
  const main = host.querySelector('main')!
  main.scrollTop = 36 * 2000
  await expect.poll(() => api.lastRequest!.window.start).toBeGreaterThan(1900)
  const { start, count } = api.lastRequest!.window
  expect(start).toBeLessThanOrEqual(2000)
  expect(start + count).toBeGreaterThan(2010)
})

test('pressing Enter on a header sorts by it, numeric columns first descending', async () => {
  const api = new FakeWorker()
  api.push(estate())
  renderApp(api)
  const cpu = page.getByRole('button', { name: 'CPU' })
  await expect.element(cpu).toBeVisible()
  cpu.element().focus()
  await userEvent.keyboard('{Enter}')
  await expect.poll(() => api.lastRequest?.sort).toEqual({ key: 'cpu', direction: 'desc' })
  await expect
    .element(page.getByRole('columnheader', { name: 'CPU' }))
    .toHaveAttribute('aria-sort', 'descending')
  await userEvent.keyboard('{Enter}')
  await expect.poll(() => api.lastRequest?.sort).toEqual({ key: 'cpu', direction: 'asc' })
  page.getByRole('button', { name: 'Name' }).element().focus()
  await userEvent.keyboard('{Enter}')
  await expect.poll(() => api.lastRequest?.sort).toEqual({ key: 'name', direction: 'asc' })
})

test('a click anywhere in a header cell sorts, not only on its label', async () => {
  const api = new FakeWorker()
  api.push(estate())
  renderApp(api)
  const cell = page.getByRole('columnheader', { name: 'Net In' })
  await expect.element(cell).toBeVisible()
  const box = cell.element().getBoundingClientRect()
  // Net In is right-aligned: its left edge is far from the label.
  await userEvent.click(cell.element(), { position: { x: 2, y: box.height / 2 } })
  await expect.poll(() => api.lastRequest?.sort?.key).toBe('networkIn')
  await expect.element(cell).toHaveAttribute('aria-sort', 'descending')
  // The cell spans the header row's full height, so its whole area is the target.
  expect(box.height).toBe(cell.element().parentElement!.clientHeight)
})

test('on a 390 px phone the name and the three bars come first and fit the screen', async () => {
  await page.viewport(390, 800)
  const api = new FakeWorker()
  api.push(estate())
  renderApp(api, '/', { width: 390, height: 800 })
  await expect.element(page.getByText('web-01')).toBeVisible()
  const left = (name: string) =>
    page.getByRole('columnheader', { name, exact: true }).element().getBoundingClientRect()
  const order = ['Name', 'CPU', 'Memory', 'Disk', 'Type', 'VMID', 'Uptime']
  const lefts = order.map((name) => left(name).left)
  expect([...lefts].sort((a, b) => a - b)).toEqual(lefts)
  // Name, CPU, Memory and Disk are on screen without scrolling sideways.
  expect(left('Disk').right).toBeLessThanOrEqual(390)
  await expect.element(page.getByRole('columnheader', { name: 'Memory' })).toHaveTextContent('Mem')
  const name = page.getByText('web-01').element() as HTMLElement
  expect(name.scrollWidth).toBeLessThanOrEqual(name.clientWidth)
})

test('the List toggle asks for the flat layout', async () => {
  const api = new FakeWorker()
  api.push(estate())
  renderApp(api)
  await page.getByRole('button', { name: 'List' }).click()
  await expect.poll(() => api.lastRequest?.grouping).toBe('flat')
})

test('CPU values update as new models arrive and older versions are dropped', async () => {
  const api = new FakeWorker()
  api.push(viewModel([guestRow(100, 'web-01', { cpuText: '12%' })], { version: 5 }))
  renderApp(api)
  await expect.element(page.getByText('12%')).toBeVisible()
  api.push(viewModel([guestRow(100, 'web-01', { cpuText: '47%', cpuPercent: 47 })], { version: 6 }))
  await expect.element(page.getByText('47%')).toBeVisible()
  // act() returns once React has rendered everything the push caused, so the DOM is the answer.
  await rendered(() =>
    api.push(
      viewModel([guestRow(100, 'web-01', { cpuText: '3%', cpuPercent: 3 })], { version: 4 }),
    ),
  )
  await expect.element(page.getByText('47%')).toBeVisible()
  expect(page.getByText('3%', { exact: true }).query()).toBeNull()
})

test('leaving the dashboard closes the guest subscription', async () => {
  const api = new FakeWorker()
  api.push(estate())
  renderApp(api)
  await expect.element(page.getByText('web-01')).toBeVisible()
  expect(api.openViews).toBe(1)
  await page.getByRole('link', { name: 'Storage' }).click()
  await expect.element(page.getByText('Loading storage data...')).toBeVisible()
  expect(api.openViews).toBe(0)
})
