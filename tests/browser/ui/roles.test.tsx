// Issue 29 item 6, the UI follows the role: the app signed in as a viewer, an operator or an admin
// (GET /api/security/status names the role) against a fake worker and window.fetch stubbed by
// render.tsx's stubServer: this harness has no loopback server; the server's role checks are
// tested in tests/unit/server and tests/e2e/roles.spec.ts.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { page } from 'vitest/browser'
import type { Role } from '../../../src/shared/model/roles.ts'
import type {
  AlertsOverviewModel,
  AlertsOverviewRow,
} from '../../../src/shared/views/alerts-overview-types.ts'
import { makeAlertConfig } from '../../fixtures/alerts/alert-config.ts'
import { authState } from '../../../src/ui/auth/auth-store.ts'
import { overviewRow } from './alert-fixtures.ts'
import { authServer, worker, type Json } from './auth-harness.ts'
import {
  mount as mountNotifications,
  server as notifications,
  webhook,
} from './notifications-harness.tsx'
import { cleanup, renderApp } from './render.tsx'
import { PVE_TOKEN_NODE, nodeItem } from './settings-nodes-harness.ts'

beforeEach(async () => {
  await page.viewport(1280, 800)
  sessionStorage.clear()
})
afterEach(() => {
  cleanup()
  vi.restoreAllMocks()
})

const NOTES = [
  {
    author: 'ann',
    at: '2025-01-01T11:56:00Z',
    atText: 'Jan 1, 2025, 11:56',
    text: 'Looking at it',
  },
]
const SILENCE = {
  id: 's1',
  target: { kind: 'node', instance: 'lab', node: 'pve3' },
  comment: 'rebooting',
  author: 'ann',
  createdAt: '2025-01-01T11:50:00Z',
  startsAt: '2025-01-01T11:50:00Z',
  endsAt: '2099-01-01T12:50:00Z',
  state: 'active',
  activeUntil: '2099-01-01T12:50:00Z',
}

function overview(rows: AlertsOverviewRow[]): AlertsOverviewModel {
  return {
    kind: 'alertsOverview',
    version: 1,
    active: rows.length,
    acknowledged: 0,
    occurrences: rows.length,
    rowCount: rows.length,
    start: 0,
    rows,
  }
}

/** The app signed in as `username` with `role`, at `path`, the routes the screens read stubbed. */
function signedIn(role: Role, path: string, username = `${role}-1`) {
  const status = {
    disabled: false,
    hasAuthentication: true,
    hasPasswordLogin: true,
    requiresAuth: true,
    authenticated: true,
    authUsername: username,
    role,
  }
  const ok = (body: unknown) => () => Response.json(body)
  authServer(() => status, {
    'GET /api/state': ok({}),
    'GET /api/alerts/config': ok(makeAlertConfig()),
    'GET /api/alerts/history/summary': ok({ total: 0, last24h: 0, buckets: [] }),
    'GET /api/alerts/silences': ok([SILENCE]),
    'GET /api/config/nodes': ok([PVE_TOKEN_NODE as Json]),
    'GET /api/discover': ok({ servers: [], scanning: false }),
    'GET /api/system/settings': ok({ discoveryEnabled: false, envOverrides: {} }),
  })
  const api = worker()
  api.alertsOverview = overview([overviewRow('a1', { notes: NOTES })])
  return renderApp(api, path)
}

const ackButtons = () => page.getByRole('button', { name: /Acknowledge/ })

describe('the header', () => {
  it('shows the user and the role', async () => {
    signedIn('operator', '/', 'alice')
    await expect.element(page.getByTestId('header-username')).toHaveTextContent('alice')
    await expect.element(page.getByTestId('header-role')).toHaveTextContent(/operator/)
    await expect.element(page.getByTitle('Signed in as alice (operator)')).toBeVisible()
  })
})

describe('a viewer', () => {
  it('gets no select-all checkbox on a phone either', async () => {
    await page.viewport(390, 800)
    signedIn('viewer', '/alerts/overview')
    await expect.element(page.getByText('CPU at 97%')).toBeVisible()
    expect(page.getByRole('checkbox').elements()).toHaveLength(0)
    expect(page.getByText(/^Select all/).elements()).toHaveLength(0)
  })

  it('reads the alerts and their notes but cannot acknowledge, select, silence or add a note', async () => {
    signedIn('viewer', '/alerts/overview')
    const row = page.getByRole('row').filter({ hasText: 'CPU at 97%' })
    await expect.element(row).toBeVisible()
    await expect.element(page.getByText('rebooting', { exact: false })).toBeVisible()
    expect(ackButtons().elements()).toHaveLength(0)
    expect(page.getByRole('checkbox').elements()).toHaveLength(0)
    expect(page.getByRole('button', { name: /^Silence / }).elements()).toHaveLength(0)
    expect(page.getByRole('button', { name: 'New silence' }).elements()).toHaveLength(0)
    expect(page.getByRole('button', { name: /^End the silence/ }).elements()).toHaveLength(0)

    await row.getByRole('button', { name: /^Notes on web-01/ }).click()
    const dialog = page.getByRole('dialog')
    await expect.element(dialog.getByText('Looking at it')).toBeVisible()
    expect(dialog.getByRole('button', { name: 'Add note' }).elements()).toHaveLength(0)
    expect(dialog.getByRole('textbox').elements()).toHaveLength(0)
    await dialog.getByRole('button', { name: 'Done' }).click()
    await expect.element(dialog).not.toBeInTheDocument()
  })

  it('sees the thresholds read-only, with the reason, and no save bar', async () => {
    signedIn('viewer', '/alerts/thresholds')
    await expect
      .element(page.getByText('Read only: Changing thresholds needs the admin role.'))
      .toBeVisible()
    // The fake worker serves no threshold tables: the defaults card stands for them.
    const reset = page.getByRole('button', { name: 'Reset to defaults' }).first()
    await expect.element(reset).toBeDisabled()
    expect(page.getByRole('region', { name: 'Unsaved changes' }).elements()).toHaveLength(0)
  })

  it('sees the nodes without Add, Edit or Delete, and Test connection off with the reason', async () => {
    signedIn('viewer', '/settings/pve')
    const item = nodeItem(PVE_TOKEN_NODE.name)
    await expect.element(item).toBeVisible()
    const add = page.getByRole('button', { name: 'Add PVE Node' })
    await expect.element(add).toBeDisabled()
    await expect.element(add).toHaveAttribute('title', 'Needs the admin role')
    const test = item.getByRole('button', { name: 'Test connection' })
    await expect.element(test).toBeDisabled()
    await expect.element(test).toHaveAttribute('title', 'Needs the operator role')
    expect(item.getByRole('button', { name: 'Edit' }).elements()).toHaveLength(0)
    expect(item.getByRole('button', { name: 'Delete' }).elements()).toHaveLength(0)
  })
})

describe('a viewer in Settings > Diagnostics', () => {
  it('sees Run Diagnostics off with the reason', async () => {
    signedIn('viewer', '/settings/diagnostics')
    const run = page.getByRole('button', { name: 'Run Diagnostics' })
    await expect.element(run).toBeDisabled()
    await expect.element(run).toHaveAttribute('title', 'Needs the operator role')
  })
})

describe('an operator', () => {
  it('acknowledges, selects, silences and adds notes on Overview', async () => {
    signedIn('operator', '/alerts/overview')
    const row = page.getByRole('row').filter({ hasText: 'CPU at 97%' })
    await expect.element(row.getByRole('button', { name: /^Acknowledge web-01/ })).toBeVisible()
    await expect.element(row.getByRole('button', { name: /^Silence web-01/ })).toBeVisible()
    await expect.element(row.getByRole('checkbox')).toBeVisible()
    await expect.element(page.getByRole('button', { name: 'New silence' })).toBeVisible()
    await expect.element(page.getByRole('button', { name: /^End the silence/ })).toBeVisible()
    await row.getByRole('button', { name: /^Notes on web-01/ }).click()
    await expect.element(page.getByRole('dialog').getByRole('textbox')).toBeVisible()
  })

  it('tests a node but neither adds, edits nor deletes one, nor edits thresholds', async () => {
    const { location } = signedIn('operator', '/settings/pve')
    const item = nodeItem(PVE_TOKEN_NODE.name)
    await expect.element(item.getByRole('button', { name: 'Test connection' })).toBeEnabled()
    await expect.element(page.getByRole('button', { name: 'Add PVE Node' })).toBeDisabled()
    expect(item.getByRole('button', { name: 'Edit' }).elements()).toHaveLength(0)
    location.navigate('/alerts/thresholds')
    await expect
      .element(page.getByText('Read only: Changing thresholds needs the admin role.'))
      .toBeVisible()
  })
})

describe('Settings > Security below admin', () => {
  it('keeps the status and the own password, and says what needs an admin', async () => {
    signedIn('operator', '/settings/security')
    await expect.element(page.getByRole('button', { name: 'Change password' })).toBeVisible()
    await expect
      .element(
        page.getByText(
          /API tokens, single sign-on, backup and the audit log: Needs the admin role/,
        ),
      )
      .toBeVisible()
    expect(page.getByRole('button', { name: 'Rotate credentials' }).elements()).toHaveLength(0)
    expect(page.getByRole('button', { name: 'Export configuration' }).elements()).toHaveLength(0)
  })
})

describe('an admin', () => {
  it('has every control: Acknowledge, threshold editing and node editing', async () => {
    const { location } = signedIn('admin', '/alerts/overview')
    await expect.element(ackButtons().first()).toBeVisible()
    location.navigate('/alerts/thresholds')
    await expect
      .element(page.getByRole('button', { name: 'Reset to defaults' }).first())
      .toBeEnabled()
    expect(page.getByTestId('role-read-only').elements()).toHaveLength(0)
    location.navigate('/settings/pve')
    await expect
      .element(nodeItem(PVE_TOKEN_NODE.name).getByRole('button', { name: 'Edit' }))
      .toBeVisible()
    await expect.element(page.getByRole('button', { name: 'Add PVE Node' })).toBeEnabled()
  })
})

describe('notification destinations', () => {
  it('an operator tests a webhook and sends a test email, but changes neither', async () => {
    authState.role = 'operator'
    notifications.hooks = [webhook()]
    mountNotifications()
    await expect.element(page.getByRole('button', { name: 'Test webhook Ops chat' })).toBeEnabled()
    await expect
      .element(page.getByRole('switch', { name: 'Webhook Ops chat enabled' }))
      .toBeDisabled()
    expect(page.getByRole('button', { name: 'Add webhook' }).elements()).toHaveLength(0)
    expect(page.getByRole('button', { name: 'Edit webhook Ops chat' }).elements()).toHaveLength(0)
    expect(page.getByRole('button', { name: 'Delete webhook Ops chat' }).elements()).toHaveLength(0)
    await expect.element(page.getByRole('button', { name: 'Send test email' })).toBeEnabled()
    expect(page.getByRole('button', { name: 'Save email settings' }).elements()).toHaveLength(0)
  })

  it('a viewer is told they need the operator role, and nothing is read', async () => {
    authState.role = 'viewer'
    notifications.hooks = [webhook()]
    mountNotifications()
    await expect
      .element(page.getByText('Notification destinations: Needs the operator role.'))
      .toBeVisible()
    expect(notifications.calls).toEqual([])
  })
})
