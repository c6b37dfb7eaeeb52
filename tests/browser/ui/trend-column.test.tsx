// The trend column (issue 25) in Chromium against a fake worker: off by default, switched on in
// the filter bar, saved and restored after a reload, and asked for the guests on screen only.
import { describe, expect, test } from 'vitest'
import { page } from 'vitest/browser'
import { uiState } from '../../../src/ui/state.ts'
import { FakeWorker, guestRow, viewModel } from './fake-worker.ts'
import { mount, ready, reload, saved, useDashboardHarness } from './dashboard-harness.ts'

useDashboardHarness()

const trendsSwitch = () => page.getByRole('switch', { name: 'Trends' })

/** 2,000 guests in a flat list; the fake sends the first 60 rows (the worker's window). */
function bigWorker(): FakeWorker {
  const api = new FakeWorker()
  const rows = Array.from({ length: 60 }, (_, i) =>
    guestRow(100 + i, i === 0 ? 'web-01' : `guest-${100 + i}`, { id: `lab-pve1-${100 + i}` }),
  )
  api.push(viewModel(rows, { rowCount: 2_000 }))
  const time = Float64Array.from({ length: 30 }, (_, i) => 1_700_000_000 + i * 120)
  api.trendsAnswer = (request) =>
    Promise.resolve(
      Object.fromEntries(
        request.ids.map((id) => [id, { time, avg: time.map((_, i) => (i === 5 ? NaN : i)) }]),
      ),
    )
  return api
}

describe('trend column', () => {
  test('off by default; the switch turns it on, it is saved and restored after a reload', async () => {
    const api = mount(bigWorker())
    await ready()
    await expect.element(trendsSwitch()).toHaveAttribute('aria-checked', 'false')
    expect(document.querySelector('[data-column="trend"]')).toBeNull()
    expect(api.trendRequests).toHaveLength(0)

    await trendsSwitch().click()
    await expect.poll(() => saved().tableTrends).toBe(true)
    await expect
      .poll(() => document.querySelector('[data-testid="trend-lab-pve1-100"]'))
      .not.toBeNull()

    uiState.trends = false
    const again = reload(bigWorker())
    await ready()
    await expect.element(trendsSwitch()).toHaveAttribute('aria-checked', 'true')
    await expect.poll(() => again.trendRequests.length).toBeGreaterThan(0)
    await expect.element(page.getByRole('columnheader', { name: 'Trend' })).toBeVisible()
  })

  test('asks only for the guests on screen, with the CPU metric, in one batch', async () => {
    const api = mount(bigWorker())
    await ready()
    await trendsSwitch().click()
    await expect.poll(() => api.trendRequests.length).toBeGreaterThan(0)
    const request = api.trendRequests[0]!
    expect(request.metric).toBe('cpu')
    expect(request.ids).toContain('lab-pve1-100')
    // 800 px of window shows about 20 rows: neither the worker's 60 nor the 2,000 guests.
    expect(request.ids.length).toBeGreaterThan(5)
    expect(request.ids.length).toBeLessThan(40)
    expect(request.ids).not.toContain('lab-pve1-159')
  })

  test('corrupt saved preferences leave the column off', async () => {
    localStorage.setItem('pulse.prefs', JSON.stringify({ tableTrends: 'yes' }))
    mount(bigWorker())
    await ready()
    await expect.element(trendsSwitch()).toHaveAttribute('aria-checked', 'false')
  })
})
