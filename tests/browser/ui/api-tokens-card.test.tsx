// Settings > Security > API tokens (issue 29 item 4) with a stubbed fetch: the list, a new token
// shown once with Copy, a 400 naming the field, Revoke asking first, and the card at 390 px in
// dark mode. The real routes are tested in tests/unit/server/auth/api-tokens.test.ts.
import { describe, expect, test, vi } from 'vitest'
import { page } from 'vitest/browser'
import { setDark } from '../../../src/ui/state.ts'
import { callsTo, useAuthHarness } from './auth-harness.ts'
import { bodyOf, dialog, openSecurityTab, securityServer, toast } from './security-harness.ts'

useAuthHarness()

const VALUE = 'f00dfeed'.repeat(6)
const DEFAULT = {
  id: 'tok-default',
  name: 'default',
  role: 'admin',
  hint: 'a1b2c3d4...8f90',
  createdAt: '2026-03-01T10:00:00.000Z',
  lastUsedAt: '2026-03-02T11:30:00.000Z',
}

/** A server holding `tokens`; POST adds one, DELETE removes one. */
function tokenServer(tokens: Array<Record<string, unknown>> = [DEFAULT]) {
  const held = [...tokens]
  return securityServer({
    routes: {
      'GET /api/security/tokens': () => Response.json({ tokens: held }),
      'POST /api/security/tokens': (body) => {
        if (body.name === 'default') {
          return Response.json(
            { code: 'FIELD_INVALID', message: 'name: is already taken.' },
            { status: 400 },
          )
        }
        const created = {
          id: 'tok-new',
          name: body.name,
          role: body.role,
          hint: `${VALUE.slice(0, 8)}...${VALUE.slice(-4)}`,
          createdAt: '2026-03-03T09:00:00.000Z',
          lastUsedAt: null,
        }
        held.push(created)
        return Response.json({ ...created, token: VALUE }, { status: 201 })
      },
    },
    extra: (url, init) => {
      const match = /\/api\/security\/tokens\/([^/?]+)$/.exec(url)
      if (!match || init?.method !== 'DELETE') return undefined
      const index = held.findIndex((t) => t.id === match[1])
      if (index < 0) return Response.json({ code: 'NOT_FOUND' }, { status: 404 })
      held.splice(index, 1)
      return Response.json({ success: true })
    },
  })
}

const card = () => page.getByRole('region', { name: 'API tokens' })
const row = (name: string) => document.querySelector(`[data-token="${name}"]`)

describe('API tokens card', () => {
  test('lists each token with its role, hint, creation and last use', async () => {
    tokenServer([
      DEFAULT,
      { ...DEFAULT, id: 'tok-2', name: 'grafana', role: 'viewer', lastUsedAt: null },
    ])
    await openSecurityTab()
    await expect.element(card().getByText('grafana')).toBeVisible()
    expect(row('default')?.textContent).toMatch(/admin/)
    expect(row('default')?.textContent).toMatch(/a1b2c3d4\.\.\.8f90/)
    expect(row('default')?.textContent).toMatch(/Created/)
    expect(row('default')?.textContent).toMatch(/Last used/)
    expect(row('grafana')?.textContent).toMatch(/viewer/)
    expect(row('grafana')?.textContent).toMatch(/Never used/)
  })

  test('creates a token and shows its value once, with Copy', async () => {
    const writeText = vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue(undefined)
    const fetchMock = tokenServer()
    await openSecurityTab()
    await expect.element(card().getByText('default')).toBeVisible()
    await card().getByRole('button', { name: 'New token' }).click()
    const form = dialog('New API token')
    await form.getByLabelText('Name').fill('grafana')
    await form.getByLabelText('Role').selectOptions('operator')
    await form.getByRole('button', { name: 'Create token' }).click()
    await expect.element(form).toHaveTextContent(/it will not be shown again/)
    await expect.element(form.getByText(VALUE)).toBeVisible()
    expect(bodyOf(fetchMock, 'POST', '/api/security/tokens')).toEqual({
      name: 'grafana',
      role: 'operator',
    })
    await form.getByRole('button', { name: /^Copy token/ }).click()
    expect(writeText).toHaveBeenCalledWith(VALUE)
    await form.getByRole('button', { name: 'Done' }).click()
    expect(dialog('New API token').query()).toBeNull()
    // Listed, and the value is nowhere on the page any more.
    await expect.element(card().getByText('grafana')).toBeVisible()
    expect(page.getByText(VALUE).query()).toBeNull()
  })

  test("shows the server's 400, naming the field, and keeps the form", async () => {
    tokenServer()
    await openSecurityTab()
    await card().getByRole('button', { name: 'New token' }).click()
    const form = dialog('New API token')
    await form.getByLabelText('Name').fill('default')
    await form.getByRole('button', { name: 'Create token' }).click()
    await expect.element(form.getByText('name: is already taken.')).toBeVisible()
    await expect.element(form.getByLabelText('Name')).toHaveValue('default')
  })

  test('asks before revoking; Cancel keeps the token, Revoke removes it', async () => {
    const fetchMock = tokenServer()
    await openSecurityTab()
    await card().getByRole('button', { name: 'Revoke default' }).click()
    const confirm = page.getByRole('alertdialog', { name: 'Revoke the token "default"?' })
    await expect.element(confirm).toHaveTextContent(/stops working at once/)
    await confirm.getByRole('button', { name: 'Cancel' }).click()
    expect(callsTo(fetchMock, 'DELETE', '/api/security/tokens/tok-default')).toHaveLength(0)
    expect(row('default')).not.toBeNull()

    await card().getByRole('button', { name: 'Revoke default' }).click()
    await confirm.getByRole('button', { name: 'Revoke token' }).click()
    await expect.element(toast('Token "default" revoked')).toBeVisible()
    expect(callsTo(fetchMock, 'DELETE', '/api/security/tokens/tok-default')).toHaveLength(1)
    await expect.element(card().getByText('No API tokens.')).toBeVisible()
  })

  test('fits a 390 px phone in dark mode', async () => {
    await page.viewport(390, 800)
    setDark(true)
    try {
      tokenServer([DEFAULT, { ...DEFAULT, id: 'tok-2', name: 'a-rather-long-token-name-for-ci' }])
      const { host } = await openSecurityTab({ width: 390, height: 800 })
      await expect.element(card().getByText('a-rather-long-token-name-for-ci')).toBeVisible()
      const main = host.querySelector('main')!
      expect(main.scrollWidth).toBeLessThanOrEqual(main.clientWidth)
      expect(getComputedStyle(card().element()).backgroundColor).not.toBe('rgb(255, 255, 255)')
      await card().getByRole('button', { name: 'New token' }).click()
      const panel = dialog('New API token').element()
      expect(panel.getBoundingClientRect().width).toBeLessThanOrEqual(390)
      expect(getComputedStyle(panel).backgroundColor).not.toBe('rgb(255, 255, 255)')
    } finally {
      setDark(false)
    }
  })
})
