// Settings > Security > Single sign-on (spec 001 §2, §4 OIDC, §5 OIDC rules, §8 texts) with a
// stubbed fetch: GET/PUT /api/security/oidc of contract auth-api-2.md.
import { describe, expect, test, vi } from 'vitest'
import { page } from 'vitest/browser'
import { CLEAR_SECRET_TOAST_MS } from '../../../src/ui/settings/security/OidcPanel.tsx'
import {
  formFromConfig,
  normalizeOidc,
  splitDomains,
  splitList,
  updateFromForm,
} from '../../../src/ui/settings/security/oidc.ts'
import { callsTo, useAuthHarness, type Json } from './auth-harness.ts'
import { OIDC, bodyOf, openSecurityTab, securityServer, toast } from './security-harness.ts'

useAuthHarness()

const CONFIGURED_OIDC = {
  ...OIDC,
  enabled: true,
  issuerUrl: 'https://auth.example.com/application/o/pulse/',
  clientId: 'pulse',
  clientSecretSet: true,
  logoutUrl: 'https://auth.example.com/logout',
  allowedGroups: ['admins'],
}

const panel = () => page.getByRole('region', { name: 'Single sign-on (OIDC)' })
const field = (label: string) => panel().getByLabelText(label, { exact: true })
const save = () => panel().getByRole('button', { name: 'Save', exact: true })
const reset = () => panel().getByRole('button', { name: 'Reset', exact: true })
const enable = () => panel().getByRole('switch', { name: 'Enable single sign-on' })
const advancedToggle = () => panel().getByRole('button', { name: /advanced OIDC options/ })

/** A server whose PUT echoes the saved config (secret flags applied). */
function oidcServer(initial: Json, onPut?: (body: Json) => Response | undefined) {
  let config: Json = { ...initial }
  return securityServer({
    routes: {
      'GET /api/security/oidc': () => Response.json(config),
      'PUT /api/security/oidc': (body) => {
        const answer = onPut?.(body)
        if (answer) return answer
        const { clientSecret, clearClientSecret, ...rest } = body
        config = {
          ...config,
          ...rest,
          clientSecretSet: clearClientSecret
            ? false
            : typeof clientSecret === 'string' || config.clientSecretSet === true,
        }
        return Response.json(config)
      },
    },
  })
}

describe('OIDC form model (spec 001 §5)', () => {
  test('lists split on commas and whitespace; domains without @', () => {
    expect(splitList(' a, b\tc\n\nd ,, e ')).toEqual(['a', 'b', 'c', 'd', 'e'])
    expect(splitDomains('@example.com, corp.example.org @@x.io')).toEqual([
      'example.com',
      'corp.example.org',
      'x.io',
    ])
  })

  test('text trimmed, blank scopes and claims at their defaults, the secret only when typed', () => {
    const form = {
      ...formFromConfig(normalizeOidc(OIDC)),
      issuerUrl: '  https://id.example.com ',
      clientId: ' pulse ',
      scopes: '',
      usernameClaim: ' ',
    }
    const update = updateFromForm(form)
    expect(update.issuerUrl).toBe('https://id.example.com')
    expect(update.clientId).toBe('pulse')
    expect(update.scopes).toEqual(['openid', 'profile', 'email'])
    expect(update.usernameClaim).toBe('preferred_username')
    expect('clientSecret' in update).toBe(false)
    expect('clearClientSecret' in update).toBe(false)
    expect(updateFromForm({ ...form, clearClientSecret: true }).clearClientSecret).toBe(true)
    const typed = updateFromForm({ ...form, clearClientSecret: true, clientSecret: ' s3cret ' })
    expect(typed.clientSecret).toBe('s3cret')
    expect('clearClientSecret' in typed).toBe(false)
  })

  test('a partial or odd answer reads with empty defaults', () => {
    const config = normalizeOidc({ enabled: 'yes', scopes: ['openid', 3], envOverrides: null })
    expect(config.enabled).toBe(false)
    expect(config.scopes).toEqual(['openid'])
    expect(config.envOverrides).toEqual([])
    expect(config.issuerUrl).toBe('')
  })
})

describe('OIDC panel (spec 001 §4)', () => {
  test('loads the config: fields, stored-secret and auto-detect placeholders, Save off until a change', async () => {
    oidcServer(CONFIGURED_OIDC)
    await openSecurityTab()
    await expect.element(field('Issuer URL')).toHaveValue(CONFIGURED_OIDC.issuerUrl)
    await expect.element(field('Client ID')).toHaveValue('pulse')
    await expect.element(field('Client secret')).toHaveValue('')
    expect(field('Client secret').element().getAttribute('placeholder')).toMatch(/stored/)
    expect(field('Redirect URL').element().getAttribute('placeholder')).toBe(OIDC.defaultRedirect)
    await expect.element(field('Logout URL')).toHaveValue(CONFIGURED_OIDC.logoutUrl)
    await expect.element(enable()).toHaveAttribute('aria-checked', 'true')
    await expect.element(save()).toBeDisabled()
    await expect.element(reset()).toBeDisabled()
    // Advanced options are hidden until asked for.
    expect(field('Scopes').query()).toBeNull()
    await expect.element(advancedToggle()).toHaveTextContent('Show advanced OIDC options')
    await advancedToggle().click()
    await expect.element(advancedToggle()).toHaveTextContent('Hide advanced OIDC options')
    await expect.element(advancedToggle()).toHaveAttribute('aria-expanded', 'true')
    await expect.element(field('Scopes')).toHaveValue('openid, profile, email')
    await expect.element(field('Allowed groups')).toHaveValue('admins')
  })

  test('Save sends the body: lists split, domains without @, clearClientSecret; then the toast', async () => {
    const fetchMock = oidcServer(OIDC)
    await openSecurityTab()
    await expect.element(enable()).toHaveAttribute('aria-checked', 'false')
    await enable().click()
    await field('Issuer URL').fill(' https://id.example.com/realms/lab ')
    await field('Client ID').fill('pulse-ui')
    await field('Logout URL').fill('https://id.example.com/logout')
    await advancedToggle().click()
    await field('Scopes').fill('openid profile,email   groups')
    await field('Groups claim').fill('roles')
    await field('Allowed groups').fill('ops, admins')
    await field('Allowed domains').fill('@example.com, corp.example.org')
    await field('Allowed emails').fill('a@example.com\nb@corp.example.org')
    await save().click()
    await expect.element(toast('OIDC settings updated')).toBeVisible()
    expect(bodyOf(fetchMock, 'PUT', '/api/security/oidc')).toEqual({
      enabled: true,
      issuerUrl: 'https://id.example.com/realms/lab',
      clientId: 'pulse-ui',
      redirectUrl: '',
      logoutUrl: 'https://id.example.com/logout',
      scopes: ['openid', 'profile', 'email', 'groups'],
      usernameClaim: 'preferred_username',
      emailClaim: 'email',
      groupsClaim: 'roles',
      allowedGroups: ['ops', 'admins'],
      allowedDomains: ['example.com', 'corp.example.org'],
      allowedEmails: ['a@example.com', 'b@corp.example.org'],
      roleMapping: [],
      defaultRole: 'admin',
    })
    // The saved config is the new baseline; the status is read again (SSO tile on).
    await expect.element(save()).toBeDisabled()
    await expect.element(field('Issuer URL')).toHaveValue('https://id.example.com/realms/lab')
  })

  test('Clear stored secret marks it (toast 2.5 s) and sends clearClientSecret; typing a secret cancels the mark', async () => {
    const fetchMock = oidcServer(CONFIGURED_OIDC)
    await openSecurityTab()
    await panel().getByRole('button', { name: 'Clear stored secret' }).click()
    await expect.element(toast('Client secret will be cleared on save')).toBeVisible()
    expect(CLEAR_SECRET_TOAST_MS).toBe(2_500)
    expect(field('Client secret').element().getAttribute('placeholder')).toBe(
      'Will be cleared on save',
    )
    expect(panel().getByRole('button', { name: 'Clear stored secret' }).query()).toBeNull()
    await save().click()
    await expect.element(toast('OIDC settings updated')).toBeVisible()
    const first = bodyOf(fetchMock, 'PUT', '/api/security/oidc')
    expect(first.clearClientSecret).toBe(true)
    expect('clientSecret' in first).toBe(false)
    // Saved: no secret stored any more, so no clear action.
    await expect
      .element(field('Client secret'))
      .toHaveAttribute('placeholder', 'Optional with PKCE')

    // A new secret typed after marking a clear: the secret wins.
    await field('Client secret').fill('new-secret')
    await save().click()
    await expect.poll(() => callsTo(fetchMock, 'PUT', '/api/security/oidc').length).toBe(2)
    const second = bodyOf(fetchMock, 'PUT', '/api/security/oidc', 1)
    expect(second.clientSecret).toBe('new-secret')
    expect('clearClientSecret' in second).toBe(false)
  })

  test('typing a new secret after Clear cancels the mark before saving', async () => {
    const fetchMock = oidcServer(CONFIGURED_OIDC)
    await openSecurityTab()
    await panel().getByRole('button', { name: 'Clear stored secret' }).click()
    await field('Client secret').fill('replacement')
    await save().click()
    await expect.element(toast('OIDC settings updated')).toBeVisible()
    const body = bodyOf(fetchMock, 'PUT', '/api/security/oidc')
    expect(body.clientSecret).toBe('replacement')
    expect('clearClientSecret' in body).toBe(false)
  })

  test('required fields when enabled, http(s) URLs; nothing is sent while invalid', async () => {
    const fetchMock = oidcServer(OIDC)
    await openSecurityTab()
    await enable().click()
    await save().click()
    await expect.element(panel().getByRole('alert')).toHaveTextContent('Issuer URL is required')
    await field('Issuer URL').fill('ftp://id.example.com')
    await save().click()
    await expect.element(panel().getByRole('alert')).toHaveTextContent('Client ID is required')
    await field('Client ID').fill('pulse')
    await save().click()
    await expect
      .element(panel().getByRole('alert'))
      .toHaveTextContent('Issuer URL must start with http:// or https://')
    expect(callsTo(fetchMock, 'PUT', '/api/security/oidc')).toHaveLength(0)
  })

  test('a server refusal: error toast and the server text', async () => {
    oidcServer(OIDC, () =>
      Response.json(
        { code: 'VALIDATION', message: 'issuerUrl: the provider could not be reached.' },
        { status: 400 },
      ),
    )
    await openSecurityTab()
    await field('Client ID').fill('pulse')
    await save().click()
    await expect.element(toast('Failed to save OIDC settings')).toBeVisible()
    await expect
      .element(panel().getByRole('alert'))
      .toHaveTextContent('issuerUrl: the provider could not be reached.')
  })

  test('Reset restores the loaded values and the secret mark', async () => {
    oidcServer(CONFIGURED_OIDC)
    await openSecurityTab()
    await field('Issuer URL').fill('https://other.example.com')
    await enable().click()
    await panel().getByRole('button', { name: 'Clear stored secret' }).click()
    await expect.element(reset()).toBeEnabled()
    await reset().click()
    await expect.element(field('Issuer URL')).toHaveValue(CONFIGURED_OIDC.issuerUrl)
    await expect.element(enable()).toHaveAttribute('aria-checked', 'true')
    await expect.element(panel().getByRole('button', { name: 'Clear stored secret' })).toBeVisible()
    await expect.element(save()).toBeDisabled()
  })

  test('environment overrides: read-only with a note naming the variables, no Save', async () => {
    oidcServer({ ...CONFIGURED_OIDC, envOverrides: ['issuerUrl', 'clientId'] })
    await openSecurityTab()
    const note = panel().getByRole('note', { name: 'Managed by environment variables' })
    await expect.element(note).toHaveTextContent(/OIDC_ISSUER_URL, OIDC_CLIENT_ID/)
    await expect.element(field('Issuer URL')).toBeDisabled()
    await expect.element(field('Client secret')).toBeDisabled()
    await expect.element(field('Logout URL')).toBeDisabled()
    await expect.element(enable()).toBeDisabled()
    await expect.element(panel().getByText('Set by OIDC_ISSUER_URL')).toBeVisible()
    expect(save().query()).toBeNull()
    expect(panel().getByRole('button', { name: 'Clear stored secret' }).query()).toBeNull()
    // The advanced options can still be read.
    await advancedToggle().click()
    await expect.element(field('Scopes')).toBeDisabled()
  })

  test('a failed load: error toast, the reason and Try again', async () => {
    let fail = true
    securityServer({
      routes: {
        'GET /api/security/oidc': () =>
          fail
            ? Response.json({ message: 'Internal error' }, { status: 500 })
            : Response.json(CONFIGURED_OIDC),
      },
    })
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    await openSecurityTab()
    await expect.element(toast('Failed to load OIDC settings')).toBeVisible()
    await expect
      .element(panel().getByText('Failed to load OIDC settings: Internal error'))
      .toBeVisible()
    fail = false
    await panel().getByRole('button', { name: 'Try again' }).click()
    await expect.element(field('Client ID')).toHaveValue('pulse')
  })
})
