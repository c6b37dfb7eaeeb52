// Guest rows (spec 000 §2.2, §4): tag dots, alert styling, custom URL links and the expandable
// detail panel, against view models from a fake worker API (the worker's formatting of these rows
// is tested in tests/unit/shared/views/guest-detail.test.ts).
import { afterEach, beforeEach, expect, test, vi } from 'vitest'
import { page, userEvent } from 'vitest/browser'
import type { GuestDetail } from '../../../src/shared/views/guest-detail.ts'
import type { GuestRow } from '../../../src/shared/views/guest-view-types.ts'
import { uiState } from '../../../src/ui/state.ts'
import { FakeWorker, guestRow, viewModel } from './fake-worker.ts'
import { cleanup, renderApp, stubServer } from './render.tsx'
import { fixtureAnswer } from './history-fixtures.ts'
import { EMPTY_RESOURCE } from '../../../src/shared/views/resource-view.ts'
import { overviewRow } from './alert-fixtures.ts'

beforeEach(async () => {
  await page.viewport(1280, 800)
  sessionStorage.clear()
})
afterEach(cleanup)

const DETAIL: GuestDetail = {
  os: 'Ubuntu 24.04',
  ipAddresses: ['192.0.2.10'],
  memory: [
    { label: 'Used', text: '2 GB / 4 GB' },
    { label: 'Swap', text: '512 MB / 1 GB' },
  ],
  filesystems: [
    { mountpoint: '/', usedText: '8 GB / 10 GB', percent: 80, percentText: '80%', type: 'ext4' },
    {
      mountpoint: '/srv',
      usedText: '95 GB / 100 GB',
      percent: 95,
      percentText: '95%',
      type: 'xfs',
    },
  ],
  interfaces: [
    {
      name: 'eth0',
      mac: 'bc:24:11:00:00:01',
      addresses: ['192.0.2.10/24'],
      rxText: '5 GB',
      txText: '1.5 KB',
    },
  ],
  diskReason: '',
}

function show(rows: GuestRow[]) {
  const api = new FakeWorker()
  api.push(viewModel(rows))
  const { host, location } = renderApp(api)
  return { api, host, location }
}

const rowOf = (host: HTMLElement, name: string) =>
  [...host.querySelectorAll<HTMLElement>('[role="row"][data-kind="guest"]')].find((row) =>
    row.textContent?.includes(name),
  )!

test('shows at most three tag dots, then +N with a tooltip listing the rest', async () => {
  const tags = ['production', 'staging', 'db', 'web', '<b>cache</b>']
  show([guestRow(100, 'web-01', { tags })])
  await expect.element(page.getByRole('button', { name: 'Filter by tag production' })).toBeVisible()
  await expect.element(page.getByRole('button', { name: 'Filter by tag db' })).toBeVisible()
  expect(page.getByRole('button', { name: 'Filter by tag web' }).query()).toBeNull()
  const dot = page.getByRole('button', { name: 'Filter by tag production' }).element()
  expect(getComputedStyle(dot).backgroundColor).toBe('rgb(239, 68, 68)')

  const more = page.getByRole('button', { name: /^2 more tags/ })
  await expect.element(more).toHaveTextContent('+2')
  await more.hover()
  const tooltip = page.getByRole('tooltip')
  await expect.element(tooltip).toHaveTextContent('web, cache')
  expect(tooltip.element().innerHTML).not.toContain('<b>')
  expect(getComputedStyle(tooltip.element()).maxWidth).toBe('240px')
  await expect.element(more).toHaveAttribute('aria-describedby', tooltip.element().id)
})

test('a tag click adds tags:<tag> to the search once and does not expand the row', async () => {
  const { api, host } = show([guestRow(100, 'web-01', { tags: ['db'], detail: DETAIL })])
  const dot = page.getByRole('button', { name: 'Filter by tag db' })
  await dot.click()
  await expect.poll(() => api.lastRequest?.search).toBe('tags:db')
  expect(rowOf(host, 'web-01').getAttribute('aria-expanded')).toBe('false')
  expect(page.getByRole('region').query()).toBeNull()

  const requests = api.requests.length
  await dot.click()
  expect(uiState.dashboard.search).toBe('tags:db')

  uiState.dashboard.search = 'web'
  await expect.poll(() => api.lastRequest?.search).toBe('web')
  await dot.click()
  await expect.poll(() => api.lastRequest?.search).toBe('web tags:db')
  expect(api.requests.length).toBeGreaterThan(requests)
})

test('the name links to an http(s) custom URL from the metadata, by id or node-vmid', async () => {
  const fetchMock = stubServer({
    metadata: () => ({
      'lab-pve1-100': { id: 'lab-pve1-100', customUrl: 'https://app.example.com/login' },
      'pve1-101': { id: 'pve1-101', customUrl: 'http://192.0.2.11:8080' },
      'lab-pve1-102': { id: 'lab-pve1-102', customUrl: 'javascript:alert(1)' },
    }),
  })
  show([guestRow(100, 'web-01'), guestRow(101, 'db-01'), guestRow(102, 'evil-01')])
  const link = page.getByRole('link', { name: 'web-01' })
  await expect.element(link).toHaveAttribute('href', 'https://app.example.com/login')
  await expect.element(link).toHaveAttribute('target', '_blank')
  await expect.element(link).toHaveAttribute('rel', 'noopener noreferrer')
  await expect
    .element(page.getByRole('link', { name: 'db-01' }))
    .toHaveAttribute('href', 'http://192.0.2.11:8080')
  await expect.element(page.getByText('evil-01')).toBeVisible()
  expect(page.getByRole('link', { name: 'evil-01' }).query()).toBeNull()

  const call = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/api/guests/metadata'))!
  const init = call[1]!
  expect(init.credentials).toBe('include')
  expect(init.headers).toMatchObject({
    'X-Requested-With': 'XMLHttpRequest',
    Accept: 'application/json',
  })
})

test('a failed metadata call is logged and the names stay plain text', async () => {
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
  stubServer({ metadata: null })
  show([guestRow(100, 'web-01')])
  await expect.element(page.getByText('web-01')).toBeVisible()
  await expect.poll(() => warn.mock.calls.length).toBeGreaterThan(0)
  expect(page.getByRole('link', { name: 'web-01' }).query()).toBeNull()
  warn.mockRestore()
})

test('metadata is fetched again when the window regains focus', async () => {
  let url = 'https://old.example.com'
  stubServer({ metadata: () => ({ 'lab-pve1-100': { customUrl: url } }) })
  show([guestRow(100, 'web-01')])
  const link = page.getByRole('link', { name: 'web-01' })
  await expect.element(link).toHaveAttribute('href', 'https://old.example.com')
  url = 'https://new.example.com'
  window.dispatchEvent(new Event('focus'))
  await expect.element(link).toHaveAttribute('href', 'https://new.example.com')
})

test('alert styling: red and yellow rows, and the Ack marker when all are acknowledged', async () => {
  const { host } = show([
    guestRow(100, 'crit-01', { alert: 'critical' }),
    guestRow(101, 'warn-01', { alert: 'warning' }),
    guestRow(102, 'ack-01', { alert: 'acknowledged' }),
    guestRow(103, 'calm-01'),
  ])
  await expect.element(page.getByText('calm-01')).toBeVisible()
  const crit = rowOf(host, 'crit-01')
  expect(crit.dataset.alert).toBe('critical')
  expect(crit.className).toContain('bg-red-50')
  const warn = rowOf(host, 'warn-01')
  expect(warn.dataset.alert).toBe('warning')
  expect(warn.className).toContain('bg-amber-50')
  const ack = rowOf(host, 'ack-01')
  expect(ack.dataset.alert).toBe('acknowledged')
  expect(ack.className).not.toContain('bg-red-50')
  const marker = page.getByTitle('All alerts acknowledged')
  await expect.element(marker).toHaveTextContent('Ack')
  expect(ack.contains(marker.element())).toBe(true)
  expect(rowOf(host, 'calm-01').hasAttribute('data-alert')).toBe(false)
  expect(host.querySelectorAll('[title="All alerts acknowledged"]')).toHaveLength(1)
})

test('clicking a row expands its detail panel and a second click collapses it', async () => {
  const { host } = show([guestRow(100, 'web-01', { detail: DETAIL }), guestRow(101, 'db-01')])
  await expect.element(page.getByText('web-01')).toBeVisible()
  const row = rowOf(host, 'web-01')
  const nextTop = () => rowOf(host, 'db-01').parentElement!.style.transform
  expect(nextTop()).toBe('translateY(36px)')
  expect(row.getAttribute('aria-expanded')).toBe('false')

  await userEvent.click(row.querySelector('[role="cell"]:nth-child(3)')!)
  const panel = page.getByRole('region', { name: 'Details of web-01' })
  await expect.element(panel).toBeVisible()
  expect(row.getAttribute('aria-expanded')).toBe('true')
  for (const text of ['Guest Overview', 'Ubuntu 24.04', 'Memory', 'Swap', 'Filesystems', '/srv']) {
    await expect.element(panel.getByText(text, { exact: true })).toBeVisible()
  }
  await expect.element(panel.getByText('RX 5 GB · TX 1.5 KB')).toBeVisible()
  expect(panel.element().className).not.toContain('opacity-50')
  // The virtualiser measured the expanded row: the next row moved below the panel.
  const panelBottom = Math.round(row.parentElement!.getBoundingClientRect().height)
  expect(panelBottom).toBeGreaterThan(36)
  await expect.poll(nextTop).toBe(`translateY(${panelBottom}px)`)

  await userEvent.click(row)
  await expect.element(panel).not.toBeInTheDocument()
  expect(row.getAttribute('aria-expanded')).toBe('false')
  await expect.poll(nextTop).toBe('translateY(36px)')
})

test('the detail panel lists the guest’s active alerts and acknowledges one (issue 28)', async () => {
  const fetchMock = stubServer({
    route: (url, init) =>
      init?.method === 'POST' && url.includes('/api/alerts/')
        ? Response.json({ success: true })
        : undefined,
  })
  const api = new FakeWorker()
  api.resources.set('guest:lab-pve1-100', {
    ...EMPTY_RESOURCE,
    version: 1,
    status: 'found',
    alerts: [{ ...overviewRow('a1'), resourceName: 'web-01', message: 'CPU at 97%' }],
  })
  api.push(viewModel([guestRow(100, 'web-01', { detail: DETAIL }), guestRow(101, 'db-01')]))
  const { host } = renderApp(api)
  await expect.element(page.getByText('web-01')).toBeVisible()
  await userEvent.click(rowOf(host, 'web-01').querySelector('[role="cell"]:nth-child(3)')!)
  const alerts = page
    .getByRole('region', { name: 'Details of web-01' })
    .getByRole('region', { name: 'Active alerts' })
  await expect.element(alerts).toHaveTextContent(/CPU at 97%/)
  await alerts.getByRole('button', { name: 'Acknowledge web-01: CPU at 97%' }).click()
  await expect.poll(() => api.acks).toContainEqual({ alertId: 'a1', acknowledged: true })
  await expect
    .poll(() => fetchMock.mock.calls.map(([url]) => String(url)))
    .toContainEqual(expect.stringContaining('/api/alerts/a1/acknowledge'))
})

test('Enter and Space on a focused row toggle it; rows without detail do not expand', async () => {
  const { host } = show([guestRow(100, 'web-01', { detail: DETAIL }), guestRow(101, 'db-01')])
  await expect.element(page.getByText('web-01')).toBeVisible()
  const row = rowOf(host, 'web-01')
  row.focus()
  await userEvent.keyboard('{Enter}')
  await expect.element(page.getByRole('region', { name: 'Details of web-01' })).toBeVisible()
  expect(document.activeElement).toBe(row)
  await userEvent.keyboard(' ')
  await expect.element(page.getByRole('region')).not.toBeInTheDocument()

  const plain = rowOf(host, 'db-01')
  expect(plain.hasAttribute('aria-expanded')).toBe(false)
  expect(plain.tabIndex).toBe(-1)
  await userEvent.click(plain)
  expect(page.getByRole('region').query()).toBeNull()
})

test('the expanded state survives leaving and returning to the dashboard', async () => {
  const { host } = show([guestRow(100, 'web-01', { detail: DETAIL })])
  await expect.element(page.getByText('web-01')).toBeVisible()
  await userEvent.click(rowOf(host, 'web-01'))
  await expect.element(page.getByRole('region', { name: 'Details of web-01' })).toBeVisible()
  expect(JSON.parse(sessionStorage.getItem('pulse.expandedGuests')!)).toEqual(['guest:100'])

  await page.getByRole('link', { name: 'Storage' }).click()
  await expect.element(page.getByText('web-01')).not.toBeInTheDocument()
  await page.getByRole('link', { name: 'Main' }).click()
  await expect.element(page.getByRole('region', { name: 'Details of web-01' })).toBeVisible()
})

test('corrupt saved expanded state is ignored', async () => {
  sessionStorage.setItem('pulse.expandedGuests', '{not json')
  const { host } = show([guestRow(100, 'web-01', { detail: DETAIL })])
  await expect.element(page.getByText('web-01')).toBeVisible()
  expect(rowOf(host, 'web-01').getAttribute('aria-expanded')).toBe('false')
  await userEvent.click(rowOf(host, 'web-01'))
  await expect.element(page.getByRole('region', { name: 'Details of web-01' })).toBeVisible()
})

test('the detail panel of an inactive guest is dimmed', async () => {
  const { host } = show([
    guestRow(101, 'db-01', { status: 'stopped', active: false, detail: DETAIL }),
  ])
  await expect.element(page.getByText('db-01')).toBeVisible()
  await userEvent.click(rowOf(host, 'db-01'))
  const panel = page.getByRole('region', { name: 'Details of db-01' })
  await expect.element(panel).toBeVisible()
  expect(panel.element().className).toContain('opacity-50')
})

test('an active guest without disk stats shows - with the reason as the title', async () => {
  const reason = 'Guest agent timeout. Agent may need to be restarted.'
  const { host } = show([
    guestRow(100, 'web-01', { diskPercent: -1, diskText: '-', diskReason: reason }),
    guestRow(101, 'db-01', {
      status: 'stopped',
      active: false,
      diskPercent: -1,
      diskText: '-',
      diskReason: reason,
    }),
  ])
  await expect.element(page.getByText('db-01')).toBeVisible()
  const disk = rowOf(host, 'web-01').querySelector<HTMLElement>('[data-column="disk"]')!
  expect(disk.textContent).toBe('-')
  expect(disk.title).toBe(reason)
  const stopped = rowOf(host, 'db-01').querySelector<HTMLElement>('[data-column="disk"]')!
  expect(stopped.title).toBe('')
})

test('the expanded guest shows its CPU and memory history (issue 25)', async () => {
  const { api, host } = show([guestRow(100, 'web-01', { detail: DETAIL })])
  api.historyAnswer = fixtureAnswer('guest')
  await expect.element(page.getByText('web-01')).toBeVisible()
  await userEvent.click(rowOf(host, 'web-01').querySelector('[role="cell"]:nth-child(3)')!)
  const panel = page.getByRole('region', { name: 'Details of web-01' })
  await expect.element(panel.getByTestId('history-plot-cpu')).toBeVisible()
  await expect.element(panel.getByTestId('history-plot-memory')).toBeVisible()
  await expect.element(panel.getByTestId('history-plot-net')).toBeVisible()
  expect(api.chartRequests[0]).toMatchObject({ resourceId: 'lab-pve1-100', range: '1h' })
})
