// The shell: theme, routes, tab bar, footer and banners, with a fake worker API (the real worker
// is tested in tests/browser/worker and end to end in tests/e2e).
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { page } from 'vitest/browser'
import { DEMO_DISMISSED_KEY } from '../../../src/ui/shell/DemoBanner.tsx'
import { THEME_KEY, initialDark, setDark } from '../../../src/ui/state.ts'
import { clockTime } from '../../../src/ui/lib/time.ts'
import { CONNECTED, FakeWorker, guestRow, viewModel } from './fake-worker.ts'
import { cleanup, renderApp, stubServer } from './render.tsx'
import { makeAlertConfig } from '../../fixtures/alerts/alert-config.ts'

beforeEach(async () => {
  await page.viewport(1280, 800)
  localStorage.removeItem(THEME_KEY)
  sessionStorage.removeItem(DEMO_DISMISSED_KEY)
  setDark(false)
})
afterEach(cleanup)

function dashboardWorker() {
  const api = new FakeWorker()
  api.push(viewModel([guestRow(100, 'web-01')]))
  return api
}

describe('theme', () => {
  test('the dark-mode toggle sets the dark class on <html> and saves the choice', async () => {
    renderApp(dashboardWorker())
    await page.getByRole('button', { name: 'Switch to dark mode' }).click()
    expect(document.documentElement.classList.contains('dark')).toBe(true)
    expect(localStorage.getItem(THEME_KEY)).toBe('dark')
    // In dark mode the button offers the way back, never "Dark mode" again.
    const toggle = page.getByRole('button', { name: 'Switch to light mode' })
    await expect.element(toggle).toHaveAttribute('title', 'Switch to light mode')
    expect(page.getByRole('button', { name: 'Switch to dark mode' }).query()).toBeNull()
    await toggle.click()
    expect(document.documentElement.classList.contains('dark')).toBe(false)
    expect(localStorage.getItem(THEME_KEY)).toBe('light')
  })

  test('a saved theme wins over the system preference', () => {
    localStorage.setItem(THEME_KEY, 'dark')
    expect(initialDark()).toBe(true)
    localStorage.setItem(THEME_KEY, 'light')
    expect(initialDark()).toBe(false)
  })
})

describe('routes', () => {
  test('/settings redirects, replacing the entry, to /settings/pve', async () => {
    const { location } = renderApp(dashboardWorker(), '/settings')
    await expect.element(page.getByRole('heading', { name: 'Proxmox VE nodes' })).toBeVisible()
    expect(location.history).toEqual(['/settings/pve'])
  })

  test('an unknown settings sub-path falls back to the PVE tab', async () => {
    const { location } = renderApp(dashboardWorker(), '/settings/nope')
    await expect.element(page.getByRole('heading', { name: 'Proxmox VE nodes' })).toBeVisible()
    expect(location.history.at(-1)).toBe('/settings/pve')
  })

  test('a known settings sub-route shows its tab', async () => {
    renderApp(dashboardWorker(), '/settings/urls')
    await expect.element(page.getByPlaceholder('Search by name, VMID, node or type')).toBeVisible()
    expect(page.getByText('Settings Guest URLs: coming soon').query()).toBeNull()
    await expect
      .element(page.getByRole('link', { name: 'Guest URLs' }))
      .toHaveAttribute('aria-current', 'page')
  })

  test('on a phone every sub-tab is in sight: the row wraps, nothing hides past the edge', async () => {
    await page.viewport(390, 800)
    for (const [path, area, last] of [
      ['/settings/diagnostics', 'Settings', 'Diagnostics'],
      ['/alerts/overview', 'Alerts', 'History'],
    ] as const) {
      renderApp(dashboardWorker(), path, { width: 390, height: 800 })
      const nav = page.getByRole('navigation', { name: area, exact: true })
      await expect.element(nav.getByRole('link', { name: last })).toBeVisible()
      const row = nav.element().getBoundingClientRect()
      expect(nav.element().scrollWidth).toBeLessThanOrEqual(nav.element().clientWidth)
      for (const link of nav.getByRole('link').elements()) {
        const box = link.getBoundingClientRect()
        expect(box.left).toBeGreaterThanOrEqual(row.left)
        expect(box.right).toBeLessThanOrEqual(row.right)
      }
      cleanup()
    }
  })

  test('/alerts and unknown alerts paths redirect to /alerts/overview', async () => {
    const first = renderApp(dashboardWorker(), '/alerts')
    await expect.element(page.getByText('Loading alerts...')).toBeVisible()
    expect(first.location.history).toEqual(['/alerts/overview'])
    cleanup()
    const second = renderApp(dashboardWorker(), '/alerts/whatever/deep')
    await expect.element(page.getByText('Loading alerts...')).toBeVisible()
    expect(second.location.history).toEqual(['/alerts/overview'])
  })

  test('alerts destinations are labelled Notifications and custom rules has its own page', async () => {
    renderApp(dashboardWorker(), '/alerts/destinations')
    await expect
      .element(page.getByRole('link', { name: 'Notifications' }))
      .toHaveAttribute('aria-current', 'page')
    await expect.element(page.getByText('Email (SMTP)').first()).toBeVisible()
    cleanup()
    stubServer({
      route: (url) =>
        url.endsWith('/api/alerts/config') ? Response.json(makeAlertConfig()) : undefined,
    })
    renderApp(dashboardWorker(), '/alerts/custom-rules')
    await expect.element(page.getByText('No custom rules', { exact: true })).toBeVisible()
  })

  test('backups waits for its view and an unknown path shows not found', async () => {
    // The fake worker sends no backups model: the tab shows its loading state.
    renderApp(dashboardWorker(), '/backups')
    await expect.element(page.getByText('Loading backup data...')).toBeVisible()
    cleanup()
    renderApp(dashboardWorker(), '/nowhere')
    await expect.element(page.getByText('Page not found')).toBeVisible()
  })

  test('the tab bar marks the active tab and navigates', async () => {
    const { location } = renderApp(dashboardWorker(), '/')
    const nav = page.getByRole('navigation', { name: 'Main' })
    await expect
      .element(nav.getByRole('link', { name: 'Main' }))
      .toHaveAttribute('aria-current', 'page')
    await nav.getByRole('link', { name: 'Alerts' }).click()
    await expect.poll(() => location.history.at(-1)).toBe('/alerts/overview')
    await expect
      .element(nav.getByRole('link', { name: 'Alerts' }))
      .toHaveAttribute('aria-current', 'page')
    expect(
      nav.getByRole('link', { name: 'Main' }).element().getAttribute('aria-current'),
    ).toBeNull()
  })

  test('on a 390 px phone every tab, Settings too, is on screen without scrolling', async () => {
    await page.viewport(390, 844)
    renderApp(dashboardWorker(), '/', { width: 390, height: 844 })
    const nav = page.getByRole('navigation', { name: 'Main' })
    await expect.element(nav).toBeVisible()
    for (const name of ['Main', 'Storage', 'Backups', 'Alerts', 'Settings']) {
      const box = nav.getByRole('link', { name }).element().getBoundingClientRect()
      expect(box.left).toBeGreaterThanOrEqual(0)
      expect(box.right).toBeLessThanOrEqual(390)
    }
    expect(nav.element().scrollWidth).toBeLessThanOrEqual(nav.element().clientWidth)
  })
})

describe('footer and banners', () => {
  test('the footer shows the server version and the last refresh time', async () => {
    stubServer({ version: '4.5.6' })
    renderApp(dashboardWorker())
    await expect.element(page.getByText('Pulse v4.5.6')).toBeVisible()
    await expect.element(page.getByText(clockTime(CONNECTED.lastUpdate))).toBeVisible()
    expect(clockTime(CONNECTED.lastUpdate)).toMatch(/^\d\d:\d\d:\d\d$/)
  })

  test('the demo banner appears in demo mode and stays dismissed for the session', async () => {
    stubServer({ demo: true })
    renderApp(dashboardWorker())
    await expect
      .element(page.getByText(/Demo mode: you are watching a simulated Proxmox estate/))
      .toBeVisible()
    await page.getByRole('button', { name: 'Dismiss demo banner' }).click()
    expect(page.getByText(/Demo mode/).query()).toBeNull()
    expect(sessionStorage.getItem(DEMO_DISMISSED_KEY)).toBe('1')
    cleanup()
    stubServer({ demo: true })
    renderApp(dashboardWorker())
    await expect.element(page.getByText('web-01')).toBeVisible()
    expect(page.getByText(/Demo mode/).query()).toBeNull()
  })

  test('no demo banner without the demo header', async () => {
    stubServer({ demo: false })
    renderApp(dashboardWorker())
    await expect.element(page.getByText('Pulse v1.2.3')).toBeVisible()
    expect(page.getByText(/Demo mode/).query()).toBeNull()
  })
})
