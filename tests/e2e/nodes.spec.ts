// Issue 5 acceptance 1 and 2 in Chromium: with simulators running and no nodes configured, add a
// PVE cluster and a PBS by API token through Settings, see the live state fill, edit with blank
// secrets, delete; and each connection failure gives its own message and stores nothing.
import { expect, test, type Page } from '@playwright/test'
import { createServerProcess, type ServerProcess } from './server-process.ts'
import { startSims, type SimProcess } from './support/sims.ts'

let server: ServerProcess
let sims: SimProcess

test.describe.configure({ mode: 'serial' })

test.beforeAll(async () => {
  sims = await startSims()
  // No demo: an empty instance that monitors only what the user adds.
  server = await createServerProcess({ DEMO_MODE: 'false', PULSE_POLL_INTERVAL_MS: '2000' })
  await server.start()
})

test.afterAll(async () => {
  await server?.stop()
  server?.cleanup()
  await sims?.stop()
})

interface StateSummary {
  nodes: { instance: string }[]
  vms: { instance: string }[]
  containers: { instance: string; networkInterfaces?: unknown[] }[]
  storage: unknown[]
  physicalDisks: unknown[]
  pbs: { name: string; datastores: unknown[] }[]
  pbsBackups: unknown[]
  storageBackups: unknown[]
  guestSnapshots: unknown[]
  backupTasks: unknown[]
}

async function state(): Promise<StateSummary> {
  const res = await fetch(`${server.url}/api/state?format=internal`)
  return (await res.json()) as StateSummary
}

async function storedNodes(): Promise<{ id: string; name: string; type: string }[]> {
  const res = await fetch(`${server.url}/api/config/nodes`)
  return (await res.json()) as { id: string; name: string; type: string }[]
}

const dialog = (page: Page, name: string) => page.getByRole('dialog', { name })

async function fillToken(page: Page, title: string, values: Record<string, string>) {
  const modal = dialog(page, title)
  for (const [label, value] of Object.entries(values)) {
    await modal.getByLabel(label, { exact: true }).fill(value)
  }
  return modal
}

test('adds a PVE cluster and a PBS by token, the live tabs fill, edit keeps secrets, delete removes', async ({
  page,
}) => {
  const { pve, pbs } = sims.details
  await page.goto(`${server.url}/settings/pve`)
  await expect(page.getByText('No PVE nodes configured')).toBeVisible()

  // PVE: Test Connection detects the cluster; Add.
  await page.getByRole('button', { name: 'Add PVE Node' }).click()
  const pveTitle = 'Add Proxmox VE node'
  const modal = await fillToken(page, pveTitle, {
    'Node Name': 'lab',
    'Host URL': pve.url,
    'Token ID': pve.tokenId,
    'Token Value': pve.tokenSecret,
    'SSL Fingerprint': pve.fingerprint,
  })
  await modal.getByLabel('Verify SSL certificate').uncheck()
  await modal.getByRole('button', { name: 'Test Connection' }).click()
  await expect(modal.getByText('Connection successful')).toBeVisible()
  await expect(modal.locator('[data-cluster-note]')).toContainText(`Cluster detected: ${pve.name}`)
  await modal.getByRole('button', { name: 'Add Node' }).click()
  await expect(page.getByText('Node added successfully')).toBeVisible()
  await expect(dialog(page, pveTitle)).toBeHidden()

  // Within a poll cycle or two the live state has the cluster, its guests and the slower parts.
  // The simulator ticks every second and its random events create and destroy a guest now and
  // then, so the estate may differ from its size at start by a guest or two.
  await expect
    .poll(
      async () => {
        const now = await state()
        return Math.abs(now.vms.length + now.containers.length - pve.guests)
      },
      { timeout: 15_000 },
    )
    .toBeLessThanOrEqual(2)
  await expect
    .poll(async () => (await state()).storage.length, { timeout: 15_000 })
    .toBeGreaterThan(0)
  // The node list shows it connected, as a cluster with its endpoints.
  await expect(page.locator('[data-cluster]')).toContainText(pve.name, { timeout: 15_000 })

  // PBS by token.
  await page.goto(`${server.url}/settings/pbs`)
  await expect(page.getByText('No PBS nodes configured')).toBeVisible()
  await page.getByRole('button', { name: 'Add PBS Node' }).click()
  const pbsTitle = 'Add Proxmox Backup Server node'
  const pbsModal = await fillToken(page, pbsTitle, {
    'Node Name': 'backup',
    'Host URL': pbs.url,
    'Token ID': pbs.tokenId,
    'Token Value': pbs.tokenSecret,
    'SSL Fingerprint': pbs.fingerprint,
  })
  await pbsModal.getByLabel('Verify SSL certificate').uncheck()
  await pbsModal.getByRole('button', { name: 'Test Connection' }).click()
  await expect(pbsModal.getByText('Connection successful')).toBeVisible()
  await pbsModal.getByRole('button', { name: 'Add Node' }).click()
  await expect(page.getByText('Node added successfully')).toBeVisible()
  await expect
    .poll(async () => (await state()).pbsBackups.length, { timeout: 20_000 })
    .toBeGreaterThan(0)
  expect((await state()).pbs[0]?.datastores.length).toBeGreaterThan(0)

  // The dashboard lists the cluster's nodes, each with a link to its web interface.
  await page.goto(`${server.url}/`)
  for (const name of pve.nodeNames) {
    await expect(
      page.getByRole('link', { name: `Open ${name} in the Proxmox web interface` }),
    ).toBeVisible()
  }

  // Edit with blank secrets keeps them: the stored node still connects.
  await page.goto(`${server.url}/settings/pve`)
  await page.getByRole('button', { name: 'Edit' }).first().click()
  const editModal = dialog(page, 'Edit Proxmox VE node')
  await expect(editModal.getByLabel('Token Value', { exact: true })).toHaveValue('')
  await editModal.getByRole('button', { name: 'Update Node' }).click()
  await expect(page.getByText('Node updated successfully')).toBeVisible()
  const lab = (await storedNodes()).find((n) => n.name === 'lab')!
  const tested = await fetch(`${server.url}/api/config/nodes/${lab.id}/test`, {
    method: 'POST',
    headers: { 'X-Requested-With': 'XMLHttpRequest' },
  })
  expect(tested.status).toBe(200)
  expect(((await tested.json()) as { message: string }).message).toBe('Connection successful')

  // Delete removes its data from the live state.
  await page.getByRole('button', { name: 'Delete' }).first().click()
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click()
  await expect(page.getByText('Node deleted successfully')).toBeVisible()
  await expect
    .poll(async () => (await state()).vms.filter((g) => g.instance === 'lab').length, {
      timeout: 15_000,
    })
    .toBe(0)
  expect((await state()).nodes.filter((n) => n.instance === 'lab')).toHaveLength(0)
})

test('connection failures each give their own message and leave the stored config unchanged', async ({
  page,
}) => {
  const { pve, pbs } = sims.details
  const before = await storedNodes()
  await page.goto(`${server.url}/settings/pve`)
  await page.getByRole('button', { name: 'Add PVE Node' }).click()
  const title = 'Add Proxmox VE node'
  const modal = await fillToken(page, title, {
    'Host URL': pve.url,
    'Token ID': pve.tokenId,
    'Token Value': 'not-the-secret',
    'SSL Fingerprint': pve.fingerprint,
  })
  await modal.getByLabel('Verify SSL certificate').uncheck()
  const test = modal.getByRole('button', { name: 'Test Connection' })
  const error = modal.getByRole('alert')

  await test.click()
  await expect(error).toContainText('rejected the credentials')

  await modal.getByLabel('Token Value', { exact: true }).fill(pve.tokenSecret)
  await modal.getByLabel('SSL Fingerprint').fill('AA:'.repeat(31) + 'AA')
  await test.click()
  await expect(error).toContainText('does not match the pinned one')

  await modal.getByLabel('SSL Fingerprint').fill(pve.fingerprint)
  await modal.getByLabel('Host URL').fill('https://127.0.0.1:9')
  await test.click()
  await expect(error).toContainText('Cannot reach 127.0.0.1:9')
  await modal.getByRole('button', { name: 'Cancel' }).click()

  // PBS without https.
  await page.goto(`${server.url}/settings/pbs`)
  await page.getByRole('button', { name: 'Add PBS Node' }).click()
  const pbsModal = await fillToken(page, 'Add Proxmox Backup Server node', {
    'Host URL': pbs.url.replace('https://', 'http://'),
    'Token ID': pbs.tokenId,
    'Token Value': pbs.tokenSecret,
  })
  await pbsModal.getByRole('button', { name: 'Test Connection' }).click()
  await expect(pbsModal.getByRole('alert')).toContainText('PBS requires HTTPS')

  // The API says the same, and nothing was stored by any of it.
  const res = await fetch(`${server.url}/api/config/nodes/test-connection`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Requested-With': 'XMLHttpRequest' },
    body: JSON.stringify({
      type: 'pve',
      host: pve.url,
      tokenName: pve.tokenId,
      tokenValue: 'wrong',
      fingerprint: pve.fingerprint,
      verifySSL: false,
    }),
  })
  expect(res.status).toBe(502)
  expect(((await res.json()) as { message: string }).message).toContain('rejected the credentials')
  expect(await storedNodes()).toEqual(before)
})
