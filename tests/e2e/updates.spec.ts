// Updates end to end (issue 16 acceptance 2): the built app and the real server in Chromium, the
// release feed a real HTTP server on loopback (UPDATE_FEED_URL). An available update shows the
// banner and the red dot on Settings; dismissing hides it for that version only; the rc channel
// sees prereleases; an apply whose download does not match its published checksum is refused
// and stages nothing.
import fs from 'node:fs'
import path from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import { startReleaseFeed, type ReleaseFeed } from '../fixtures/release-feed.ts'
import { createServerProcess, type ServerProcess } from './server-process.ts'

const SMALL_DEMO = { DEMO_CLUSTERS: '1', DEMO_NODES_PER_CLUSTER: '1', DEMO_GUESTS_PER_NODE: '5' }

let feed: ReleaseFeed
let server: ServerProcess

test.beforeAll(async () => {
  feed = await startReleaseFeed([
    { tag: 'v0.2.0', body: 'Faster backups tab.\n<b>not bold</b>' },
    { tag: 'v0.3.0-rc.1', prerelease: true },
  ])
  server = await createServerProcess({
    ...SMALL_DEMO,
    UPDATE_FEED_URL: feed.feedUrl,
    // A git checkout counts as a development build, whose automatic check is skipped: run as an
    // installed copy that may update itself.
    PULSE_DEPLOYMENT_TYPE: 'systemd',
  })
  await server.start()
})
test.afterAll(async () => {
  await server.stop()
  server.cleanup()
  await feed.close()
})

const banner = (page: Page) => page.getByRole('region', { name: 'Update available' })
const settingsTab = (page: Page) => page.getByRole('navigation', { name: 'Main' }).getByRole('link')
const stagedDir = () => path.join(server.dataDir, 'updates', 'staged')

async function checkNow(page: Page) {
  await page.getByRole('button', { name: 'Check for Updates' }).click()
  await expect(page.getByRole('button', { name: 'Check for Updates' })).toBeEnabled()
}

test('an update shows the banner and the red dot; dismiss hides that version only', async ({
  page,
}) => {
  await page.goto(server.url)
  await expect(banner(page)).toContainText('Pulse 0.2.0 is available')
  await expect(settingsTab(page).filter({ hasText: 'Settings' })).toHaveAccessibleName(
    'Settings (update available)',
  )
  // Release notes are text, never markup.
  await banner(page).getByRole('button', { name: 'Release notes' }).click()
  await expect(banner(page)).toContainText('<b>not bold</b>')

  await banner(page).getByRole('button', { name: 'Dismiss update 0.2.0' }).click()
  await expect(banner(page)).toHaveCount(0)
  await expect(settingsTab(page).filter({ hasText: 'Settings' })).toHaveAccessibleName('Settings')
  await page.reload()
  await expect(page.getByRole('link', { name: 'Main' })).toBeVisible()
  await expect(banner(page)).toHaveCount(0)

  // A newer release is not covered by the dismissal.
  feed.setReleases([{ tag: 'v0.2.0' }, { tag: 'v0.2.1' }, { tag: 'v0.3.0-rc.1', prerelease: true }])
  await page.goto(`${server.url}/settings/system`)
  await checkNow(page)
  await expect(page.getByTestId('update-result')).toContainText('Update available: v0.2.1')
  await expect(banner(page)).toContainText('Pulse 0.2.1 is available')
  await expect(settingsTab(page).filter({ hasText: 'Settings' })).toHaveAccessibleName(
    'Settings (update available)',
  )
})

test('the rc channel sees prereleases; stable does not', async ({ page }) => {
  feed.setReleases([{ tag: 'v0.2.0' }, { tag: 'v0.3.0-rc.1', prerelease: true }])
  await page.goto(`${server.url}/settings/system`)
  await checkNow(page)
  await expect(page.getByTestId('update-result')).toContainText('Update available: v0.2.0')
  await expect(page.getByTestId('update-result')).not.toContainText('Prerelease')

  await page.getByLabel('Update channel').selectOption('rc')
  await checkNow(page)
  await expect(page.getByTestId('update-result')).toContainText('Update available: v0.3.0-rc.1')
  await expect(page.getByTestId('update-result')).toContainText('Prerelease')
  expect(feed.requests.filter((r) => r === '/releases').length).toBeGreaterThanOrEqual(2)
})

test('an apply with a wrong checksum is refused and stages nothing', async ({ page }) => {
  feed.setReleases([{ tag: 'v0.2.0', checksum: 'wrong' }])
  await page.goto(`${server.url}/settings/system`)
  await checkNow(page)
  await expect(page.getByTestId('update-result')).toContainText('Update available: v0.2.0')
  await expect(page.getByRole('list', { name: 'Update instructions' })).toBeVisible()

  await page.getByRole('button', { name: 'Install update' }).click()
  await page.getByRole('alertdialog').getByRole('button', { name: 'Install' }).click()
  await expect(page.getByRole('alert').filter({ hasText: 'Update failed' })).toContainText(
    /checksum/i,
  )
  // The archive was downloaded (the refusal came from the digest, not from a failed fetch).
  expect(feed.requests).toContain('/download/pulse-monitor-0.2.0.tar.gz')
  const status = (await (await fetch(`${server.url}/api/updates/status`)).json()) as {
    status: string
  }
  expect(status.status).toBe('error')
  const staged = fs.existsSync(stagedDir()) ? fs.readdirSync(stagedDir()) : []
  expect(staged).toEqual([])
})

test('a verified update is staged and the panel says how the restart happens', async ({ page }) => {
  feed.setReleases([{ tag: 'v0.2.0' }])
  await page.goto(`${server.url}/settings/system`)
  await checkNow(page)
  await page.getByRole('button', { name: 'Install update' }).click()
  await page.getByRole('alertdialog').getByRole('button', { name: 'Install' }).click()
  await expect(page.getByRole('status').filter({ hasText: /restart/i })).toBeVisible()
  expect(fs.readdirSync(stagedDir())).toEqual(['0.2.0'])
  await page.screenshot({ path: 'test-results/updates-staged-1600.png', fullPage: true })
})
