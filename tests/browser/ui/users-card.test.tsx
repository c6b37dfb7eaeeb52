// Settings > Security > Users (issue 29 item 2) with a stubbed fetch: the list with role and
// status, Add user (a 400 naming the field keeps the form), a role change, Disable, Reset
// password, Delete asking first, and the card at 390 px in dark mode. The real routes are tested
// in tests/unit/server/http/users.test.ts.
import { describe, expect, test } from 'vitest'
import { page } from 'vitest/browser'
import { setDark } from '../../../src/ui/state.ts'
import { callsTo, useAuthHarness } from './auth-harness.ts'
import {
  ADMIN_USER,
  bodyOf,
  dialog,
  openSecurityTab,
  securityServer,
  toast,
} from './security-harness.ts'

useAuthHarness()

const DANA = { ...ADMIN_USER, username: 'dana', role: 'operator' }

/** A server holding `users`; POST adds one, PUT changes one, DELETE removes one. */
function userServer(users: Array<Record<string, unknown>> = [ADMIN_USER, DANA]) {
  const held = users.map((u) => ({ ...u }))
  return securityServer({
    routes: {
      'GET /api/users': () => Response.json({ users: held }),
      'POST /api/users': (body) => {
        if (held.some((u) => u.username === body.username)) {
          return Response.json(
            { code: 'FIELD_INVALID', message: 'username: is taken.' },
            { status: 400 },
          )
        }
        const user = { ...ADMIN_USER, username: body.username, role: body.role }
        held.push(user)
        return Response.json(user, { status: 201 })
      },
    },
    extra: (url, init) => {
      const match = /\/api\/users\/([^/?]+)$/.exec(url)
      if (!match) return undefined
      const index = held.findIndex((u) => u.username === decodeURIComponent(match[1]!))
      if (index < 0) return Response.json({ code: 'USER_NOT_FOUND' }, { status: 404 })
      if (init?.method === 'DELETE') {
        held.splice(index, 1)
        return Response.json({ success: true })
      }
      if (init?.method === 'PUT') {
        const { password: _password, ...changes } = JSON.parse(String(init.body)) as Record<
          string,
          unknown
        >
        held[index] = { ...held[index]!, ...changes }
        return Response.json(held[index])
      }
      return undefined
    },
  })
}

const card = () => page.getByRole('region', { name: 'Users' })
const row = (name: string) => document.querySelector<HTMLElement>(`[data-user="${name}"]`)

describe('Users card', () => {
  test('lists each user with role and status', async () => {
    userServer([ADMIN_USER, { ...DANA, disabled: true }])
    await openSecurityTab()
    await expect.element(card().getByLabelText('Role of dana')).toBeVisible()
    expect(row('dana')?.textContent).toMatch(/Disabled/)
    expect(row('admin')?.textContent).toMatch(/Active/)
    await expect.element(card().getByLabelText('Role of dana')).toHaveValue('operator')
    await expect.element(card().getByLabelText('Role of admin')).toHaveValue('admin')
  })

  test("adds a user, and shows the server's 400 naming the field", async () => {
    const fetchMock = userServer()
    await openSecurityTab()
    await card().getByRole('button', { name: 'Add user' }).click()
    const form = dialog('Add user')
    await form.getByLabelText('Username').fill('dana')
    await form.getByLabelText('Password').fill('long-enough-1')
    await form.getByRole('button', { name: 'Add user' }).click()
    await expect.element(form.getByText('username: is taken.')).toBeVisible()
    await form.getByLabelText('Username').fill('vera')
    await form.getByLabelText('Role').selectOptions('viewer')
    await form.getByRole('button', { name: 'Add user' }).click()
    await expect.element(toast('User vera added')).toBeVisible()
    expect(bodyOf(fetchMock, 'POST', '/api/users', 1)).toEqual({
      username: 'vera',
      password: 'long-enough-1',
      role: 'viewer',
    })
    await expect.element(card().getByLabelText('Role of vera')).toBeVisible()
  })

  test('changes a role, disables, resets a password and deletes after asking', async () => {
    const fetchMock = userServer()
    await openSecurityTab()
    await card().getByLabelText('Role of dana').selectOptions('viewer')
    await expect.element(toast('dana is now viewer')).toBeVisible()
    expect(bodyOf(fetchMock, 'PUT', '/api/users/dana')).toEqual({ role: 'viewer' })

    await card().getByRole('button', { name: 'Disable dana' }).click()
    await expect.element(toast('dana is disabled')).toBeVisible()
    await expect.element(card().getByRole('button', { name: 'Enable dana' })).toBeVisible()

    await card().getByRole('button', { name: 'Reset password of dana' }).click()
    const reset = dialog('Reset the password of dana')
    await reset.getByLabelText('New password').fill('a-new-password')
    await reset.getByRole('button', { name: 'Reset password' }).click()
    await expect.element(toast('Password of dana reset')).toBeVisible()
    expect(bodyOf(fetchMock, 'PUT', '/api/users/dana', 2)).toEqual({ password: 'a-new-password' })

    await card().getByRole('button', { name: 'Delete dana' }).click()
    const confirm = page.getByRole('alertdialog', { name: 'Delete the user "dana"?' })
    await confirm.getByRole('button', { name: 'Cancel' }).click()
    expect(callsTo(fetchMock, 'DELETE', '/api/users/dana')).toHaveLength(0)
    await card().getByRole('button', { name: 'Delete dana' }).click()
    await confirm.getByRole('button', { name: 'Delete user' }).click()
    await expect.element(toast('User dana deleted')).toBeVisible()
    expect(callsTo(fetchMock, 'DELETE', '/api/users/dana')).toHaveLength(1)
    await expect.poll(() => row('dana')).toBeNull()
  })

  test('fits a 390 px phone in dark mode', async () => {
    await page.viewport(390, 800)
    setDark(true)
    try {
      userServer([ADMIN_USER, { ...DANA, username: 'a-rather-long-user.name@example.com' }])
      const { host } = await openSecurityTab({ width: 390, height: 800 })
      await expect
        .element(card().getByLabelText('Role of a-rather-long-user.name@example.com'))
        .toBeVisible()
      const main = host.querySelector('main')!
      expect(main.scrollWidth).toBeLessThanOrEqual(main.clientWidth)
      expect(getComputedStyle(card().element()).backgroundColor).not.toBe('rgb(255, 255, 255)')
      await card().getByRole('button', { name: 'Add user' }).click()
      const panel = dialog('Add user').element()
      expect(panel.getBoundingClientRect().width).toBeLessThanOrEqual(390)
      expect(getComputedStyle(panel).backgroundColor).not.toBe('rgb(255, 255, 255)')
    } finally {
      setDark(false)
    }
  })
})
