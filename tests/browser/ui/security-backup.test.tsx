// Settings > Security > Backup & restore (spec 001 §2 Modals, §5 Export and Import rules, §8
// texts): POST /api/config/export and /api/config/import of contract auth-api-2.md, stubbed.
import { describe, expect, test, vi } from 'vitest'
import { page } from 'vitest/browser'
import {
  API_TOKEN_STORAGE_KEY,
  defaultExportName,
  exportProblem,
  filenameFromDisposition,
} from '../../../src/ui/settings/security/security-api.ts'
import { callsTo, useAuthHarness } from './auth-harness.ts'
import {
  STATUS,
  bodyOf,
  dialog,
  headersOf,
  openSecurityTab,
  securityServer,
  spyReload,
  toast,
} from './security-harness.ts'

useAuthHarness()

const EXPORTED = {
  format: 'pulse-config',
  version: 1,
  exportedAt: '2025-03-02T10:00:00.000Z',
  kdf: { name: 'scrypt', N: 131072, r: 8, p: 1, salt: 'c2FsdA==' },
  cipher: 'aes-256-gcm',
  iv: 'aXY=',
  data: 'Y2lwaGVydGV4dA==',
}

/** Captures downloads made through a Blob link. */
function captureDownloads() {
  const blobs: Blob[] = []
  vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
    blobs.push(blob as Blob)
    return 'blob:export'
  })
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {})
  const names: string[] = []
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    names.push(this.download)
  })
  return { blobs, names }
}

const exportDialog = () => dialog('Export configuration')
const exportButton = () => exportDialog().getByRole('button', { name: 'Export', exact: true })
const requirement = (text: string) => page.getByText(text, { exact: true })

describe('export rules (spec 001 §5)', () => {
  test('exportProblem: login password by default, custom needs 12 characters', () => {
    expect(exportProblem(true, 'password', '')).toBe('Please enter your password')
    expect(exportProblem(true, 'password', 'short')).toBe('')
    expect(exportProblem(true, 'custom', '')).toBe('Please enter a passphrase')
    expect(exportProblem(true, 'custom', '12345678901')).toMatch(/at least 12 characters/)
    expect(exportProblem(true, 'custom', '123456789012')).toBe('')
    expect(exportProblem(false, 'custom', '')).toBe('Please enter a passphrase')
    expect(exportProblem(false, 'custom', 'x'.repeat(11))).toMatch(/at least 12/)
  })

  test('Content-Disposition file names', () => {
    expect(filenameFromDisposition('attachment; filename="pulse-config-2025-03-02.json"')).toBe(
      'pulse-config-2025-03-02.json',
    )
    expect(filenameFromDisposition('attachment; filename=plain.json')).toBe('plain.json')
    expect(
      filenameFromDisposition(
        'attachment; filename="fallback.json"; filename*=UTF-8\'\'caf%C3%A9.json',
      ),
    ).toBe('café.json')
    expect(filenameFromDisposition('attachment; filename="../../etc/passwd"')).toBe('passwd')
    expect(filenameFromDisposition('attachment')).toBeNull()
    expect(filenameFromDisposition(null)).toBeNull()
    expect(defaultExportName(new Date(2025, 0, 5))).toBe('pulse-config-2025-01-05.json')
  })
})

describe('export modal', () => {
  test('with login: the password by default, a custom passphrase of 12+; the file is downloaded', async () => {
    const downloads = captureDownloads()
    const fetchMock = securityServer({
      routes: {
        'POST /api/config/export': () =>
          new Response(JSON.stringify(EXPORTED), {
            headers: {
              'Content-Type': 'application/json',
              'Content-Disposition': 'attachment; filename="pulse-config-2025-03-02.json"',
            },
          }),
      },
    })
    await openSecurityTab()
    await page.getByRole('button', { name: 'Export configuration' }).click()
    await expect
      .element(exportDialog().getByRole('radio', { name: /Use your login password/ }))
      .toBeChecked()
    await expect
      .element(exportDialog().getByLabelText('Login password', { exact: true }))
      .toHaveFocus()
    await expect.element(exportButton()).toBeDisabled()
    await expect.element(requirement('Please enter your password')).toBeVisible()

    await exportDialog()
      .getByRole('radio', { name: /Use a custom passphrase/ })
      .click()
    await expect.element(requirement('Please enter a passphrase')).toBeVisible()
    await exportDialog().getByLabelText('Export passphrase').fill('12345678901')
    await expect.element(exportButton()).toBeDisabled()
    await expect
      .element(exportDialog().getByText(/at least 12 characters \(11 so far\)/))
      .toBeVisible()
    await exportDialog().getByLabelText('Export passphrase').fill('123456789012')
    await expect.element(exportButton()).toBeEnabled()

    // Back to the login password: its own field, kept separately.
    await exportDialog()
      .getByRole('radio', { name: /Use your login password/ })
      .click()
    await expect.element(exportButton()).toBeDisabled()
    await exportDialog().getByLabelText('Login password', { exact: true }).fill('my-login-pw')
    await exportButton().click()

    await expect.element(toast('Configuration exported successfully')).toBeVisible()
    expect(exportDialog().query()).toBeNull()
    expect(bodyOf(fetchMock, 'POST', '/api/config/export')).toEqual({
      passphrase: 'my-login-pw',
    })
    expect(downloads.names).toEqual(['pulse-config-2025-03-02.json'])
    expect(downloads.blobs[0]!.type).toBe('application/json')
    expect(JSON.parse(await downloads.blobs[0]!.text())).toEqual(EXPORTED)
  })

  test('without login (auth disabled): a passphrase only, no password choice', async () => {
    const downloads = captureDownloads()
    const fetchMock = securityServer({
      status: () => ({ disabled: true, hasAuthentication: false }),
      routes: { 'POST /api/config/export': () => Response.json(EXPORTED) },
    })
    await openSecurityTab()
    await page.getByRole('button', { name: 'Export configuration' }).click()
    expect(exportDialog().getByRole('radio').query()).toBeNull()
    await expect.element(requirement('Please enter a passphrase')).toBeVisible()
    await exportDialog().getByLabelText('Export passphrase').fill('a long passphrase')
    await exportButton().click()
    await expect.element(toast('Configuration exported successfully')).toBeVisible()
    expect(bodyOf(fetchMock, 'POST', '/api/config/export')).toEqual({
      passphrase: 'a long passphrase',
    })
    // No Content-Disposition: the dated default name.
    expect(downloads.names).toEqual([defaultExportName()])
  })

  test('a refusal shows the server text; 401 says export requires authentication', async () => {
    captureDownloads()
    let status = 400
    securityServer({
      routes: {
        'POST /api/config/export': () =>
          Response.json(
            {
              code: 'VALIDATION',
              message: 'passphrase: use your login password or at least 12 characters.',
            },
            { status },
          ),
      },
    })
    await openSecurityTab()
    await page.getByRole('button', { name: 'Export configuration' }).click()
    await exportDialog().getByLabelText('Login password', { exact: true }).fill('wrong')
    await exportButton().click()
    await expect
      .element(exportDialog().getByRole('alert'))
      .toHaveTextContent('passphrase: use your login password or at least 12 characters.')
    status = 401
    await exportButton().click()
    await expect
      .element(exportDialog().getByRole('alert'))
      .toHaveTextContent('Export requires authentication')
    await expect.element(exportDialog()).toBeVisible()
  })
})

describe('API-token-only instance (spec 001 §6)', () => {
  const tokenDialog = () => dialog('API token required')

  test('export asks for the token, sends it as X-API-Token, and asks again when it is refused', async () => {
    captureDownloads()
    sessionStorage.removeItem(API_TOKEN_STORAGE_KEY)
    const fetchMock = securityServer({
      status: () => ({
        hasAuthentication: true,
        hasPasswordLogin: false,
        authenticated: false,
        apiTokenConfigured: true,
      }),
      routes: {
        // Token-only mode leaves the live reads open: the start-up probe passes.
        'GET /api/state': () => Response.json({}),
        'POST /api/config/export': (_body, init) => {
          const token = (init?.headers as Record<string, string>)['X-API-Token']
          if (!token)
            return Response.json(
              { code: 'API_TOKEN_REQUIRED', message: 'API token required' },
              { status: 401 },
            )
          if (token !== 'the-right-token') {
            return Response.json(
              { code: 'API_TOKEN_INVALID', message: 'Invalid API token' },
              { status: 401 },
            )
          }
          return Response.json(EXPORTED)
        },
      },
    })
    await openSecurityTab()
    await page.getByRole('button', { name: 'Export configuration' }).click()
    await exportDialog().getByLabelText('Export passphrase').fill('a long passphrase')
    await exportButton().click()

    // Asked for the token; an empty one is refused with the spec's text.
    await expect.element(tokenDialog()).toBeVisible()
    await tokenDialog().getByRole('button', { name: 'Continue' }).click()
    await expect
      .element(tokenDialog().getByRole('alert'))
      .toHaveTextContent('Please enter the API token')
    await tokenDialog().getByLabelText('API token').fill('a-wrong-token')
    await tokenDialog().getByRole('button', { name: 'Continue' }).click()
    // Refused: forgotten, and asked again with the reason.
    await expect
      .element(tokenDialog().getByRole('alert'))
      .toHaveTextContent('Invalid or expired API token. Please re-enter.')
    expect(sessionStorage.getItem(API_TOKEN_STORAGE_KEY)).toBeNull()
    await tokenDialog().getByLabelText('API token').fill('the-right-token')
    await tokenDialog().getByRole('button', { name: 'Continue' }).click()

    await expect.element(toast('Configuration exported successfully')).toBeVisible()
    expect(headersOf(fetchMock, 'POST', '/api/config/export', 2)['X-API-Token']).toBe(
      'the-right-token',
    )
    expect(sessionStorage.getItem(API_TOKEN_STORAGE_KEY)).toBe('the-right-token')
    sessionStorage.removeItem(API_TOKEN_STORAGE_KEY)
  })
})

describe('import modal', () => {
  const importDialog = () => dialog('Restore configuration')
  const importButton = () => importDialog().getByRole('button', { name: 'Import', exact: true })
  const fileInput = () => importDialog().getByLabelText('Configuration file')
  const jsonFile = (text: string, name = 'pulse-config-2025-03-02.json') =>
    new File([text], name, { type: 'application/json' })

  test('validation texts, a bad file, then the import and the reload after 2 s', async () => {
    const reload = spyReload()
    const fetchMock = securityServer({
      routes: {
        'POST /api/config/import': () =>
          Response.json({ status: 'success', message: 'Configuration imported successfully' }),
      },
    })
    await openSecurityTab()
    await page.getByRole('button', { name: 'Restore configuration' }).click()
    await expect.element(fileInput()).toHaveAttribute('accept', '.json,application/json')
    await expect.element(importButton()).toBeDisabled()
    await expect.element(requirement('Please enter the password')).toBeVisible()
    await expect.element(requirement('Please select a file to import')).toBeVisible()

    await fileInput().upload(jsonFile('{ not json'))
    await expect
      .element(importDialog().getByRole('alert'))
      .toHaveTextContent('Invalid JSON file format')
    await importDialog().getByLabelText('Backup password').fill('my-login-pw')
    await expect.element(importButton()).toBeDisabled()
    expect(requirement('Please enter the password').query()).toBeNull()
    await expect.element(requirement('Please select a file to import')).toBeVisible()

    await fileInput().upload(jsonFile(JSON.stringify(EXPORTED)))
    await expect.element(importButton()).toBeEnabled()
    expect(importDialog().getByRole('alert').query()).toBeNull()
    await importButton().click()

    await expect.element(toast('Configuration imported successfully. Reloading...')).toBeVisible()
    expect(importDialog().query()).toBeNull()
    expect(bodyOf(fetchMock, 'POST', '/api/config/import')).toEqual({
      passphrase: 'my-login-pw',
      data: EXPORTED,
    })
    expect(reload).not.toHaveBeenCalled()
    await expect.poll(() => reload.mock.calls.length, { timeout: 4_000 }).toBe(1)
  })

  test('a wrong passphrase shows the server message and nothing reloads', async () => {
    const reload = spyReload()
    const fetchMock = securityServer({
      routes: {
        'POST /api/config/import': () =>
          Response.json(
            {
              code: 'IMPORT_WRONG_PASSPHRASE',
              message: 'Wrong passphrase, or the file was changed.',
            },
            { status: 400 },
          ),
      },
    })
    await openSecurityTab()
    await page.getByRole('button', { name: 'Restore configuration' }).click()
    await fileInput().upload(jsonFile(JSON.stringify(EXPORTED)))
    await importDialog().getByLabelText('Backup password').fill('nope')
    await importButton().click()
    await expect
      .element(importDialog().getByRole('alert'))
      .toHaveTextContent('Wrong passphrase, or the file was changed.')
    expect(callsTo(fetchMock, 'POST', '/api/config/import')).toHaveLength(1)
    // Success would close the dialog and toast in the same turn as it schedules the reload: the
    // dialog still open with the button enabled and no toast show that branch was not taken.
    await expect.element(importButton()).toBeEnabled()
    expect(importDialog().query()).not.toBeNull()
    expect(toast('Configuration imported successfully. Reloading...').query()).toBeNull()
    expect(reload).not.toHaveBeenCalled()
  })

  test('Cancel closes without a call', async () => {
    const fetchMock = securityServer({ status: () => STATUS })
    await openSecurityTab()
    await page.getByRole('button', { name: 'Restore configuration' }).click()
    await importDialog().getByRole('button', { name: 'Cancel' }).click()
    expect(importDialog().query()).toBeNull()
    expect(callsTo(fetchMock, 'POST', '/api/config/import')).toHaveLength(0)
    await expect.element(page.getByRole('button', { name: 'Restore configuration' })).toHaveFocus()
  })
})
