// Live events reaching the UI (spec 000 §7 and §8, spec 001 §2 Shell and §4 Discovery): a fake
// worker emits the events the real one delivers (tests/browser/worker/events.test.ts), the
// server is stubbed. Addresses are loopback or under example.com only.
import { describe, expect, test } from 'vitest'
import { page } from 'vitest/browser'
import { THEME_KEY } from '../../../src/ui/state.ts'
import { useAuthHarness, worker } from './auth-harness.ts'
import { renderApp } from './render.tsx'
import {
  DISCOVERY_EMPTY,
  PVE_ERROR_NODE,
  PVE_TOKEN_NODE,
  bodyOf,
  callsTo,
  deferred,
  dialog,
  nodeItem,
  nodesServer,
  toasts,
} from './settings-nodes-harness.ts'

useAuthHarness()

async function openPveTab() {
  const api = worker()
  renderApp(api, '/settings/pve')
  await expect.element(page.getByRole('heading', { name: 'Proxmox VE nodes' })).toBeVisible()
  return api
}

const panel = () => page.getByRole('region', { name: 'Discovery' })
const discovered = () =>
  [...document.querySelectorAll<HTMLElement>('[data-discovered]')].map(
    (item) => item.dataset.discovered,
  )

describe('node events', () => {
  test('a node deleted in another browser leaves the list at once', async () => {
    const { mock, state } = nodesServer({ nodes: [PVE_TOKEN_NODE, PVE_ERROR_NODE] })
    const api = await openPveTab()
    await expect.element(nodeItem('broken')).toBeVisible()
    const reads = callsTo(mock, 'GET', '/api/config/nodes').length
    state.nodes = [PVE_TOKEN_NODE]
    api.emitEvent({ type: 'node_deleted', data: { id: 'pve-3', nodeType: 'pve' } })
    await expect.element(nodeItem('broken')).not.toBeInTheDocument()
    await expect.element(nodeItem('pve-one')).toBeVisible()
    // And the list is read again to confirm.
    await expect.poll(() => callsTo(mock, 'GET', '/api/config/nodes').length).toBeGreaterThan(reads)
  })

  test('nodes_changed reads the list again', async () => {
    const { state } = nodesServer({ nodes: [PVE_TOKEN_NODE] })
    const api = await openPveTab()
    await expect.element(nodeItem('pve-one')).toBeVisible()
    state.nodes = [PVE_TOKEN_NODE, PVE_ERROR_NODE]
    api.emitEvent({ type: 'nodes_changed', data: {} })
    await expect.element(nodeItem('broken')).toBeVisible()
  })

  test('node_auto_registered closes the node dialog, toasts and lists the node', async () => {
    const { state } = nodesServer({ nodes: [PVE_TOKEN_NODE] })
    const api = await openPveTab()
    await page.getByRole('button', { name: 'Add PVE Node' }).click()
    const modal = dialog('Add Proxmox VE node')
    await expect.element(modal).toBeVisible()
    state.nodes = [
      PVE_TOKEN_NODE,
      { ...PVE_TOKEN_NODE, id: 'auto-1', name: 'pve-lab', host: 'https://127.0.0.31:8006' },
    ]
    api.emitEvent({
      type: 'node_auto_registered',
      data: { type: 'pve', name: 'pve-lab', host: 'https://127.0.0.31:8006' },
    })
    await expect.element(modal).not.toBeInTheDocument()
    await expect
      .poll(toasts)
      .toContain(
        'success: Proxmox VE node "pve-lab" was successfully auto-registered and is now being monitored!',
      )
    await expect.element(nodeItem('pve-lab')).toBeVisible()
  })

  test('the auto-registration toast names the backup server product', async () => {
    nodesServer()
    const api = await openPveTab()
    api.emitEvent({
      type: 'node_auto_registered',
      data: { type: 'pbs', name: 'backup-lab', host: 'https://127.0.0.41:8007' },
    })
    await expect
      .poll(toasts)
      .toContain(
        'success: Proxmox Backup Server node "backup-lab" was successfully auto-registered and is now being monitored!',
      )
  })
})

describe('discovery events', () => {
  test('started shows scanning, update shows the servers, complete ends the scan', async () => {
    nodesServer({ discovery: { ...DISCOVERY_EMPTY, lastResultAt: Date.now() - 1_000 } })
    const api = await openPveTab()
    await expect.element(panel().getByText('Last scan: just now')).toBeVisible()
    api.emitEvent({
      type: 'discovery_started',
      data: { subnet: '127.0.0.0/30', timestamp: Date.now() },
    })
    await expect.element(panel().getByText(/Scanning network\.\.\./)).toBeVisible()
    await expect.element(page.getByRole('button', { name: 'Refresh discovery' })).toBeDisabled()
    api.emitEvent({
      type: 'discovery_update',
      data: {
        servers: [{ ip: '127.0.0.2', port: 8006, type: 'pve', version: '8.2.4' }],
        errors: [],
        scanning: false,
        lastResultAt: Date.now(),
      },
    })
    api.emitEvent({ type: 'discovery_complete', data: { timestamp: Date.now() } })
    await expect.poll(discovered).toEqual(['127.0.0.2'])
    await expect.element(panel().getByText(/Scanning network/)).not.toBeInTheDocument()
    await expect.element(page.getByRole('button', { name: 'Refresh discovery' })).toBeEnabled()
  })

  test('a scan whose events overtake the POST answer ends as not scanning', async () => {
    const answer = deferred<Response>()
    nodesServer({
      discovery: { ...DISCOVERY_EMPTY, lastResultAt: Date.now() },
      routes: { 'POST /api/discover': () => answer.promise },
    })
    const api = await openPveTab()
    const scanNow = panel().getByRole('button', { name: 'Scan now' })
    await scanNow.click()
    await expect.element(panel().getByText(/Scanning network\.\.\./)).toBeVisible()
    // A loopback scan is over before its POST answers (seen against the demo).
    api.emitEvent({ type: 'discovery_started', data: { subnet: '127.0.0.1/32', timestamp: 0 } })
    api.emitEvent({
      type: 'discovery_update',
      data: { servers: [], errors: [], scanning: false, lastResultAt: Date.now() },
    })
    api.emitEvent({ type: 'discovery_complete', data: { timestamp: Date.now() } })
    await expect.element(panel().getByText(/Scanning network/)).not.toBeInTheDocument()
    answer.resolve(Response.json({ ...DISCOVERY_EMPTY, scanning: true }, { status: 202 }))
    // This toast follows the answer's handling: the stale "scanning" was dropped by then.
    await expect.poll(toasts).toContain('success: Discovery scan started')
    await expect.element(panel().getByText(/Scanning network/)).not.toBeInTheDocument()
    await expect.element(scanNow).toBeEnabled()
  })

  test('an immediate update merges its servers into the known ones', async () => {
    nodesServer({
      discovery: {
        ...DISCOVERY_EMPTY,
        lastResultAt: Date.now(),
        servers: [{ ip: '127.0.0.2', port: 8006, type: 'pve', version: '8.2.4' }],
      },
    })
    const api = await openPveTab()
    await expect.poll(discovered).toEqual(['127.0.0.2'])
    api.emitEvent({
      type: 'discovery_update',
      data: {
        servers: [{ ip: '127.0.0.3', port: 8006, type: 'pve', version: '8.2.4' }],
        errors: [],
        immediate: true,
        timestamp: Math.floor(Date.now() / 1000),
      },
    })
    await expect.poll(discovered).toEqual(['127.0.0.2', '127.0.0.3'])
  })
})

describe('theme (spec 001 §2 Shell)', () => {
  test('follows a theme another browser saved, and keeps it locally', async () => {
    nodesServer()
    localStorage.setItem(THEME_KEY, 'light')
    const api = await openPveTab()
    api.emitEvent({ type: 'settingsUpdate', data: { theme: 'dark' } })
    await expect.poll(() => document.documentElement.classList.contains('dark')).toBe(true)
    expect(localStorage.getItem(THEME_KEY)).toBe('dark')
    await expect.element(page.getByRole('button', { name: 'Switch to light mode' })).toBeVisible()
    api.emitEvent({ type: 'settingsUpdate', data: { theme: 'light' } })
    await expect.poll(() => document.documentElement.classList.contains('dark')).toBe(false)
  })

  test('the toggle saves the theme on the server as well', async () => {
    const { mock } = nodesServer({
      routes: { 'POST /api/system/theme': (body) => Response.json(body) },
    })
    localStorage.setItem(THEME_KEY, 'light')
    await openPveTab()
    await page.getByRole('button', { name: 'Switch to dark mode' }).click()
    await expect.poll(() => callsTo(mock, 'POST', '/api/system/theme').length).toBe(1)
    expect(bodyOf(mock, 'POST', '/api/system/theme')).toEqual({ theme: 'dark' })
    expect(localStorage.getItem(THEME_KEY)).toBe('dark')
    expect(document.documentElement.classList.contains('dark')).toBe(true)
  })

  test('at start, the theme stored on the server wins over the local one', async () => {
    nodesServer({ routes: { 'GET /api/system/theme': () => Response.json({ theme: 'dark' }) } })
    localStorage.setItem(THEME_KEY, 'light')
    await openPveTab()
    await expect.poll(() => document.documentElement.classList.contains('dark')).toBe(true)
    expect(localStorage.getItem(THEME_KEY)).toBe('dark')
  })
})
