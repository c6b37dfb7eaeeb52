// The dashboard filter bar: search history, search tips, toggles and Reset (spec 000 §2.2, §5),
// driven with real keyboard and mouse input in Chromium against a fake worker.
import { describe, expect, test } from 'vitest'
import { page, userEvent } from 'vitest/browser'
import { uiState } from '../../../src/ui/state.ts'
import { expectOneClearButton } from './search-box-assert.ts'
import {
  focused,
  historyButton,
  mount,
  ready,
  savePrefs,
  saved,
  searchBox,
  useDashboardHarness,
} from './dashboard-harness.ts'

useDashboardHarness()

describe('search history', () => {
  test('Enter saves the trimmed search, newest first, without duplicates', async () => {
    mount()
    await ready()
    await searchBox().click()
    await userEvent.keyboard('cpu>80{Enter}')
    await userEvent.fill(searchBox().element(), ' tags:prod ')
    await userEvent.keyboard('{Enter}')
    await userEvent.fill(searchBox().element(), 'CPU>80')
    await userEvent.keyboard('{Enter}')
    expect(uiState.dashboard.searchHistory).toEqual(['CPU>80', 'tags:prod'])
    await expect.poll(() => saved().dashboardSearchHistory).toEqual(['CPU>80', 'tags:prod'])
    expect(saved()).not.toHaveProperty('search')
    expect(saved()).not.toHaveProperty('dashboardSearch')
  })

  test('blur saves, but not when focus moves to the history or the tips', async () => {
    mount()
    await ready()
    await searchBox().click()
    await userEvent.keyboard('web')
    await historyButton().click()
    await expect.element(page.getByText('Searches you run will appear here.')).toBeVisible()
    expect(uiState.dashboard.searchHistory).toEqual([])
    await searchBox().click()
    await page.getByRole('button', { name: 'Search tips' }).click()
    expect(uiState.dashboard.searchHistory).toEqual([])
    await searchBox().click()
    await userEvent.tab()
    expect(uiState.dashboard.searchHistory).toEqual(['web'])
  })

  test('ArrowDown opens the history; arrows move, Enter picks, Escape closes', async () => {
    savePrefs({ dashboardSearchHistory: ['cpu>80', 'tags:prod', 'node:pve1'] })
    const api = mount()
    await ready()
    await searchBox().click()
    await userEvent.keyboard('{ArrowDown}')
    await expect.element(historyButton()).toHaveAttribute('aria-expanded', 'true')
    expect(focused()?.textContent).toBe('cpu>80')
    await userEvent.keyboard('{ArrowDown}{ArrowDown}{ArrowUp}')
    expect(focused()?.textContent).toBe('tags:prod')
    await userEvent.keyboard('{Enter}')
    await expect.element(historyButton()).toHaveAttribute('aria-expanded', 'false')
    expect(focused()).toBe(searchBox().element())
    await expect.element(searchBox()).toHaveValue('tags:prod')
    await expect.poll(() => api.lastRequest?.search).toBe('tags:prod')
    expect(uiState.dashboard.searchHistory).toEqual(['tags:prod', 'cpu>80', 'node:pve1'])

    // Escape closes the dropdown only: the search (an active filter) stays.
    await userEvent.keyboard('{ArrowDown}')
    expect(focused()?.textContent).toBe('tags:prod')
    await userEvent.keyboard('{Escape}')
    await expect.element(historyButton()).toHaveAttribute('aria-expanded', 'false')
    expect(focused()).toBe(searchBox().element())
    await expect.element(searchBox()).toHaveValue('tags:prod')
    // ArrowUp on the first entry goes back to the search box.
    await userEvent.keyboard('{ArrowDown}{ArrowUp}')
    expect(focused()).toBe(searchBox().element())
  })

  test('entries can be removed one by one or all at once', async () => {
    savePrefs({ dashboardSearchHistory: ['cpu>80', 'tags:prod', 'node:pve1'] })
    mount()
    await ready()
    await historyButton().click()
    const list = page.getByRole('list', { name: 'Recent searches' })
    await expect.element(list).toBeVisible()
    expect(getComputedStyle(list.element().parentElement!).maxHeight).toBe('208px') // 13rem
    await page.getByRole('button', { name: 'Remove "tags:prod" from history' }).click()
    await expect
      .element(list.getByRole('button', { name: 'tags:prod', exact: true }))
      .not.toBeInTheDocument()
    expect(uiState.dashboard.searchHistory).toEqual(['cpu>80', 'node:pve1'])
    // Delete removes the focused entry and focus moves to the one that took its place.
    list.getByRole('button', { name: 'cpu>80', exact: true }).element().focus()
    await userEvent.keyboard('{Delete}')
    expect(uiState.dashboard.searchHistory).toEqual(['node:pve1'])
    expect(focused()?.textContent).toBe('node:pve1')
    await page.getByRole('button', { name: 'Clear history' }).click()
    await expect.element(page.getByText('Searches you run will appear here.')).toBeVisible()
    expect(uiState.dashboard.searchHistory).toEqual([])
    await expect.poll(() => saved().dashboardSearchHistory).toEqual([])
  })
})

describe('clear button', () => {
  test('the search box shows one clear button, ours, and it clears and refocuses', async () => {
    const api = mount()
    await ready()
    await searchBox().click()
    await userEvent.keyboard('web')
    expectOneClearButton(searchBox().element() as HTMLInputElement)
    await page.getByRole('button', { name: 'Clear search' }).click()
    await expect.poll(() => api.lastRequest?.search).toBe('')
    expect(focused()).toBe(searchBox().element())
  })
})

describe('search tips', () => {
  test('lists the tips and closes on Escape and on an outside click', async () => {
    mount()
    await ready()
    const button = page.getByRole('button', { name: 'Search tips' })
    await button.click()
    await expect.element(button).toHaveAttribute('aria-expanded', 'true')
    const tips = page.getByRole('region', { name: 'Search tips' })
    for (const text of [
      'Plain text matches name',
      'cpu>80',
      'CPU above 80%',
      'memory<20',
      'tags:prod',
      'node:pve1',
      'Combine filters with AND / OR',
    ]) {
      await expect.element(tips.getByText(text, { exact: true })).toBeVisible()
    }
    await userEvent.keyboard('{Escape}')
    await expect.element(tips).not.toBeInTheDocument()
    expect(focused()).toBe(button.element())
    // The popover took that Escape: the filter bar is still shown.
    await expect.element(searchBox()).toBeVisible()
    await button.click()
    await expect.element(tips).toBeVisible()
    await page.getByText('web-01').click()
    await expect.element(tips).not.toBeInTheDocument()
    await expect.element(button).toHaveAttribute('aria-expanded', 'false')
  })
})

describe('toggles and Reset', () => {
  test('clicking the active status returns to All', async () => {
    const api = mount()
    await ready()
    await page.getByRole('button', { name: 'Running' }).click()
    await expect.poll(() => api.lastRequest?.statusMode).toBe('running')
    await page.getByRole('button', { name: 'Running' }).click()
    await expect.poll(() => api.lastRequest?.statusMode).toBe('all')
    await expect
      .element(
        page.getByRole('group', { name: 'Guest status' }).getByRole('button', { name: 'All' }),
      )
      .toHaveAttribute('aria-pressed', 'true')
  })

  test('Reset restores the default filters and keeps the history and the bar', async () => {
    savePrefs({ dashboardSearchHistory: ['web'] })
    const api = mount()
    await ready()
    await userEvent.fill(searchBox().element(), 'db')
    await page.getByRole('button', { name: 'LXCs' }).click()
    await page.getByRole('button', { name: 'Stopped' }).click()
    await page.getByRole('button', { name: 'List' }).click()
    await page.getByRole('button', { name: 'CPU' }).click()
    await expect.poll(() => api.lastRequest?.sort).toEqual({ key: 'cpu', direction: 'desc' })
    await page.getByRole('button', { name: 'Reset' }).click()
    await expect
      .poll(() => api.lastRequest)
      .toMatchObject({
        search: '',
        viewMode: 'all',
        statusMode: 'all',
        grouping: 'grouped',
        sort: { key: 'vmid', direction: 'asc' },
      })
    // Leaving the search box for the LXCs button saved 'db' (spec 000 §5: saved on blur).
    expect(uiState.dashboard.searchHistory).toEqual(['db', 'web'])
    await expect.element(searchBox()).toBeVisible()
  })
})
