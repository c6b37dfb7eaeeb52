// Settings > Security > Sessions (issue 29 item 5) with a stubbed fetch: the user's sessions with
// browser, address, last seen or connected now; End asking first; signing out the others; an
// admin's switch to everyone's; a viewer's card; 390 px in dark mode. The real routes and the
// sockets they close: tests/unit/server/http/sessions.test.ts.
import { describe, expect, test } from 'vitest'
import { page } from 'vitest/browser'
import type { SessionView } from '../../../src/shared/model/sessions.ts'
import { setDark } from '../../../src/ui/state.ts'
import { callsTo, useAuthHarness, worker } from './auth-harness.ts'
import { renderApp } from './render.tsx'
import { openSecurityTab, securityServer, STATUS, toast } from './security-harness.ts'

useAuthHarness()

const session = (id: string, changes: Partial<SessionView> = {}): SessionView => ({
  id,
  username: 'admin',
  method: 'password',
  createdAt: '2026-03-01T10:00:00.000Z',
  lastSeenAt: '2026-03-02T11:30:00.000Z',
  expiresAt: '2026-03-09T11:30:00.000Z',
  address: '192.0.2.10',
  device: 'Firefox on Linux',
  userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
  current: false,
  liveConnections: 0,
  ...changes,
})

const HERE = session('aaaaaaaaaaaaaaaaaa', {
  current: true,
  device: 'Chrome on Linux',
  liveConnections: 1,
})
const PHONE = session('bbbbbbbbbbbbbbbbbb', { device: 'Safari on iPhone', address: '198.51.100.7' })
const LAPTOP = session('cccccccccccccccccc', { liveConnections: 2 })
const VERA = session('dddddddddddddddddd', { username: 'vera', device: 'Edge on Windows' })

/** A server holding the caller's `own` sessions and `others'`; DELETEs remove them. */
function sessionServer(own: SessionView[], others: SessionView[] = [], status: object = STATUS) {
  const held = [...own, ...others]
  const mine = () => held.filter((s) => s.username === 'admin')
  return securityServer({
    status: () => status,
    routes: {
      'GET /api/security/sessions': () => Response.json({ sessions: mine(), truncated: false }),
      'GET /api/security/sessions/all': () => Response.json({ sessions: held, truncated: false }),
      'DELETE /api/security/sessions': () => {
        const ended = mine().filter((s) => !s.current)
        for (const s of ended) held.splice(held.indexOf(s), 1)
        return Response.json({ success: true, ended: ended.length })
      },
    },
    extra: (url, init) => {
      const match = /\/api\/security\/sessions\/([0-9a-f]+)$/.exec(url)
      if (!match || init?.method !== 'DELETE') return undefined
      const index = held.findIndex((s) => s.id === match[1])
      if (index < 0) return Response.json({ code: 'NOT_FOUND' }, { status: 404 })
      held.splice(index, 1)
      return Response.json({ success: true, current: false })
    },
  })
}

const card = () => page.getByRole('region', { name: 'Sessions' })
const row = (id: string) => document.querySelector(`[data-session="${id}"]`)

describe('Sessions card', () => {
  test('lists each session: this one marked, connected now or last seen, no End for this one', async () => {
    sessionServer([HERE, PHONE, LAPTOP])
    await openSecurityTab()
    await expect.element(card().getByText('Safari on iPhone')).toBeVisible()
    expect(row(HERE.id)?.textContent).toMatch(/This session/)
    expect(row(HERE.id)?.textContent).toMatch(/Connected now/)
    expect(row(PHONE.id)?.textContent).toMatch(/198\.51\.100\.7/)
    expect(row(PHONE.id)?.textContent).toMatch(/Last seen/)
    expect(row(PHONE.id)?.textContent).not.toMatch(/This session|Connected now/)
    expect(row(LAPTOP.id)?.textContent).toMatch(/Connected now/)
    expect(row(PHONE.id)?.querySelector('[title]')?.getAttribute('title')).toBe(PHONE.userAgent)
    expect(row(HERE.id)?.querySelector('button')).toBeNull()
    await expect
      .element(card().getByRole('button', { name: 'End session on Safari on iPhone' }))
      .toBeVisible()
  })

  test("this session is connected now while this page's socket is, even if listed before it opened", async () => {
    sessionServer([{ ...HERE, liveConnections: 0 }, PHONE])
    const api = worker()
    renderApp(api, '/settings/security')
    await expect.element(card().getByText('Safari on iPhone')).toBeVisible()
    expect(row(HERE.id)?.textContent).toMatch(/Connected now/)
    api.setConnection({ status: 'disconnected', attempt: 1 })
    await expect.poll(() => row(HERE.id)?.textContent).toMatch(/Last seen/)
  })

  test('asks before ending one; Cancel keeps it, End ends it and the list follows', async () => {
    const fetchMock = sessionServer([HERE, PHONE])
    await openSecurityTab()
    const end = card().getByRole('button', { name: 'End session on Safari on iPhone' })
    await end.click()
    const confirm = page.getByRole('alertdialog', {
      name: 'End the session on Safari on iPhone?',
    })
    await expect.element(confirm).toHaveTextContent(/at 198\.51\.100\.7 is signed out at once/)
    await confirm.getByRole('button', { name: 'Cancel' }).click()
    expect(callsTo(fetchMock, 'DELETE', `/api/security/sessions/${PHONE.id}`)).toHaveLength(0)

    await end.click()
    await confirm.getByRole('button', { name: 'End session' }).click()
    await expect.element(toast('Session on Safari on iPhone ended')).toBeVisible()
    expect(callsTo(fetchMock, 'DELETE', `/api/security/sessions/${PHONE.id}`)).toHaveLength(1)
    await expect.poll(() => row(PHONE.id)).toBeNull()
    expect(row(HERE.id)).not.toBeNull()
    // Nothing left to sign out elsewhere: the button goes.
    expect(card().getByRole('button', { name: 'Sign out other sessions' }).query()).toBeNull()
  })

  test('signs out every other session in one request', async () => {
    const fetchMock = sessionServer([HERE, PHONE, LAPTOP])
    await openSecurityTab()
    await card().getByRole('button', { name: 'Sign out other sessions' }).click()
    const confirm = page.getByRole('alertdialog', { name: 'Sign out 2 other sessions?' })
    await confirm.getByRole('button', { name: 'Sign out others' }).click()
    await expect.element(toast('2 other sessions signed out')).toBeVisible()
    expect(callsTo(fetchMock, 'DELETE', '/api/security/sessions')).toHaveLength(1)
    await expect.poll(() => row(PHONE.id) ?? row(LAPTOP.id)).toBeNull()
    expect(row(HERE.id)).not.toBeNull()
  })

  test("an admin switches to everyone's sessions and ends another user's", async () => {
    const fetchMock = sessionServer([HERE], [VERA])
    await openSecurityTab()
    await expect.element(card().getByText('Chrome on Linux')).toBeVisible()
    expect(row(VERA.id)).toBeNull()
    await card().getByRole('button', { name: 'Everyone' }).click()
    await expect.element(card().getByText('vera')).toBeVisible()
    await expect
      .element(card().getByRole('button', { name: 'Everyone' }))
      .toHaveAttribute('aria-pressed', 'true')
    await card().getByRole('button', { name: "End vera's session on Edge on Windows" }).click()
    await page
      .getByRole('alertdialog', { name: "End vera's session on Edge on Windows?" })
      .getByRole('button', { name: 'End session' })
      .click()
    await expect.poll(() => row(VERA.id)).toBeNull()
    expect(callsTo(fetchMock, 'DELETE', `/api/security/sessions/${VERA.id}`)).toHaveLength(1)
  })

  test('a viewer has the card for their own sessions, without the switch', async () => {
    const fetchMock = sessionServer([HERE, PHONE], [], {
      ...STATUS,
      role: 'viewer',
      authUsername: 'admin',
    })
    await openSecurityTab()
    await expect.element(card().getByText('Safari on iPhone')).toBeVisible()
    expect(card().getByRole('button', { name: 'Everyone' }).query()).toBeNull()
    expect(callsTo(fetchMock, 'GET', '/api/security/sessions/all')).toHaveLength(0)
    await expect.element(page.getByTestId('role-read-only')).toBeVisible()
  })

  test('says why the list is empty', async () => {
    sessionServer([])
    await openSecurityTab()
    await expect.element(card().getByText(/No sessions: signing in through a proxy/)).toBeVisible()
  })

  test("shows a failure with the server's reason", async () => {
    securityServer({
      routes: {
        'GET /api/security/sessions': () =>
          Response.json({ code: 'INTERNAL', message: 'The database is busy.' }, { status: 500 }),
      },
    })
    await openSecurityTab()
    await expect
      .element(card().getByText(/Failed to load the sessions: .*database is busy/))
      .toBeVisible()
  })

  test('fits a 390 px phone in dark mode', async () => {
    await page.viewport(390, 800)
    setDark(true)
    try {
      sessionServer([
        HERE,
        PHONE,
        session('eeeeeeeeeeeeeeeeee', {
          device: 'Chrome on Android',
          address: '2001:db8:1234:5678:9abc:def0:1234:5678',
        }),
      ])
      const { host } = await openSecurityTab({ width: 390, height: 800 })
      await expect.element(card().getByText('Chrome on Android')).toBeVisible()
      const main = host.querySelector('main')!
      expect(main.scrollWidth).toBeLessThanOrEqual(main.clientWidth)
      expect(getComputedStyle(card().element()).backgroundColor).not.toBe('rgb(255, 255, 255)')
    } finally {
      setDark(false)
    }
  })
})
