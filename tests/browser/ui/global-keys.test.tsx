// The dashboard's global keys (spec 000 §2.1, §2.2) and its saved preferences (spec 000 §3),
// driven with real keyboard input in Chromium against a fake worker.
import { describe, expect, test, vi } from 'vitest'
import { page, userEvent } from 'vitest/browser'
import { uiState } from '../../../src/ui/state.ts'
import { nodeSelection, toggleNodeSelection } from '../../../src/ui/summary/selection.ts'
import {
  focused,
  historyButton,
  mount,
  prefWarnings,
  ready,
  reload,
  savePrefs,
  saved,
  searchBox,
  useDashboardHarness,
} from './dashboard-harness.ts'

useDashboardHarness()

describe('global keys', () => {
  test('Escape resets active filters, otherwise shows or hides the filter bar', async () => {
    const api = mount()
    await ready()
    await page.getByRole('button', { name: 'VMs' }).click()
    await expect.poll(() => api.lastRequest?.viewMode).toBe('vm')
    await userEvent.keyboard('{Escape}')
    await expect.poll(() => api.lastRequest?.viewMode).toBe('all')
    await expect.element(searchBox()).toBeVisible()
    await userEvent.keyboard('{Escape}')
    await expect.element(searchBox()).not.toBeInTheDocument()
    await expect.element(page.getByText('web-01')).toBeVisible()
    await userEvent.keyboard('{Escape}')
    await expect.element(searchBox()).toBeVisible()
  })

  test('a hidden filter bar keeps a visible Filters button, also after a reload', async () => {
    mount()
    await ready()
    const toggle = () => page.getByRole('button', { name: 'Filters', exact: true })
    await expect.element(toggle()).toHaveAttribute('aria-expanded', 'true')
    await userEvent.keyboard('{Escape}')
    await expect.element(searchBox()).not.toBeInTheDocument()
    await expect.element(toggle()).toBeVisible()
    await expect.element(toggle()).toHaveAttribute('aria-expanded', 'false')
    await expect.poll(() => saved().dashboardShowFilters).toBe(false)

    reload()
    await ready()
    await expect.element(searchBox()).not.toBeInTheDocument()
    await expect.element(toggle()).toBeVisible()
    await toggle().click()
    await expect.element(searchBox()).toBeVisible()
    expect(focused()).toBe(searchBox().element())
    await expect.element(toggle()).toHaveAttribute('aria-expanded', 'true')
    await expect.poll(() => saved().dashboardShowFilters).toBe(true)
    // The same button hides the bar again.
    await toggle().click()
    await expect.element(searchBox()).not.toBeInTheDocument()
  })

  test('Escape in the search box clears the search instead of hiding the bar', async () => {
    const api = mount()
    await ready()
    await searchBox().click()
    await userEvent.keyboard('web')
    await expect.poll(() => api.lastRequest?.search).toBe('web')
    await userEvent.keyboard('{Escape}')
    await expect.poll(() => api.lastRequest?.search).toBe('')
    await expect.element(searchBox()).toBeVisible()
  })

  test('Escape first deselects a node in the summary table', async () => {
    const api = mount()
    await ready()
    await page.getByRole('button', { name: 'Stopped' }).click()
    toggleNodeSelection('dashboard', 'pve1')
    await userEvent.keyboard('{Escape}')
    expect(nodeSelection.nodeId).toBeNull()
    expect(uiState.dashboard.statusMode).toBe('stopped')
    await userEvent.keyboard('{Escape}')
    await expect.poll(() => api.lastRequest?.statusMode).toBe('all')
  })

  test('a printable key outside a field focuses the search box and lands in it', async () => {
    const api = mount()
    await ready()
    expect(focused()).toBe(document.body)
    await userEvent.keyboard('we')
    expect(focused()).toBe(searchBox().element())
    await expect.element(searchBox()).toHaveValue('we')
    await expect.poll(() => api.lastRequest?.search).toBe('we')
    // From a button too; the text is appended at the end.
    await page.getByRole('button', { name: 'Grouped' }).click()
    await userEvent.keyboard('b')
    await expect.element(searchBox()).toHaveValue('web')
  })

  test('a printable key shows a hidden filter bar and types into it', async () => {
    mount()
    await ready()
    await userEvent.keyboard('{Escape}')
    await expect.element(searchBox()).not.toBeInTheDocument()
    await userEvent.keyboard('D')
    await expect.element(searchBox()).toHaveValue('D')
    expect(focused()).toBe(searchBox().element())
    await userEvent.keyboard('b')
    await expect.element(searchBox()).toHaveValue('Db')
  })

  test('shortcuts with Ctrl and the space bar are left alone', async () => {
    mount()
    await ready()
    // Ctrl-J: Ctrl-K is the shell's own (the command palette, tests/browser/ui/palette.test.tsx).
    await userEvent.keyboard('{Control>}j{/Control} ')
    expect(focused()).toBe(document.body)
    await expect.element(searchBox()).toHaveValue('')
  })

  test('keys do nothing once the dashboard route is left', async () => {
    mount()
    await ready()
    await page.getByRole('link', { name: 'Storage' }).click()
    await expect.element(searchBox()).not.toBeInTheDocument()
    await userEvent.keyboard('{Escape}x')
    expect(uiState.dashboard.showFilters).toBe(true)
    expect(uiState.dashboard.search).toBe('')
  })
})

describe('saved preferences', () => {
  test('view, status, layout, sort and history survive a reload; the search does not', async () => {
    mount()
    await ready()
    await page.getByRole('button', { name: 'LXCs' }).click()
    await page.getByRole('button', { name: 'Stopped' }).click()
    await page.getByRole('button', { name: 'List' }).click()
    await page.getByRole('button', { name: 'CPU' }).click()
    await searchBox().click()
    await userEvent.keyboard('web{Enter}')
    await expect.poll(() => saved().dashboardSortKey).toBe('cpu')

    const api = reload()
    await ready()
    // The very first request to the worker already carries the saved filters.
    expect(api.requests[0]).toMatchObject({
      search: '',
      viewMode: 'lxc',
      statusMode: 'stopped',
      grouping: 'flat',
      sort: { key: 'cpu', direction: 'desc' },
    })
    await expect
      .element(page.getByRole('button', { name: 'LXCs' }))
      .toHaveAttribute('aria-pressed', 'true')
    await expect.element(searchBox()).toHaveValue('')
    await historyButton().click()
    await expect.element(page.getByRole('button', { name: 'web', exact: true })).toBeVisible()
  })

  test('a hidden filter bar stays hidden after a reload', async () => {
    mount()
    await ready()
    await userEvent.keyboard('{Escape}')
    await expect.poll(() => saved().dashboardShowFilters).toBe(false)
    reload()
    await ready()
    expect(searchBox().query()).toBeNull()
  })

  test('a saved value outside its allowed values falls back to its default alone', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    savePrefs({ dashboardViewMode: 'banana', dashboardStatusMode: 'running', extra: 1 })
    const api = mount()
    await ready()
    expect(api.requests[0]).toMatchObject({ viewMode: 'all', statusMode: 'running' })
    const warnings = prefWarnings(warn.mock.calls)
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toContain('dashboardViewMode')
  })

  test('saved preferences that are not JSON give the defaults', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    savePrefs('{"dashboardViewMode": "vm"')
    const api = mount()
    await ready()
    expect(api.requests[0]).toMatchObject({
      viewMode: 'all',
      statusMode: 'all',
      grouping: 'grouped',
      sort: { key: 'vmid', direction: 'asc' },
    })
    await expect.element(searchBox()).toBeVisible()
    expect(prefWarnings(warn.mock.calls)).toHaveLength(1)
  })
})
