// Settings > Diagnostics end to end (issue 16 acceptance 4): the built app, the real server and
// the demo's simulator (PVE clusters and a PBS) in Chromium. Every configured node and PBS is
// reported from a live check, and the "Export for GitHub" download contains none of the demo's
// IPs, hostnames, token ids, node or guest names.
import fs from 'node:fs'
import { expect, test } from '@playwright/test'
import { createServerProcess, type ServerProcess } from './server-process.ts'

let server: ServerProcess

test.beforeAll(async () => {
  server = await createServerProcess({
    DEMO_CLUSTERS: '2',
    DEMO_NODES_PER_CLUSTER: '2',
    DEMO_GUESTS_PER_NODE: '15',
    DEMO_PBS: '1',
  })
  await server.start()
})

test.afterAll(async () => {
  await server.stop()
  server.cleanup()
})

interface NodeWire {
  type: 'pve' | 'pbs'
  name: string
  host: string
  tokenName?: string
}
interface StateWire {
  nodes: Array<{ name: string; host: string; instance: string }>
  pbs: Array<{ name: string; host: string }>
  vms: Array<{ name: string }>
  containers: Array<{ name: string }>
}

const getJson = async <T>(path: string): Promise<T> =>
  (await (await fetch(`${server.url}${path}`)).json()) as T

test('runs diagnostics against the demo and exports a sanitized report', async ({ page }) => {
  const configured = await getJson<NodeWire[]>('/api/config/nodes')
  expect(configured.filter((n) => n.type === 'pbs').length).toBeGreaterThan(0)
  await expect
    .poll(async () => (await getJson<StateWire>('/api/state')).vms.length, { timeout: 60_000 })
    .toBeGreaterThan(0)

  await page.goto(`${server.url}/settings/diagnostics`)
  await expect(page.getByRole('button', { name: 'Export for GitHub' })).toBeDisabled()
  await page.getByRole('button', { name: 'Run Diagnostics' }).click()
  for (const node of configured) {
    const item = page.getByRole('listitem', { name: `${node.type.toUpperCase()} ${node.name}` })
    await expect(item.getByText('Connected', { exact: true })).toBeVisible({ timeout: 30_000 })
    await expect(item.getByText(node.host)).toBeVisible()
  }

  const download = page.waitForEvent('download')
  await page.getByRole('button', { name: 'Export for GitHub' }).click()
  const file = await download
  expect(file.suggestedFilename()).toMatch(/^pulse-diagnostics-github-\d{4}-\d{2}-\d{2}\.json$/)
  const text = fs.readFileSync(await file.path(), 'utf8')
  const doc = JSON.parse(text) as { sanitized: boolean; report: { nodes: unknown[] } }
  expect(doc.sanitized).toBe(true)
  expect(doc.report.nodes.length).toBe(configured.filter((n) => n.type === 'pve').length)

  const state = await getJson<StateWire>('/api/state')
  const hostname = (url: string) => new URL(url).hostname
  const forbidden = new Set(
    [
      '127.0.0.1',
      ...configured.flatMap((n) => [n.name, hostname(n.host), n.tokenName ?? '']),
      ...state.nodes.flatMap((n) => [n.name, n.instance, hostname(n.host)]),
      ...state.pbs.flatMap((p) => [p.name, hostname(p.host)]),
      ...state.vms.map((g) => g.name),
      ...state.containers.map((g) => g.name),
    ].filter(Boolean),
  )
  expect(forbidden.size).toBeGreaterThan(50)
  const lower = text.toLowerCase()
  expect([...forbidden].filter((value) => lower.includes(value.toLowerCase()))).toEqual([])
})
