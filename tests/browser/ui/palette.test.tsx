// The command palette and the shortcut list (issue 28 item 6), driven with real keys in Chromium.
// The fake worker answers with the real ranking over a few guests (src/shared/views/palette.ts,
// unit-tested); the real worker's call runs in the bench and end to end (tests/e2e/palette.spec.ts).
import { afterEach, describe, expect, test } from 'vitest'
import { page, userEvent } from 'vitest/browser'
import type { PaletteResult } from '../../../src/shared/views/palette-types.ts'
import { closeKeyboardDialogs } from '../../../src/ui/palette/palette-state.ts'
import { uiState } from '../../../src/ui/state.ts'
import { makeGuest } from '../../unit/shared/views/guest-fixtures.ts'
import { focused, searchBox, useDashboardHarness, worker } from './dashboard-harness.ts'
import { renderApp } from './render.tsx'

useDashboardHarness()
afterEach(() => closeKeyboardDialogs())

const palette = () => page.getByRole('dialog', { name: 'Go to' })
const combobox = () => palette().getByRole('combobox')
const options = () => palette().getByRole('option')
const shortcuts = () => page.getByRole('dialog', { name: 'Keyboard shortcuts' })

/** The dashboard with a fake worker whose palette knows three guests. */
function open(path = '/') {
  const api = worker()
  api.paletteGuests = [
    makeGuest(100, { name: 'web-01' }),
    makeGuest(101, { name: 'db-01', node: 'pve2' }),
    makeGuest(102, { name: 'web-02', type: 'lxc' }),
  ]
  const { location } = renderApp(api, path)
  return { api, location }
}

/**
 * Ctrl-K once the shell is up (its key handler is installed when it mounts), and the palette
 * open: keys typed before it opens would go to the page's search box.
 */
async function ctrlK() {
  await expect.element(page.getByRole('button', { name: /^Go to/ })).toBeVisible()
  await userEvent.keyboard('{Control>}k{/Control}')
  await expect.element(palette()).toBeVisible()
}

const selected = () => {
  const id = combobox().element().getAttribute('aria-activedescendant')
  return id ? document.getElementById(id)?.textContent : null
}

describe('command palette', () => {
  test('Ctrl-K opens it, typing ranks, arrows move, Enter opens the guest page', async () => {
    const { location } = open()
    await expect.element(page.getByText('web-01')).toBeVisible()
    await userEvent.keyboard('{Control>}k{/Control}')
    await expect.element(palette()).toBeVisible()
    expect(focused()).toBe(combobox().element())
    // An empty query lists the pages: Main first.
    await expect.element(options().first()).toHaveTextContent('Main')

    await userEvent.keyboard('web')
    await expect
      .poll(() =>
        options()
          .elements()
          .map((o) => o.textContent),
      )
      .toEqual([
        'web-01VM 100 on pve1',
        'web-02CT 102 on pve1',
        'WebhooksNotifications',
        'Notifications/alerts/destinations',
      ])
    expect(selected()).toBe('web-01VM 100 on pve1')
    await userEvent.keyboard('{ArrowDown}')
    expect(selected()).toBe('web-02CT 102 on pve1')
    await userEvent.keyboard('{End}')
    expect(selected()).toContain('Notifications')
    await userEvent.keyboard('{ArrowDown}')
    expect(selected()).toBe('web-01VM 100 on pve1')
    await userEvent.keyboard('{ArrowUp}{Home}{ArrowDown}')
    expect(selected()).toBe('web-02CT 102 on pve1')
    await userEvent.keyboard('{Enter}')
    await expect.element(palette()).not.toBeInTheDocument()
    expect(location.history.at(-1)).toBe('/guests/lab-pve1-102')
  })

  test('a VMID finds its guest first; a click on a result opens it', async () => {
    const { location } = open()
    await page.getByRole('button', { name: /^Go to/ }).click()
    await userEvent.keyboard('101')
    await expect.element(options().first()).toHaveTextContent('db-01')
    await options().first().click()
    expect(location.history.at(-1)).toBe('/guests/lab-pve2-101')
  })

  test('Escape closes it and the focus returns to where it was', async () => {
    open()
    const button = page.getByRole('button', { name: /^Go to/ })
    await button.click()
    await expect.element(palette()).toBeVisible()
    await userEvent.keyboard('{Escape}')
    await expect.element(palette()).not.toBeInTheDocument()
    expect(focused()).toBe(button.element())
    // Escape went to the palette, not to the dashboard (the filter bar is still shown).
    expect(uiState.dashboard.showFilters).toBe(true)
  })

  test('Ctrl-K works from the search box and is taken from the browser', async () => {
    open()
    await searchBox().click()
    let prevented = false
    const spy = (event: KeyboardEvent) => {
      if (event.key === 'k') prevented = event.defaultPrevented
    }
    document.addEventListener('keydown', spy)
    await userEvent.keyboard('{Control>}k{/Control}')
    document.removeEventListener('keydown', spy)
    await expect.element(palette()).toBeVisible()
    expect(prevented).toBe(true)
    // Ctrl-K again closes it, and the search box has the focus back.
    await userEvent.keyboard('{Control>}k{/Control}')
    await expect.element(palette()).not.toBeInTheDocument()
    expect(focused()).toBe(searchBox().element())
  })

  test('an older answer never replaces a newer one', async () => {
    const { api } = open()
    const pending: Array<() => void> = []
    const held: Array<Promise<PaletteResult>> = []
    const real = api.paletteAnswer
    api.paletteAnswer = (request) => {
      if (request.query !== 'w') return real(request)
      const answer = new Promise<PaletteResult>((resolve) =>
        pending.push(() => resolve(real(request) as PaletteResult)),
      )
      held.push(answer)
      return answer
    }
    await ctrlK()
    await userEvent.keyboard('w')
    await userEvent.keyboard('eb-02')
    await expect.element(options().first()).toHaveTextContent('web-02')
    pending.forEach((resolve) => resolve())
    // The older answers have arrived; one turn later the palette has handled them.
    await Promise.all(held)
    await new Promise((resolve) => setTimeout(resolve, 0))
    await expect.element(options().first()).toHaveTextContent('web-02')
    expect(api.paletteRequests.map((request) => request.query)).toContain('web-02')
  })

  test('says when nothing matches', async () => {
    open()
    await ctrlK()
    await userEvent.keyboard('zzqx')
    await expect.element(palette().getByText('Nothing matches “zzqx”.')).toBeVisible()
    expect(combobox().element().getAttribute('aria-expanded')).toBe('false')
  })

  test('fits a phone', async () => {
    await page.viewport(390, 800)
    open()
    await page.getByRole('button', { name: /^Go to/ }).click()
    const box = palette().element().getBoundingClientRect()
    expect(box.left).toBeGreaterThanOrEqual(0)
    expect(box.right).toBeLessThanOrEqual(390)
    expect(box.top).toBeLessThan(100)
  })
})

describe('keyboard shortcuts', () => {
  test('? lists the shortcuts instead of typing into the search, and Escape closes the list', async () => {
    const { api } = open()
    await expect.element(page.getByText('web-01')).toBeVisible()
    ;(document.activeElement as HTMLElement | null)?.blur()
    await userEvent.keyboard('?')
    await expect.element(shortcuts()).toBeVisible()
    await expect.element(shortcuts().getByText('Ctrl K')).toBeVisible()
    expect(uiState.dashboard.search).toBe('')
    await userEvent.keyboard('{Escape}')
    await expect.element(shortcuts()).not.toBeInTheDocument()
    // Any other character still goes to the search box (spec 000 §2.2).
    await userEvent.keyboard('d')
    await expect.poll(() => api.lastRequest?.search).toBe('d')
    // And in the search box '?' is just a character.
    await userEvent.keyboard('?')
    await expect.poll(() => uiState.dashboard.search).toBe('d?')
    expect(shortcuts().query()).toBeNull()
  })

  test('the palette opens the list as an action', async () => {
    open()
    await ctrlK()
    await userEvent.keyboard('shortcuts')
    await expect.element(options().first()).toHaveTextContent('Keyboard shortcuts')
    await userEvent.keyboard('{Enter}')
    await expect.element(shortcuts()).toBeVisible()
    await expect.element(palette()).not.toBeInTheDocument()
  })
})
