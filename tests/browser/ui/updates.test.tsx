// The update check's browser cache and what shows an update (spec 001 §2 Shell, §4 Update check,
// §9): banner, red dot on the Settings tab, footer. The server is stubbed (updates-harness.ts).
import { describe, expect, test } from 'vitest'
import { page } from 'vitest/browser'
import { UPDATE_CACHE_KEY, parseCache } from '../../../src/ui/updates/update-cache.ts'
import { checkForUpdates } from '../../../src/ui/updates/update-store.ts'
import { appShown, useAuthHarness, worker } from './auth-harness.ts'
import { renderApp } from './render.tsx'
import {
  AVAILABLE,
  HOUR,
  LATEST,
  VERSION,
  checksOf,
  seedCache,
  updateServer,
} from './updates-harness.ts'

useAuthHarness()

const banner = () => page.getByRole('region', { name: 'Update available' })
const settingsTab = () =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /^Settings/ })
const storedCache = () => parseCache(localStorage.getItem(UPDATE_CACHE_KEY))

async function openApp() {
  renderApp(worker(), '/')
  await appShown()
}

describe('automatic check on start', () => {
  test('an available update shows the banner and the red dot; the check used the saved channel', async () => {
    const { mock } = updateServer()
    await openApp()
    await expect.element(banner()).toBeVisible()
    await expect.element(banner()).toHaveTextContent('Pulse 1.3.0 is available')
    expect(checksOf(mock)).toEqual(['stable'])
    await expect.element(settingsTab()).toHaveAccessibleName('Settings (update available)')
    expect(document.querySelector('[data-update-dot]')).not.toBeNull()
    expect(storedCache()).toMatchObject({ currentVersion: '1.2.3', updateInfo: AVAILABLE })
  })

  test('release notes expand as plain text, never as HTML', async () => {
    updateServer()
    await openApp()
    const toggle = banner().getByRole('button', { name: 'Release notes' })
    await expect.element(toggle).toHaveAttribute('aria-expanded', 'false')
    await toggle.click()
    await expect.element(toggle).toHaveAttribute('aria-expanded', 'true')
    await expect.element(banner().getByText('<img src=x', { exact: false })).toBeVisible()
    expect(document.querySelector('img[src="x"]')).toBeNull()
    expect((window as { pwned?: number }).pwned).toBeUndefined()
  })

  test('the banner links to Settings > System', async () => {
    updateServer({ check: () => AVAILABLE })
    renderApp(worker(), '/')
    await banner().getByRole('link', { name: 'Update in Settings > System' }).click()
    await expect.element(page.getByRole('combobox', { name: 'Update channel' })).toBeVisible()
  })

  test('dismiss hides it for that version only; a newer version shows again', async () => {
    const { state } = updateServer()
    await openApp()
    await banner().getByRole('button', { name: 'Dismiss update 1.3.0' }).click()
    await expect.element(banner()).not.toBeInTheDocument()
    await expect.element(settingsTab()).toHaveAccessibleName('Settings')
    expect(storedCache().dismissedVersion).toBe('1.3.0')
    state.check = () => ({ ...AVAILABLE, latestVersion: '1.4.0' })
    await checkForUpdates({ force: true })
    await expect.element(banner()).toHaveTextContent('Pulse 1.4.0 is available')
  })

  test('the rc channel is asked for and a prerelease is announced', async () => {
    const { mock } = updateServer({
      version: { ...VERSION, channel: 'rc' },
      check: (channel) =>
        channel === 'rc'
          ? { ...AVAILABLE, latestVersion: '1.3.0-rc.1', isPrerelease: true }
          : LATEST,
    })
    await openApp()
    await expect
      .element(banner())
      .toHaveTextContent('Pulse 1.3.0-rc.1 is available (release candidate)')
    expect(checksOf(mock)).toEqual(['rc'])
  })

  test('a failed check is stored as lastError and shows no update', async () => {
    updateServer({
      check: () =>
        Response.json({ code: 'FEED_FAILED', message: 'feed unreachable' }, { status: 502 }),
    })
    await openApp()
    await expect.poll(() => storedCache().lastError).toContain('feed unreachable')
    expect(storedCache().updateInfo).toBeNull()
    expect(banner().query()).toBeNull()
  })
})

describe('cache rules', () => {
  test('a check under 24 h old is used without asking the server', async () => {
    seedCache({ lastCheck: Date.now() - 23 * HOUR, updateInfo: AVAILABLE })
    const { mock } = updateServer({ check: () => LATEST })
    await openApp()
    await expect.element(banner()).toHaveTextContent('Pulse 1.3.0 is available')
    expect(checksOf(mock)).toEqual([])
  })

  test('a check 24 h old or more is repeated', async () => {
    seedCache({ lastCheck: Date.now() - 25 * HOUR, updateInfo: AVAILABLE })
    const { mock } = updateServer({ check: () => LATEST })
    await openApp()
    await expect.poll(() => checksOf(mock)).toEqual(['stable'])
    await expect.poll(() => storedCache().updateInfo?.available).toBe(false)
    expect(banner().query()).toBeNull()
  })

  test('a forced check ignores a fresh cache', async () => {
    seedCache({ updateInfo: AVAILABLE })
    const { mock } = updateServer({ check: () => LATEST })
    await openApp()
    expect(await checkForUpdates({ force: true })).toBe('checked')
    expect(checksOf(mock)).toEqual(['stable'])
    await expect.element(banner()).not.toBeInTheDocument()
  })

  test('another running version drops the cache, dismissal included', async () => {
    seedCache({ currentVersion: '1.2.0', updateInfo: LATEST, dismissedVersion: '1.3.0' })
    const { mock } = updateServer()
    await openApp()
    await expect.element(banner()).toBeVisible()
    expect(checksOf(mock)).toEqual(['stable'])
    expect(storedCache()).toMatchObject({ currentVersion: '1.2.3', dismissedVersion: '' })
  })

  test('a check while one runs is not sent twice', async () => {
    const { mock } = updateServer()
    await openApp()
    // The start-up check has finished (it stored its answer).
    await expect.poll(() => storedCache().lastCheck).toBeGreaterThan(0)
    expect(checksOf(mock)).toHaveLength(1)
    const both = await Promise.all([
      checkForUpdates({ force: true }),
      checkForUpdates({ force: true }),
    ])
    expect(both).toEqual(['checked', 'checked'])
    expect(checksOf(mock)).toHaveLength(2)
  })

  test.each([
    ['Docker', { isDocker: true, deploymentType: 'docker' as const }],
    ['deploymentType development', { deploymentType: 'development' as const }],
    ['a git-describe version', { version: '1.2.3-4-gabc1234' }],
    ['a dirty version', { version: '1.2.3-dirty' }],
  ])('%s: no automatic check, a forced one still runs', async (_name, patch) => {
    const { mock } = updateServer({ version: { ...VERSION, ...patch } })
    await openApp()
    expect(await checkForUpdates()).toBe('skipped')
    expect(checksOf(mock)).toEqual([])
    expect(await checkForUpdates({ force: true })).toBe('checked')
    expect(checksOf(mock)).toEqual(['stable'])
  })

  test.each([
    ['not JSON', '{oops'],
    ['another shape', JSON.stringify(['1.3.0'])],
    ['odd fields', JSON.stringify({ currentVersion: '1.2.3', lastCheck: 'soon', updateInfo: 'x' })],
  ])('a corrupt cache (%s) reads as empty and is checked again', async (_name, stored) => {
    localStorage.setItem(UPDATE_CACHE_KEY, stored)
    const { mock } = updateServer()
    await openApp()
    await expect.element(banner()).toBeVisible()
    expect(checksOf(mock)).toEqual(['stable'])
  })
})

describe('footer', () => {
  test.each([
    ['systemd', 'Pulse v1.2.3', {}],
    [
      'development',
      'Pulse v1.2.3 (Development)',
      { isDevelopment: true, deploymentType: 'development' as const },
    ],
    ['docker', 'Pulse v1.2.3 (Docker)', { isDocker: true, deploymentType: 'docker' as const }],
  ])('%s install: %s', async (_name, text, patch) => {
    updateServer({ version: { ...VERSION, ...patch } })
    await openApp()
    await expect.element(page.getByText(text, { exact: true })).toBeVisible()
    expect(page.getByText('RC', { exact: true }).query()).toBeNull()
  })

  test('the rc channel shows the RC badge', async () => {
    updateServer({ version: { ...VERSION, channel: 'rc' }, check: () => LATEST })
    await openApp()
    await expect.element(page.getByText('Pulse v1.2.3', { exact: true })).toBeVisible()
    await expect
      .element(page.getByRole('contentinfo').getByText('RC', { exact: true }))
      .toBeVisible()
  })
})
