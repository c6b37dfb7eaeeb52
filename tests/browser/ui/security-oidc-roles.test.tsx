// Settings > Security > Single sign-on, the roles (issue 29 item 3): group → role rows with add
// and remove, the default role, sent with the panel's Save, the server's 400 shown, read-only under
// environment variables, and the panel at 390 px in dark mode. The stubbed fetch answers as the
// real routes do (tested in tests/unit/server/auth/oidc-roles.test.ts).
import { describe, expect, test } from 'vitest'
import { page } from 'vitest/browser'
import { oidcErrorMessage } from '../../../src/ui/auth/sso.ts'
import { setDark } from '../../../src/ui/state.ts'
import { useAuthHarness, type Json } from './auth-harness.ts'
import { OIDC, bodyOf, openSecurityTab, securityServer, toast } from './security-harness.ts'

useAuthHarness()

const MAPPED = {
  ...OIDC,
  enabled: true,
  issuerUrl: 'https://auth.example.com/application/o/pulse/',
  clientId: 'pulse',
  roleMapping: [{ group: 'ops', role: 'operator' }],
  defaultRole: 'viewer',
}

const panel = () => page.getByRole('region', { name: 'Single sign-on (OIDC)' })
const field = (label: string) => panel().getByLabelText(label, { exact: true })
const save = () => panel().getByRole('button', { name: 'Save', exact: true })

/** A server whose PUT echoes the saved config, unless `onPut` answers. */
function oidcServer(initial: Json, onPut?: (body: Json) => Response | undefined) {
  let config: Json = { ...initial }
  return securityServer({
    routes: {
      'GET /api/security/oidc': () => Response.json(config),
      'PUT /api/security/oidc': (body) => {
        const answer = onPut?.(body)
        if (answer) return answer
        config = { ...config, ...body }
        return Response.json(config)
      },
    },
  })
}

describe('OIDC panel roles', () => {
  test('the login screen names a refusal for want of a role', () => {
    expect(oidcErrorMessage('role_restricted')).toBe(
      'Your account is not in a group that has a role in Pulse. Please contact your administrator.',
    )
  })

  test('shows the mapping; add, change and remove rows and the default role, then Save sends them', async () => {
    const fetchMock = oidcServer(MAPPED)
    await openSecurityTab()
    await expect.element(field('Group 1')).toHaveValue('ops')
    await expect.element(field('Role of group 1')).toHaveValue('operator')
    await expect.element(field('Role of a user in no mapped group')).toHaveValue('viewer')
    await expect.element(save()).toBeDisabled()

    await panel().getByRole('button', { name: 'Add group' }).click()
    await field('Group 2').fill(' admins ')
    await field('Role of group 2').selectOptions('admin')
    await panel().getByRole('button', { name: 'Add group' }).click()
    await field('Group 3').fill('wall')
    // A row left blank is not sent.
    await panel().getByRole('button', { name: 'Add group' }).click()
    await panel().getByRole('button', { name: 'Remove group ops' }).click()
    await expect.element(field('Group 1')).toHaveValue(' admins ')
    await field('Role of a user in no mapped group').selectOptions('none')
    await save().click()
    await expect.element(toast('OIDC settings updated')).toBeVisible()
    expect(bodyOf(fetchMock, 'PUT', '/api/security/oidc')).toMatchObject({
      roleMapping: [
        { group: 'admins', role: 'admin' },
        { group: 'wall', role: 'viewer' },
      ],
      defaultRole: 'none',
    })
    await expect.element(save()).toBeDisabled()
  })

  test("shows the server's 400 naming the row", async () => {
    oidcServer(MAPPED, () =>
      Response.json(
        { code: 'FIELD_INVALID', message: 'roleMapping.1.group: "ops" is mapped twice.' },
        { status: 400 },
      ),
    )
    await openSecurityTab()
    await panel().getByRole('button', { name: 'Add group' }).click()
    await field('Group 2').fill('ops')
    await save().click()
    await expect
      .element(panel().getByText('roleMapping.1.group: "ops" is mapped twice.'))
      .toBeVisible()
  })

  test('is read-only when the environment sets it', async () => {
    oidcServer({ ...MAPPED, envOverrides: ['roleMapping', 'defaultRole'] })
    await openSecurityTab()
    await expect.element(field('Group 1')).toBeDisabled()
    await expect.element(field('Role of a user in no mapped group')).toBeDisabled()
    await expect.element(panel().getByRole('button', { name: 'Add group' })).toBeDisabled()
    await expect.element(panel().getByText('Set by OIDC_ROLE_MAPPING')).toBeVisible()
    await expect.element(panel().getByText('Set by OIDC_DEFAULT_ROLE')).toBeVisible()
    expect(save().query()).toBeNull()
  })

  test('fits a 390 px phone in dark mode', async () => {
    await page.viewport(390, 800)
    setDark(true)
    try {
      oidcServer({
        ...MAPPED,
        roleMapping: [{ group: 'a-rather-long-group-name-from-the-provider', role: 'admin' }],
      })
      const { host } = await openSecurityTab({ width: 390, height: 800 })
      await expect.element(field('Role of group 1')).toBeVisible()
      const main = host.querySelector('main')!
      expect(main.scrollWidth).toBeLessThanOrEqual(main.clientWidth)
      const select = field('Role of group 1').element()
      expect(select.getBoundingClientRect().right).toBeLessThanOrEqual(390)
      expect(getComputedStyle(select).backgroundColor).not.toBe('rgb(255, 255, 255)')
    } finally {
      setDark(false)
    }
  })
})
