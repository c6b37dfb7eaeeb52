// Settings > System (spec 001 §2 System tab, §4 System settings, §8 texts) in Chromium with the
// server's routes stubbed; the real routes are tested in tests/unit/server/http/system-settings
// and end to end in tests/e2e/settings-system.spec.ts.
import { describe, expect, test, vi } from 'vitest'
import { page } from 'vitest/browser'
import { pageNavigation } from '../../../src/ui/lib/navigation.ts'
import { SAVE_RELOAD_MS } from '../../../src/ui/settings/system/system-api.ts'
import { callsTo, useAuthHarness, worker, type Json } from './auth-harness.ts'
import { renderApp, stubServer } from './render.tsx'

useAuthHarness()

const SETTINGS = {
  discoveryEnabled: false,
  discoverySubnet: 'auto',
  allowedOrigins: '',
  allowEmbedding: false,
  allowedEmbedOrigins: '',
  envOverrides: {},
}

function serve(
  settings: () => unknown = () => SETTINGS,
  update: (body: Json) => Response = (body) => Response.json({ ...SETTINGS, ...body }),
) {
  return stubServer({
    route: (url, init) => {
      const { pathname } = new URL(url, window.location.href)
      if (pathname === '/api/system/settings') return Response.json(settings())
      if (pathname === '/api/system/settings/update' && init?.method === 'POST') {
        return update(JSON.parse(String(init.body)) as Json)
      }
      return undefined
    },
  })
}

/** Holds the 3 s reload timer so the test fires it itself instead of waiting on the clock. */
function holdReload() {
  const held: Array<() => void> = []
  const real = window.setTimeout.bind(window)
  vi.spyOn(window, 'setTimeout').mockImplementation(((
    handler: TimerHandler,
    ms?: number,
    ...args: unknown[]
  ) => {
    if (ms === SAVE_RELOAD_MS && typeof handler === 'function') {
      held.push(handler as () => void)
      return 0
    }
    return real(handler, ms, ...args)
  }) as typeof window.setTimeout)
  return held
}

const origins = () => page.getByRole('textbox', { name: 'Allowed origins' })
const saveButton = () => page.getByRole('button', { name: 'Save', exact: true })
const discardButton = () => page.getByRole('button', { name: 'Discard' })
const retention = () => page.getByRole('spinbutton', { name: 'Keep recent history (minutes)' })

describe('System tab', () => {
  test('ALLOWED_ORIGINS set: the field is disabled with the two warning lines', async () => {
    serve(() => ({
      ...SETTINGS,
      allowedOrigins: 'https://env.example.com',
      envOverrides: { allowedOrigins: true },
    }))
    renderApp(worker(), '/settings/system')
    await expect.element(origins()).toBeDisabled()
    await expect.element(origins()).toHaveValue('https://env.example.com')
    await expect
      .element(origins())
      .toHaveAccessibleDescription(
        'Overridden by ALLOWED_ORIGINS environment variable Remove the env var and restart to enable UI configuration',
      )
    await expect
      .element(
        page.getByText('Overridden by ALLOWED_ORIGINS environment variable', { exact: true }),
      )
      .toBeVisible()
    await expect
      .element(
        page.getByText('Remove the env var and restart to enable UI configuration', {
          exact: true,
        }),
      )
      .toBeVisible()
    // The other settings stay editable.
    await expect.element(page.getByRole('checkbox', { name: /Allow embedding/ })).toBeEnabled()
  })

  test('no override: editable, no warning; Save only with unsaved changes', async () => {
    serve()
    renderApp(worker(), '/settings/system')
    await expect.element(origins()).toBeEnabled()
    expect(page.getByText('Overridden by ALLOWED_ORIGINS environment variable').query()).toBeNull()
    await expect.element(saveButton()).toBeDisabled()
    await expect.element(page.getByText('No unsaved changes')).toBeVisible()
    await origins().fill('https://dash.example.com')
    await expect.element(page.getByText('You have unsaved changes')).toBeVisible()
    await expect.element(saveButton()).toBeEnabled()
    await origins().fill('')
    await expect.element(saveButton()).toBeDisabled()
  })

  test('save sends the form, shows the success toast and reloads after 3 s', async () => {
    const held = holdReload()
    const reload = vi.spyOn(pageNavigation, 'reload').mockImplementation(() => {})
    const mock = serve()
    renderApp(worker(), '/settings/system')
    await origins().fill('https://dash.example.com')
    await page.getByRole('checkbox', { name: /Allow embedding/ }).click()
    await page
      .getByRole('textbox', { name: 'Allowed embed origins' })
      .fill('https://wiki.example.com')
    await saveButton().click()
    await expect
      .element(
        page.getByText(
          'Settings saved successfully. Service restart may be required for port changes.',
          { exact: true },
        ),
      )
      .toBeVisible()
    const saves = callsTo(mock, 'POST', '/api/system/settings/update')
    expect(saves).toHaveLength(1)
    expect(JSON.parse(String(saves[0]![1]!.body))).toEqual({
      allowedOrigins: 'https://dash.example.com',
      allowEmbedding: true,
      allowedEmbedOrigins: 'https://wiki.example.com',
      discoveryEnabled: false,
      discoverySubnet: 'auto',
      updateChannel: 'stable',
      autoUpdateEnabled: false,
      autoUpdateCheckInterval: 24,
      autoUpdateTime: '03:00',
      historyRetentionMinutes: 60,
    })
    await expect.element(page.getByText('Saved. Reloading...')).toBeVisible()
    await expect.element(origins()).toBeDisabled()
    await expect.poll(() => held.length).toBe(1)
    expect(reload).not.toHaveBeenCalled()
    held[0]!()
    expect(reload).toHaveBeenCalledTimes(1)
  })

  test('a refused save shows the server message naming the field and keeps the edits', async () => {
    const reload = vi.spyOn(pageNavigation, 'reload').mockImplementation(() => {})
    serve(undefined, () =>
      Response.json(
        {
          code: 'FIELD_INVALID',
          message: 'allowedOrigins: "dash" is not an origin like https://example.com.',
        },
        { status: 400 },
      ),
    )
    renderApp(worker(), '/settings/system')
    await origins().fill('dash')
    await saveButton().click()
    await expect.element(page.getByText('Failed to save settings', { exact: true })).toBeVisible()
    await expect
      .element(page.getByRole('alert').filter({ hasText: 'allowedOrigins: "dash"' }))
      .toBeVisible()
    await expect.element(origins()).toHaveValue('dash')
    // Focus goes to the field the server named.
    await expect.element(origins()).toHaveFocus()
    await expect.element(saveButton()).toBeEnabled()
    expect(reload).not.toHaveBeenCalled()
  })

  test('history retention: the saved minutes with their memory cost, sent as a number', async () => {
    vi.spyOn(pageNavigation, 'reload').mockImplementation(() => {})
    holdReload()
    const mock = serve(() => ({ ...SETTINGS, historyRetentionMinutes: 120 }))
    renderApp(worker(), '/settings/system')
    await expect.element(retention()).toHaveValue(120)
    await expect.element(retention()).toBeEnabled()
    await expect
      .element(retention())
      .toHaveAccessibleDescription(
        'Kept in memory: about 50 MB per 10,000 guests at 120 minutes (10 to 360).',
      )
    await retention().fill('30')
    await expect
      .element(retention())
      .toHaveAccessibleDescription(
        'Kept in memory: about 13 MB per 10,000 guests at 30 minutes (10 to 360).',
      )
    await saveButton().click()
    await expect.element(page.getByText('Saved. Reloading...')).toBeVisible()
    const saves = callsTo(mock, 'POST', '/api/system/settings/update')
    expect(JSON.parse(String(saves[0]![1]!.body))).toMatchObject({ historyRetentionMinutes: 30 })
  })

  test('history retention refused by the server: the message names it and focus goes there', async () => {
    serve(undefined, () =>
      Response.json(
        {
          code: 'FIELD_INVALID',
          message: 'historyRetentionMinutes: must be a whole number of minutes from 10 to 360.',
        },
        { status: 400 },
      ),
    )
    renderApp(worker(), '/settings/system')
    await retention().fill('5')
    await saveButton().click()
    await expect
      .element(page.getByRole('alert').filter({ hasText: 'historyRetentionMinutes: must be' }))
      .toBeVisible()
    await expect.element(retention()).toHaveValue(5)
    await expect.element(retention()).toHaveFocus()
  })

  test('HISTORY_RETENTION_MINUTES set: the retention field is read-only with the reason', async () => {
    serve(() => ({
      ...SETTINGS,
      historyRetentionMinutes: 30,
      envOverrides: { historyRetentionMinutes: true },
    }))
    renderApp(worker(), '/settings/system')
    await expect.element(retention()).toBeDisabled()
    await expect.element(retention()).toHaveValue(30)
    await expect
      .element(page.getByText(/Set by the HISTORY_RETENTION_MINUTES environment variable/))
      .toBeVisible()
  })

  test('discard reloads the page', async () => {
    const reload = vi.spyOn(pageNavigation, 'reload').mockImplementation(() => {})
    serve()
    renderApp(worker(), '/settings/system')
    await expect.element(discardButton()).toBeDisabled()
    await page.getByRole('switch', { name: 'Enable discovery' }).click()
    await discardButton().click()
    expect(reload).toHaveBeenCalledTimes(1)
  })

  test('fits a 390 px phone without horizontal scrolling', async () => {
    await page.viewport(390, 800)
    serve()
    renderApp(worker(), '/settings/system', { width: 390, height: 800 })
    await expect.element(origins()).toBeVisible()
    const root = document.scrollingElement!
    expect(root.scrollWidth).toBeLessThanOrEqual(root.clientWidth + 1)
  })
})
