// The command palette and the wall view (issue 28 items 6 and 7) end to end: the built app, the
// real server and worker, the simulator, in Chromium. Conditions are waited for, never times.
import fs from 'node:fs'
import path from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import { createServerProcess, type ServerProcess } from './server-process.ts'

let server: ServerProcess

test.beforeAll(async () => {
  server = await createServerProcess({ DEMO_ALERT_SCENARIOS: 'false' })
  await server.start()
})

test.afterAll(async () => {
  await server.stop()
  server.cleanup()
})

const GUEST_ROWS = '[role="row"][data-kind="guest"]'

interface LiveGuest {
  id: string
  name: string
  vmid: number
  node: string
}

async function someGuest(): Promise<LiveGuest> {
  const state = (await (await fetch(`${server.url}/api/state`)).json()) as { vms: LiveGuest[] }
  return state.vms[Math.floor(state.vms.length / 2)]!
}

const palette = (page: Page) => page.getByRole('dialog', { name: 'Go to' })

test('Ctrl-K opens the palette on the demo; a VMID and Enter open that guest', async ({ page }) => {
  await page.goto(server.url)
  await expect(page.locator(GUEST_ROWS).first()).toBeVisible()
  const guest = await someGuest()
  await page.keyboard.press('Control+k')
  await expect(palette(page)).toBeVisible()
  await expect(palette(page).getByRole('combobox')).toBeFocused()
  await page.keyboard.type(String(guest.vmid))
  // The guests with that VMID come first (each cluster may have one), the active one first.
  const first = palette(page).getByRole('option').first()
  await expect(first).toContainText(`${guest.vmid} on`)
  await expect(first).toHaveAttribute('aria-selected', 'true')
  const name = await first.locator('span span').first().innerText()
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(new RegExp(`/guests/[^/]+-${guest.vmid}$`))
  await expect(page.getByRole('heading', { name })).toBeVisible()
  await expect(palette(page)).toHaveCount(0)

  // By name and node too; '?' outside a field lists the shortcuts.
  await page.keyboard.press('Control+k')
  await page.keyboard.type(guest.node)
  await expect(palette(page).getByRole('group', { name: /^Nodes/ })).toContainText(guest.node)
  await page.keyboard.press('Escape')
  await expect(palette(page)).toHaveCount(0)
  await page.keyboard.press('?')
  await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible()
})

test('the wall view: no header or tabs, live rows, and it comes back after a server restart', async ({
  page,
}) => {
  await page.goto(`${server.url}/?kiosk=1`)
  await expect(page.locator(GUEST_ROWS).first()).toBeVisible()
  await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0)
  await expect(page.getByRole('button', { name: /^Go to/ })).toHaveCount(0)
  const zoom = await page.locator('[data-wall-view]').evaluate((el) => getComputedStyle(el).zoom)
  expect(zoom).toBe('1.25')
  await page.evaluate(() => ((window as unknown as { marker: number }).marker = 7))

  await server.stop()
  await expect(page.getByText('Connection lost')).toBeVisible()
  await expect(page.getByText('Not live: reconnecting by itself')).toBeVisible()
  await server.start()
  await expect(page.locator(GUEST_ROWS).first()).toBeVisible({ timeout: 60_000 })
  await expect(page.getByRole('status', { name: 'Connection: Connected' })).toBeVisible()
  // The same build: no reload, still the wall.
  expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(7)
  await expect(page.locator('[data-wall-view]')).toBeVisible()

  // Exit wall view: the shell is back on the same page.
  await page.getByRole('button', { name: 'Exit wall view' }).click()
  await expect(page).toHaveURL(`${server.url}/`)
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible()
})

test('a wall reloads itself when the server it reconnects to serves a new build', async ({
  page,
}) => {
  const html = await (await fetch(`${server.url}/`)).text()
  const script = /<script[^>]*type="module"[^>]*src="([^"]+)"/.exec(html)![1]!
  const next = script.replace(/\.js$/, '-next.js')
  const dist = path.resolve('dist', script.replace(/^\//, ''))
  expect(fs.existsSync(dist)).toBe(true)
  await page.goto(`${server.url}/storage?kiosk=1`)
  await expect(page.getByRole('button', { name: 'Exit wall view' })).toBeVisible()
  await page.evaluate(() => ((window as unknown as { marker: number }).marker = 9))

  // From now on the server "serves" a build whose script has another name (the same code).
  // Every page load and the wall's check of '/' (not the API, the assets or the socket).
  await page.route(
    (url) => !/^\/(api|assets|ws)(\/|$)/.test(url.pathname),
    async (route) => {
      const response = await route.fetch()
      const body = (await response.text()).replace(script, next)
      await route.fulfill({ response, body })
    },
  )
  await page.route(`**${next}`, (route) =>
    route.fulfill({ path: dist, contentType: 'text/javascript' }),
  )
  await server.stop()
  await expect(page.getByText('Not live: reconnecting by itself')).toBeVisible()
  const reloaded = page.waitForEvent('load', { timeout: 60_000 })
  await server.start()
  await reloaded
  expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(
    undefined,
  )
  await expect(page).toHaveURL(`${server.url}/storage?kiosk=1`)
  await expect(page.getByRole('button', { name: 'Exit wall view' })).toBeVisible()
  expect(
    await page.evaluate(() =>
      document.querySelector('script[type="module"][src]')?.getAttribute('src'),
    ),
  ).toBe(next)
})
