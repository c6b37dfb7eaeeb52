// Settings > PVE/PBS Nodes, discovery (spec 001 §2 discovery toggle, refresh and panel, §4
// Discovery, §8 discovery texts) with a stubbed fetch and a fake worker. Discovered servers use
// loopback addresses only.
import { describe, expect, test } from 'vitest'
import { page } from 'vitest/browser'
import { useAuthHarness } from './auth-harness.ts'
import {
  DISCOVERY_EMPTY,
  PVE_CLUSTER_NODE,
  PVE_TOKEN_NODE,
  bodyOf,
  callsTo,
  dialog,
  nodesServer,
  openNodesTab,
  toasts,
} from './settings-nodes-harness.ts'

useAuthHarness()

const server = (ip: string, type: 'pve' | 'pbs' = 'pve', hostname = '') => ({
  ip,
  port: type === 'pve' ? 8006 : 8007,
  type,
  version: type === 'pve' ? '8.2.4' : '3.2.7',
  hostname,
  release: '',
})

/** Found: the cluster's host and endpoint (configured), a configured host, and new ones. */
const FOUND = {
  ...DISCOVERY_EMPTY,
  servers: [
    server('127.0.0.11'),
    server('127.0.0.12'),
    server('127.0.0.21', 'pve', 'pve1.example.com'),
    server('127.0.0.31', 'pve', 'pve-lab'),
    server('127.0.0.32'),
    server('127.0.0.41', 'pbs', 'backup-lab'),
  ],
  errors: ['127.0.0.50: connection refused'],
  lastScanStartedAt: Date.now() - 130_000,
  lastResultAt: Date.now() - 125_000,
}

const switchOf = () => page.getByRole('switch', { name: 'Discovery' })
const panel = () => page.getByRole('region', { name: 'Discovery' })
const discovered = () =>
  [...document.querySelectorAll<HTMLElement>('[data-discovered]')].map(
    (item) => item.dataset.discovered,
  )

describe('the discovery panel (spec 001 §2)', () => {
  test('last-scan age, errors, and only the servers of this type not configured yet', async () => {
    const configuredByName = { ...PVE_TOKEN_NODE, host: 'https://PVE1.example.com:8006' }
    nodesServer({ nodes: [PVE_CLUSTER_NODE, configuredByName], discovery: FOUND })
    await openNodesTab('pve')
    await expect.element(panel().getByText('Last scan: 2m ago')).toBeVisible()
    await expect
      .element(panel().getByRole('note', { name: 'Discovery errors' }))
      .toHaveTextContent('127.0.0.50: connection refused')
    await expect.poll(discovered).toEqual(['127.0.0.31', '127.0.0.32'])
    const lab = panel().getByRole('button', { name: /pve-lab/ })
    await expect.element(lab).toHaveTextContent(/Discovered/)
    await expect.element(lab).toHaveTextContent(/Click to configure/)
    await expect.element(lab).toHaveTextContent(/127\.0\.0\.31:8006/)
  })

  test('the PBS tab shows PBS servers', async () => {
    nodesServer({ discovery: FOUND })
    await openNodesTab('pbs')
    await expect.poll(discovered).toEqual(['127.0.0.41'])
  })

  test('"just now" and the scanning indicator', async () => {
    const { state } = nodesServer({
      discovery: { ...DISCOVERY_EMPTY, lastResultAt: Date.now() - 1_000 },
      routes: {
        'POST /api/discover': () =>
          Response.json({ ...DISCOVERY_EMPTY, scanning: true }, { status: 202 }),
      },
    })
    await openNodesTab('pve')
    await expect.element(panel().getByText('Last scan: just now')).toBeVisible()
    await expect.element(panel().getByText('No new PVE servers found.')).toBeVisible()
    state.discovery = { ...DISCOVERY_EMPTY, scanning: true }
    await page.getByRole('button', { name: 'Refresh discovery' }).click()
    await expect.element(panel().getByText(/Scanning network\.\.\./)).toBeVisible()
  })

  test('click to configure: the modal prefilled, Back to Discovery returns to the panel', async () => {
    nodesServer({ discovery: FOUND })
    await openNodesTab('pve')
    await panel()
      .getByRole('button', { name: /pve-lab/ })
      .click()
    const modal = dialog('Add Proxmox VE node')
    await expect.element(modal).toBeVisible()
    await expect.element(page.getByLabelText('Host URL')).toHaveValue('https://127.0.0.31:8006')
    await expect.element(page.getByLabelText('Node Name')).toHaveValue('pve-lab')
    await modal.getByRole('button', { name: 'Back to Discovery' }).click()
    await expect.element(modal).not.toBeInTheDocument()
    await expect.element(panel().getByRole('button', { name: /pve-lab/ })).toHaveFocus()

    // Without a hostname the name stays blank.
    await panel()
      .getByRole('button', { name: /127\.0\.0\.32/ })
      .click()
    await expect.element(page.getByLabelText('Host URL')).toHaveValue('https://127.0.0.32:8006')
    await expect.element(page.getByLabelText('Node Name')).toHaveValue('')
  })

  test('a node the setup script registers while the modal is open closes it', async () => {
    const { state } = nodesServer({ discovery: FOUND })
    await openNodesTab('pve')
    await panel()
      .getByRole('button', { name: /pve-lab/ })
      .click()
    const modal = dialog('Add Proxmox VE node')
    await expect.element(modal).toBeVisible()
    state.nodes = [
      { ...PVE_TOKEN_NODE, id: 'auto-1', name: 'pve-lab', host: 'https://127.0.0.31:8006' },
    ]
    // The modal polls every 3 s; waiting longer than that is not a timing assertion.
    await expect.element(modal, { timeout: 8_000 }).not.toBeInTheDocument()
    await expect.poll(toasts).toContain('success: Node added successfully')
    await expect.poll(discovered).toEqual(['127.0.0.11', '127.0.0.12', '127.0.0.21', '127.0.0.32'])
  })
})

describe('discovery switch and refresh (spec 001 §2, §8)', () => {
  test('turning it on saves, toasts and starts a scan; off toasts "Discovery disabled"', async () => {
    const { mock } = nodesServer({
      settings: { discoveryEnabled: false, discoverySubnet: '', envOverrides: {} },
      routes: {
        'POST /api/system/settings/update': (body) =>
          Response.json({
            discoveryEnabled: body.discoveryEnabled,
            discoverySubnet: '',
            envOverrides: {},
          }),
        'POST /api/discover': () =>
          Response.json({ ...DISCOVERY_EMPTY, scanning: true }, { status: 202 }),
      },
    })
    await openNodesTab('pve')
    await expect.element(switchOf()).toHaveAttribute('aria-checked', 'false')
    await expect.element(panel()).toHaveTextContent(/Discovery is off/)
    await switchOf().click()
    await expect.poll(toasts).toContain('success: Discovery enabled — scanning network...')
    await expect.element(switchOf()).toHaveAttribute('aria-checked', 'true')
    expect(bodyOf(mock, 'POST', '/api/system/settings/update')).toEqual({ discoveryEnabled: true })
    await expect.poll(() => callsTo(mock, 'POST', '/api/discover').length).toBe(1)
    expect(bodyOf(mock, 'POST', '/api/discover')).toEqual({ subnet: 'auto' })
    await expect.element(panel().getByText(/Scanning network\.\.\./)).toBeVisible()

    await switchOf().click()
    await expect.poll(toasts).toContain('info: Discovery disabled')
    expect(bodyOf(mock, 'POST', '/api/system/settings/update', 1)).toEqual({
      discoveryEnabled: false,
    })
    await expect.element(switchOf()).toHaveAttribute('aria-checked', 'false')
  })

  test('a refused change puts the switch back: "Failed to update discovery setting"', async () => {
    nodesServer({
      routes: {
        'POST /api/system/settings/update': () =>
          Response.json({ code: 'INTERNAL', message: 'disk full' }, { status: 500 }),
      },
    })
    await openNodesTab('pve')
    await expect.element(switchOf()).toHaveAttribute('aria-checked', 'true')
    await switchOf().click()
    await expect.poll(toasts).toContain('error: Failed to update discovery setting')
    await expect.element(switchOf()).toHaveAttribute('aria-checked', 'true')
    await expect.element(switchOf()).toBeEnabled()
  })

  test('an environment override makes the switch read-only', async () => {
    nodesServer({
      settings: {
        discoveryEnabled: true,
        discoverySubnet: 'auto',
        envOverrides: { discoveryEnabled: true },
      },
    })
    await openNodesTab('pve')
    await expect.element(switchOf()).toBeDisabled()
  })

  test('Refresh: "Refreshing discovery...", Scan now: "Discovery scan started"; a failure says so', async () => {
    let fail = false
    const { mock } = nodesServer({
      routes: {
        'POST /api/discover': () =>
          fail
            ? Response.json(
                { code: 'FIELD_INVALID', message: 'subnet: too large.' },
                { status: 400 },
              )
            : Response.json({ ...DISCOVERY_EMPTY, scanning: false }, { status: 202 }),
      },
    })
    await openNodesTab('pve')
    await page.getByRole('button', { name: 'Refresh discovery' }).click()
    await expect.poll(toasts).toContain('info: Refreshing discovery...')
    await expect.poll(() => callsTo(mock, 'POST', '/api/discover').length).toBe(1)
    await panel().getByRole('button', { name: 'Scan now' }).click()
    await expect.poll(toasts).toContain('success: Discovery scan started')
    fail = true
    await panel().getByRole('button', { name: 'Scan now' }).click()
    await expect.poll(toasts).toContain('error: Failed to start discovery scan')
    await expect.element(panel().getByRole('button', { name: 'Scan now' })).toBeEnabled()
  })
})
