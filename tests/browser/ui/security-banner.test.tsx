// The shell's security warning banner (spec 001 §4 Security banner, §9 dismissal periods) with a
// stubbed status.
import { describe, expect, test } from 'vitest'
import { page } from 'vitest/browser'
import { JUST_LOGGED_OUT_KEY } from '../../../src/ui/auth/auth-store.ts'
import {
  securityScore,
  securityWarning,
  scoreLevel,
} from '../../../src/ui/settings/security/posture.ts'
import { SECURITY_WARNING_KEY, parseDismissal } from '../../../src/ui/shell/SecurityBanner.tsx'
import { TOKEN, appShown, callsTo, fillLogin, useAuthHarness, worker } from './auth-harness.ts'
import { renderApp, unmountAll } from './render.tsx'
import { STATUS, securityServer } from './security-harness.ts'

useAuthHarness()

const DAY = 24 * 60 * 60 * 1000
const WEAK = { ...STATUS, apiTokenConfigured: false, apiTokenHint: '' }
const banner = () => page.getByRole('note', { name: 'Security warning' })

async function showApp() {
  const view = renderApp(worker())
  await appShown()
  return view
}

describe('when the banner shows (spec 001 §4)', () => {
  test('score rules: below 4 of 5, or public access without authentication', () => {
    expect(securityScore(STATUS)).toBe(4)
    expect(securityWarning(STATUS)).toBeNull()
    expect(securityWarning(WEAK)).toBe('Your security score is 3 of 5.')
    const publicProxy = {
      ...STATUS,
      hasAuthentication: false,
      hasProxyAuth: true,
      hasHTTPS: true,
      publicAccess: true,
    }
    expect(securityScore(publicProxy)).toBe(5)
    expect(securityWarning(publicProxy)).toBe(
      'Pulse is reachable from a public network without authentication.',
    )
    // Disabled on purpose: the auth-disabled (or demo) banner says so; no second warning.
    const disabled = { disabled: true, hasAuthentication: false, publicAccess: true }
    expect(securityWarning(disabled)).toBeNull()
    expect(securityWarning(null)).toBeNull()
    expect([5, 4, 3, 2, 1, 0].map((score) => scoreLevel(score))).toEqual([
      'good',
      'good',
      'fair',
      'weak',
      'poor',
      'poor',
    ])
  })

  test('a score of 4 shows no banner', async () => {
    securityServer()
    await showApp()
    expect(banner().query()).toBeNull()
  })

  test('a score of 3 shows it, linking to Settings > Security', async () => {
    securityServer({ status: () => WEAK })
    const { location } = await showApp()
    await expect.element(banner()).toHaveTextContent(/Your security score is 3 of 5\./)
    await banner().getByRole('link', { name: 'Review security settings' }).click()
    await expect.poll(() => location.history.at(-1)).toBe('/settings/security')
    await expect.element(page.getByRole('heading', { name: 'Security posture' })).toBeVisible()
  })

  test('public access without authentication shows it even with a full score', async () => {
    securityServer({
      status: () => ({
        ...STATUS,
        hasAuthentication: false,
        authUsername: '',
        hasProxyAuth: true,
        proxyAuthUsername: 'bob',
        hasHTTPS: true,
        publicAccess: true,
        isPrivateNetwork: false,
      }),
    })
    await showApp()
    await expect
      .element(banner())
      .toHaveTextContent(/reachable from a public network without authentication/)
  })

  test('after a fresh login (no status read at start) the banner reads the status itself', async () => {
    sessionStorage.setItem(JUST_LOGGED_OUT_KEY, '1')
    const fetchMock = securityServer({
      status: () => WEAK,
      routes: { 'POST /api/login': () => Response.json({ success: true, username: 'admin' }) },
    })
    renderApp(worker())
    await fillLogin('admin', 'pw')
    await appShown()
    await expect.element(banner()).toBeVisible()
    expect(callsTo(fetchMock, 'GET', '/api/security/status')).toHaveLength(1)
  })

  test('generating an API token in the tab lifts the score and the banner goes', async () => {
    let configured = false
    securityServer({
      status: () => ({ ...WEAK, apiTokenConfigured: configured }),
      routes: {
        'POST /api/security/regenerate-token': () => {
          configured = true
          return Response.json({ token: TOKEN })
        },
      },
    })
    renderApp(worker(), '/settings/security')
    await expect.element(banner()).toBeVisible()
    await page.getByRole('button', { name: 'Generate New Token' }).click()
    await page.getByRole('button', { name: 'Generate token' }).click()
    await expect.element(banner()).not.toBeInTheDocument()
    await expect.element(page.getByTestId('security-score')).toHaveTextContent('4/5')
  })
})

describe('dismissal (spec 001 §4, §9)', () => {
  const stored = () => parseDismissal(localStorage.getItem(SECURITY_WARNING_KEY))

  test.each([
    { label: 'Dismiss for 1 day', ms: DAY },
    { label: 'Dismiss for 1 week', ms: 7 * DAY },
  ])('$label hides it until the expiry, which is stored', async ({ label, ms }) => {
    securityServer({ status: () => WEAK })
    await showApp()
    const before = Date.now()
    await banner().getByRole('button', { name: label }).click()
    expect(banner().query()).toBeNull()
    const until = stored()!
    expect(until).toBeGreaterThanOrEqual(before + ms)
    expect(until).toBeLessThanOrEqual(Date.now() + ms)

    // Still dismissed after a reload.
    unmountAll()
    await showApp()
    expect(banner().query()).toBeNull()

    // Expired: back again.
    localStorage.setItem(SECURITY_WARNING_KEY, JSON.stringify({ until: Date.now() - 1 }))
    unmountAll()
    await showApp()
    await expect.element(banner()).toBeVisible()
  })

  test('Dismiss forever means 100 years', async () => {
    securityServer({ status: () => WEAK })
    await showApp()
    await banner().getByRole('button', { name: 'Dismiss forever' }).click()
    expect(banner().query()).toBeNull()
    const until = new Date(stored()!)
    const now = new Date()
    expect(until.getFullYear()).toBe(now.getFullYear() + 100)
    expect(until.getTime() - now.getTime()).toBeGreaterThan(36_500 * DAY)
  })

  test.each(['garbage', '{"until":"tomorrow"}', 'null', '42', '{"until":null}'])(
    'a corrupt stored value (%s) counts as not dismissed',
    async (value) => {
      localStorage.setItem(SECURITY_WARNING_KEY, value)
      securityServer({ status: () => WEAK })
      await showApp()
      await expect.element(banner()).toBeVisible()
    },
  )

  test('the banner wraps inside a 390 px phone', async () => {
    await page.viewport(390, 800)
    securityServer({ status: () => WEAK })
    const { host } = renderApp(worker(), '/', { width: 390, height: 800 })
    await expect.element(banner()).toBeVisible()
    const box = banner().element().getBoundingClientRect()
    expect(box.width).toBeLessThanOrEqual(390)
    expect(banner().element().scrollWidth).toBeLessThanOrEqual(390)
    expect(host.scrollWidth).toBeLessThanOrEqual(390)
  })
})
