// The dashboard's page states for each connection snapshot (spec 000 §2.2, §4, §8), with a fake
// worker API: the real worker is tested in tests/browser/worker and end to end in tests/e2e.
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { page } from 'vitest/browser'
import { FakeWorker, groupRow, guestRow, viewModel } from './fake-worker.ts'
import { makeSummaryRow } from './summary-fixtures.ts'
import { cleanup, renderApp } from './render.tsx'

beforeEach(async () => {
  await page.viewport(1280, 800)
})
afterEach(cleanup)

describe('dashboard page states', () => {
  test('connecting shows the loading state with the connecting text', async () => {
    renderApp(new FakeWorker({ status: 'connecting', initialDataReceived: false }))
    await expect.element(page.getByText('Loading dashboard data...')).toBeVisible()
    await expect.element(page.getByText('Connecting to monitoring service')).toBeVisible()
  })

  test('connected without initial data still shows loading, and says the estate is loading', async () => {
    const api = new FakeWorker({ status: 'connecting', initialDataReceived: false })
    renderApp(api)
    await expect.element(page.getByText('Connecting to monitoring service')).toBeVisible()
    // The pill says Connected: the text under the spinner must not still say connecting.
    api.setConnection({ status: 'connected' })
    await expect.element(page.getByRole('status', { name: 'Connection: Connected' })).toBeVisible()
    await expect.element(page.getByText('Loading dashboard data...')).toBeVisible()
    await expect.element(page.getByText('Loading estate...')).toBeVisible()
    expect(page.getByText('Connecting to monitoring service').query()).toBeNull()
  })

  test('an empty state served before the first poll shows loading, then no nodes once polled', async () => {
    const api = new FakeWorker({ nodeCount: 0, guestCount: 0, firstPollDone: false })
    api.push(viewModel([]))
    renderApp(api)
    await expect.element(page.getByText('Loading dashboard data...')).toBeVisible()
    await expect.element(page.getByRole('status', { name: 'Connection: Connected' })).toBeVisible()
    expect(page.getByText('No hypervisor nodes configured').query()).toBeNull()
    api.setConnection({ firstPollDone: true })
    await expect.element(page.getByText('No hypervisor nodes configured')).toBeVisible()
  })

  test('reconnecting before any data shows loading with the reconnecting text', async () => {
    renderApp(new FakeWorker({ status: 'reconnecting', initialDataReceived: false }))
    await expect.element(page.getByText('Loading dashboard data...')).toBeVisible()
    await expect.element(page.getByText('Reconnecting to monitoring service…')).toBeVisible()
  })

  test('disconnected shows connection lost with a Reconnect now button that calls the worker', async () => {
    const api = new FakeWorker({ status: 'disconnected', initialDataReceived: false })
    renderApp(api)
    await expect.element(page.getByText('Connection lost')).toBeVisible()
    await expect.element(page.getByText('Unable to connect to the backend server')).toBeVisible()
    await page.getByRole('button', { name: 'Reconnect now' }).click()
    expect(api.reconnects).toBe(1)
  })

  test('reconnecting after data was lost says it is attempting to reconnect, without a button', async () => {
    const api = new FakeWorker()
    api.push(viewModel([groupRow('pve1', 1), guestRow(100, 'web')]))
    renderApp(api)
    await expect.element(page.getByText('web')).toBeVisible()
    api.setConnection({ status: 'reconnecting', initialDataReceived: false, attempt: 1 })
    await expect.element(page.getByText('Connection lost')).toBeVisible()
    await expect.element(page.getByText('Attempting to reconnect…')).toBeVisible()
    expect(page.getByRole('button', { name: 'Reconnect now' }).query()).toBeNull()
  })

  test('while the first load brings guests, counts read as loading, not as partial totals', async () => {
    const api = new FakeWorker({ loading: true, guestsExpected: 2025, guestCount: 1272 })
    api.push(viewModel([groupRow('pve1', 1), guestRow(100, 'web')]))
    const summary = {
      kind: 'nodeSummary' as const,
      version: 1,
      tab: 'dashboard' as const,
      nameLabel: 'Node',
      diskLabel: 'Disk',
      showTemperature: false,
      countColumns: [
        { key: 'vms' as const, label: 'VMs' },
        { key: 'containers' as const, label: 'Containers' },
      ],
      rows: [makeSummaryRow('lab-pve1', 'pve1', { counts: { vms: 1272 } })],
    }
    api.nodeSummary = { ...summary, guestsLoading: true }
    renderApp(api)
    await expect.element(page.getByText('Loading guests: 1,272 of 2,025…')).toBeVisible()
    expect(page.getByText(/running/).query()).toBeNull()
    const row = page.getByRole('row', { name: /pve1/ })
    await expect.element(row.getByTitle('Guests still loading').first()).toHaveTextContent('…')
    expect(row.getByText('0', { exact: true }).query()).toBeNull()
    api.setConnection({ loading: false, guestsExpected: 0, guestCount: 2025 })
    api.pushNodeSummary({ ...summary, version: 2, guestsLoading: false })
    await expect.element(page.getByText('1 running')).toBeVisible()
    await expect.element(row.getByText('1272')).toBeVisible()
  })

  test('no nodes shows the settings hint and Go to Settings opens the PVE tab', async () => {
    const api = new FakeWorker({ nodeCount: 0, guestCount: 0 })
    api.push(viewModel([]))
    const { location } = renderApp(api)
    await expect.element(page.getByText('No hypervisor nodes configured')).toBeVisible()
    await expect
      .element(
        page.getByText(
          'Add a hypervisor node in the Settings tab to start monitoring your infrastructure.',
        ),
      )
      .toBeVisible()
    await page.getByRole('button', { name: 'Go to Settings' }).click()
    await expect.poll(() => location.history.at(-1)).toBe('/settings/pve')
    await expect.element(page.getByRole('heading', { name: 'Proxmox VE nodes' })).toBeVisible()
  })

  test('guests that do not match the search show the search term', async () => {
    const api = new FakeWorker()
    api.push(viewModel([guestRow(100, 'web')]))
    renderApp(api)
    await page.getByRole('searchbox', { name: 'Search guests' }).fill('zzz')
    await expect.poll(() => api.lastRequest?.search).toBe('zzz')
    api.push(
      viewModel([], {
        version: 2,
        totals: { guests: 1, running: 1, stopped: 0, matched: 0 },
      }),
    )
    await expect.element(page.getByText('No guests found')).toBeVisible()
    await expect.element(page.getByText('No guests match your search "zzz"')).toBeVisible()
  })

  test('no matches without a search mentions the current filters', async () => {
    const api = new FakeWorker()
    api.push(viewModel([], { totals: { guests: 4, running: 2, stopped: 2, matched: 0 } }))
    renderApp(api)
    await expect.element(page.getByText('No guests found')).toBeVisible()
    await expect.element(page.getByText('No guests match your current filters')).toBeVisible()
  })
})

describe('connection pill', () => {
  const cases = [
    ['connected', 'Connected'],
    ['connecting', 'Connecting...'],
    ['reconnecting', 'Reconnecting...'],
    ['disconnected', 'Disconnected'],
  ] as const
  for (const [status, label] of cases) {
    test(`shows ${label} when the connection is ${status}`, async () => {
      renderApp(new FakeWorker({ status }))
      await expect
        .element(page.getByRole('status', { name: `Connection: ${label}` }))
        .toHaveTextContent(label)
    })
  }
})
