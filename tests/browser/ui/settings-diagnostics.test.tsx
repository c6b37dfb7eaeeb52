// Settings > Diagnostics (spec 001 §2 Diagnostics tab, §8 texts) in Chromium with the server's
// routes stubbed; the real routes run against the demo in tests/unit/server/http/diagnostics.test.ts.
import { describe, expect, test, vi } from 'vitest'
import { page } from 'vitest/browser'
import type { DiagnosticsReport } from '../../../src/shared/model/diagnostics.ts'
import { callsTo, useAuthHarness, worker } from './auth-harness.ts'
import { renderApp, stubServer } from './render.tsx'

useAuthHarness()

const REPORT: DiagnosticsReport = {
  version: '1.2.3',
  runtime: 'node v20.19.0',
  uptime: 42,
  checkedAt: Date.UTC(2026, 0, 2, 3, 4, 5),
  connection: {
    port: 7655,
    websocketClients: 2,
    pveNodes: 2,
    pbsNodes: 1,
    vms: 120,
    containers: 30,
  },
  nodes: [
    {
      id: 'n1',
      name: 'cluster-a',
      host: 'https://10.0.0.1:8006',
      type: 'pve',
      authMethod: 'api_token',
      connected: true,
      details: { node_count: 3, version: '9.0.3' },
      clusterInfo: { name: 'cluster-a', nodes: 3 },
      vmDiskCheck: {
        vmsFound: 120,
        testVMID: 101,
        permission: 'VM.GuestAgent.Audit',
        testResult: { status: 'failed', message: 'Guest agent reads need VM.GuestAgent.Audit' },
      },
      backupListing: { status: 'ok', message: 'Backups listed on local (4 found)' },
      physicalDisks: {
        nodesChecked: 3,
        nodesWithDisks: 3,
        totalDisks: 7,
        testResult: { status: 'ok', message: 'Physical disks readable' },
      },
    },
    {
      id: 'n2',
      name: 'lab-host',
      host: 'https://192.168.9.9:8006',
      type: 'pve',
      authMethod: 'username_password',
      connected: false,
      error: 'Cannot reach 192.168.9.9:8006: connection refused.',
    },
  ],
  pbs: [
    {
      id: 'b1',
      name: 'pbs-main',
      host: 'https://10.0.0.5:8007',
      type: 'pbs',
      authMethod: 'api_token',
      connected: true,
      details: { version: '3.4.1', datastores: 2 },
    },
  ],
  system: { os: 'Linux 6.1', arch: 'x64', nodeVersion: 'v20.19.0', numCPU: 4, memoryMB: 210 },
  recommendations: [
    'lab-host: check the host, port, firewall and credentials; run its Test button.',
    "cluster-a: grant VM.GuestAgent.Audit to the token's role so VM disk usage comes from the guest agent.",
  ],
  errors: ['lab-host: Cannot reach 192.168.9.9:8006: connection refused.'],
}

function serve(diagnostics: () => Response | Promise<Response>) {
  return stubServer({
    route: (url) => {
      const { pathname } = new URL(url, window.location.href)
      if (pathname === '/api/diagnostics') return diagnostics()
      if (pathname === '/api/diagnostics/export') {
        return new Response('{"kind":"pulse-diagnostics"}', {
          headers: {
            'Content-Type': 'application/json',
            'Content-Disposition':
              'attachment; filename="pulse-diagnostics-github-2026-01-02.json"',
          },
        })
      }
      return undefined
    },
  })
}

function captureDownloads() {
  const names: string[] = []
  vi.spyOn(URL, 'createObjectURL').mockImplementation(() => 'blob:diagnostics')
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {})
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    names.push(this.download)
  })
  return names
}

const runButton = () => page.getByRole('button', { name: 'Run Diagnostics' })
const result = (name: string) => page.getByRole('listitem', { name })

describe('Diagnostics tab', () => {
  test('before a run: version, labels, the hint, and exports disabled', async () => {
    serve(() => Response.json(REPORT))
    renderApp(worker(), '/settings/diagnostics')
    await expect.element(runButton()).toBeVisible()
    await expect
      .element(page.getByRole('region', { name: 'Diagnostics' }).getByText('Pulse v1.2.3'))
      .toBeVisible()
    await expect.element(page.getByText('React SPA + Web Worker')).toBeVisible()
    await expect
      .element(page.getByText('Run diagnostics first to enable the exports.'))
      .toBeVisible()
    await expect.element(page.getByRole('button', { name: 'Export Full' })).toBeDisabled()
    await expect.element(page.getByRole('button', { name: 'Export for GitHub' })).toBeDisabled()
  })

  test('a run shows every node and PBS with status, host, auth method, error and checks', async () => {
    let release: (r: Response) => void = () => {}
    const mock = serve(() => new Promise<Response>((resolve) => (release = resolve)))
    renderApp(worker(), '/settings/diagnostics')
    await runButton().click()
    await expect.element(page.getByRole('button', { name: 'Running...' })).toBeDisabled()
    release(Response.json(REPORT))

    const cluster = result('PVE cluster-a')
    await expect.element(cluster.getByText('Connected')).toBeVisible()
    await expect.element(cluster.getByText('https://10.0.0.1:8006')).toBeVisible()
    await expect.element(cluster.getByText('API token')).toBeVisible()
    await expect
      .element(cluster.getByText('Guest agent reads need VM.GuestAgent.Audit'))
      .toBeVisible()
    await expect.element(cluster.getByText('Backups listed on local (4 found)')).toBeVisible()
    const lab = result('PVE lab-host')
    await expect.element(lab.getByText('Failed')).toBeVisible()
    await expect.element(lab.getByText('Username and password')).toBeVisible()
    await expect.element(lab.getByRole('alert')).toHaveTextContent('connection refused')
    await expect.element(result('PBS pbs-main').getByText('Connected')).toBeVisible()
    await expect.element(page.getByText('2 datastores')).toBeVisible()
    await expect.element(page.getByText(REPORT.recommendations[0]!)).toBeVisible()
    await expect.element(page.getByText('Node.js (node v20.19.0)')).toBeVisible()
    await expect.element(page.getByText('7655')).toBeVisible()
    // 24-hour, as every other time in the UI (issue 24 #33); the hour depends on the zone.
    const at = new Date(REPORT.checkedAt)
    const hh = String(at.getHours()).padStart(2, '0')
    const day = String(at.getDate()).padStart(2, '0')
    await expect.element(page.getByText(`Checked at 2026-01-${day} ${hh}:04:05`)).toBeVisible()
    expect(callsTo(mock, 'GET', '/api/diagnostics')).toHaveLength(1)
  })

  test('the exports download the file the server names, sanitized for GitHub', async () => {
    const mock = serve(() => Response.json(REPORT))
    const names = captureDownloads()
    renderApp(worker(), '/settings/diagnostics')
    await runButton().click()
    await expect.element(result('PVE cluster-a')).toBeVisible()
    await page.getByRole('button', { name: 'Export for GitHub' }).click()
    await expect.poll(() => names).toEqual(['pulse-diagnostics-github-2026-01-02.json'])
    await page.getByRole('button', { name: 'Export Full' }).click()
    await expect.poll(() => names.length).toBe(2)
    const urls = callsTo(mock, 'GET', '/api/diagnostics/export').map(([url]) => String(url))
    expect(urls).toEqual([
      '/api/diagnostics/export?sanitize=true',
      '/api/diagnostics/export?sanitize=false',
    ])
  })

  test('a failing run says "Failed to run diagnostics"', async () => {
    serve(() => Response.json({ code: 'INTERNAL', message: 'boom' }, { status: 500 }))
    renderApp(worker(), '/settings/diagnostics')
    await runButton().click()
    await expect.element(page.getByText('Failed to run diagnostics', { exact: true })).toBeVisible()
    await expect.element(runButton()).toBeEnabled()
  })

  test('fits a 390 px phone without horizontal scrolling', async () => {
    await page.viewport(390, 800)
    serve(() => Response.json(REPORT))
    renderApp(worker(), '/settings/diagnostics', { width: 390, height: 800 })
    await runButton().click()
    await expect.element(result('PVE cluster-a')).toBeVisible()
    const root = document.scrollingElement!
    expect(root.scrollWidth).toBeLessThanOrEqual(root.clientWidth + 1)
  })
})
