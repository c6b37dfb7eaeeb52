// Settings > PVE/PBS Nodes, the Add/Edit node modal (spec 001 §2 Add/Edit node modal, §4 Node
// form and Test connection, §5 node rules, §8 texts) with a stubbed fetch and a fake worker.
import { describe, expect, test, vi } from 'vitest'
import { page, userEvent } from 'vitest/browser'
import { useAuthHarness } from './auth-harness.ts'
import {
  PBS_NODE,
  PVE_CLUSTER_NODE,
  PVE_TOKEN_NODE,
  bodyOf,
  callsTo,
  captureDownloads,
  deferred,
  dialog,
  dotOf,
  nodeItem,
  nodesServer,
  openNodesTab,
  toasts,
} from './settings-nodes-harness.ts'

useAuthHarness()

const ADD_PVE = 'Add Proxmox VE node'
const addPve = () => dialog(ADD_PVE)
const field = (name: string) => page.getByLabelText(name, { exact: true })
const button = (name: string) => page.getByRole('button', { name, exact: true })
const testResult = () => page.getByTestId('test-result')

async function openAddPve() {
  await button('Add PVE Node').click()
  await expect.element(addPve()).toBeVisible()
}

describe('the Add node modal (spec 001 §2, §4)', () => {
  test('titles, sections and defaults: token auth, Quick Setup, SSL verification on', async () => {
    nodesServer()
    await openNodesTab('pve')
    await openAddPve()
    const modal = addPve()
    await expect.element(modal).toHaveAttribute('aria-modal', 'true')
    for (const section of ['Basic information', 'Authentication', 'SSL settings']) {
      await expect.element(modal.getByRole('heading', { name: section })).toBeVisible()
    }
    await expect.element(field('Node Name')).toHaveFocus()
    await expect
      .element(field('Host URL'))
      .toHaveAttribute('placeholder', 'https://proxmox.example.com:8006')
    await expect.element(page.getByRole('radio', { name: /API Token/ })).toBeChecked()
    await expect
      .element(page.getByRole('radio', { name: /API Token/ }))
      .toHaveAccessibleName('API Token Recommended')
    await expect
      .element(page.getByRole('tab', { name: 'Quick Setup' }))
      .toHaveAttribute('aria-selected', 'true')
    await expect.element(field('Verify SSL certificate')).toBeChecked()
    await expect.element(field('SSL Fingerprint')).toHaveValue('')
    await expect
      .element(modal.getByRole('note', { name: 'Monitoring coverage' }))
      .toHaveTextContent(/VMs, containers, storage and backups/)
    expect(button('Back to Discovery').query()).toBeNull()
    // Escape closes it and hands the focus back.
    await userEvent.keyboard('{Escape}')
    await expect.element(addPve()).not.toBeInTheDocument()
    await expect.element(button('Add PVE Node')).toHaveFocus()
  })

  test('PBS: its title, the :8007 placeholder, and a form reset to the defaults on each open', async () => {
    nodesServer()
    await openNodesTab('pbs')
    await button('Add PBS Node').click()
    const modal = dialog('Add Proxmox Backup Server node')
    await expect
      .element(field('Host URL'))
      .toHaveAttribute('placeholder', 'https://proxmox.example.com:8007')
    await page.getByRole('radio', { name: 'Username & Password' }).click()
    await field('Host URL').fill('https://pbs.example.com')
    await modal.getByRole('button', { name: 'Cancel' }).click()
    await button('Add PBS Node').click()
    await expect.element(field('Host URL')).toHaveValue('')
    await expect.element(page.getByRole('radio', { name: /API Token/ })).toBeChecked()
  })

  test('adds a PVE node by token: the payload sent, the toast, and the node shown as pending', async () => {
    const { mock, state } = nodesServer({
      routes: {
        'POST /api/config/nodes': (body) => {
          const saved = { ...PVE_TOKEN_NODE, ...body, id: 'pve-9', status: 'pending' }
          state.nodes = [...state.nodes, saved]
          return Response.json(saved, { status: 201 })
        },
      },
    })
    await openNodesTab('pve')
    await openAddPve()
    await field('Node Name').fill('pve-new')
    await field('Host URL').fill('https://pve9.example.com:8006')
    await page.getByRole('tab', { name: 'Manual Setup' }).click()
    await field('Token ID').fill('pulse-monitor@pam!pulse-token')
    await field('Token Value').fill('0f1e2d3c-aaaa-bbbb-cccc-111122223333')
    await field('Verify SSL certificate').click()
    await field('SSL Fingerprint').fill('AA:BB:CC')
    await button('Add Node').click()

    await expect.poll(toasts).toContain('success: Node added successfully')
    await expect.element(addPve()).not.toBeInTheDocument()
    expect(bodyOf(mock, 'POST', '/api/config/nodes')).toEqual({
      type: 'pve',
      name: 'pve-new',
      host: 'https://pve9.example.com:8006',
      fingerprint: 'AA:BB:CC',
      verifySSL: false,
      tokenName: 'pulse-monitor@pam!pulse-token',
      tokenValue: '0f1e2d3c-aaaa-bbbb-cccc-111122223333',
      monitorVMs: true,
      monitorContainers: true,
      monitorStorage: true,
      monitorBackups: true,
    })
    await expect.element(nodeItem('pve-new')).toBeVisible()
    expect(dotOf('pve-new')).toMatchObject({ tone: 'amber', label: 'Status: Pending' })
  })

  test('validation texts; nothing is sent while the form is invalid', async () => {
    const { mock } = nodesServer()
    await openNodesTab('pve')
    await openAddPve()
    const alert = () => addPve().getByRole('alert')

    await button('Add Node').click()
    await expect.element(alert()).toHaveTextContent('Host URL is required')
    await field('Host URL').fill('https://pve.example.com')
    await button('Test Connection').click()
    await expect.element(testResult()).toHaveTextContent('Token ID and token value are required')
    await button('Add Node').click()
    await expect
      .element(addPve().getByRole('alert').filter({ hasText: 'Token ID is required' }))
      .toBeVisible()

    await page.getByRole('radio', { name: 'Username & Password' }).click()
    await field('Username').fill('root@pam')
    await button('Test Connection').click()
    await expect.element(testResult()).toHaveTextContent('Username and password are required')
    await field('Username').fill('')
    await button('Add Node').click()
    await expect
      .element(addPve().getByRole('alert').filter({ hasText: 'Username is required' }))
      .toBeVisible()
    expect(callsTo(mock, 'POST', '/api/config/nodes')).toHaveLength(0)
    expect(callsTo(mock, 'POST', '/api/config/nodes/test-connection')).toHaveLength(0)
  })

  test('PBS requires HTTPS', async () => {
    nodesServer()
    await openNodesTab('pbs')
    await button('Add PBS Node').click()
    await field('Host URL').fill('http://pbs.example.com')
    await button('Add Node').click()
    await expect
      .element(dialog('Add Proxmox Backup Server node').getByRole('alert'))
      .toHaveTextContent('PBS requires HTTPS')
  })

  test('a server refusal is shown in the modal, which stays open', async () => {
    nodesServer({
      routes: {
        'POST /api/config/nodes': () =>
          Response.json(
            { code: 'NODE_NAME_TAKEN', message: 'A node named pve-one already exists.' },
            { status: 409 },
          ),
      },
    })
    await openNodesTab('pve')
    await openAddPve()
    await field('Host URL').fill('https://pve.example.com')
    await field('Token ID').fill('a@pam!b')
    await field('Token Value').fill('secret')
    await button('Add Node').click()
    await expect
      .element(addPve().getByRole('alert'))
      .toHaveTextContent('A node named pve-one already exists.')
  })
})

describe('Test Connection (spec 001 §4, §8)', () => {
  async function fillToken() {
    await field('Host URL').fill('https://pve.example.com:8006')
    await field('Token ID').fill('pulse-monitor@pam!pulse-token')
    await field('Token Value').fill('secret-value')
  }

  test('Testing... while running, then Connection successful and the cluster note', async () => {
    const answer = deferred<Response>()
    const { mock } = nodesServer({
      routes: { 'POST /api/config/nodes/test-connection': () => answer.promise },
    })
    await openNodesTab('pve')
    await openAddPve()
    await fillToken()
    await button('Test Connection').click()
    await expect.element(button('Testing...')).toBeDisabled()
    answer.resolve(
      Response.json({
        status: 'success',
        message: 'Connection successful',
        isCluster: true,
        clusterName: 'lab',
        nodeCount: 3,
      }),
    )
    await expect.element(testResult()).toHaveTextContent(/^Connection successful/)
    await expect.element(testResult().getByText(/Cluster detected: lab with 3 nodes/)).toBeVisible()
    await expect.element(button('Test Connection')).toBeEnabled()
    expect(bodyOf(mock, 'POST', '/api/config/nodes/test-connection')).toMatchObject({
      type: 'pve',
      host: 'https://pve.example.com:8006',
      tokenName: 'pulse-monitor@pam!pulse-token',
      tokenValue: 'secret-value',
      verifySSL: true,
    })
  })

  test.each([
    ['API request failed: 401 authentication failure', 'authentication failure'],
    ['API request failed: 500', 'Connection failed'],
    ['Cannot reach pve.example.com: timed out.', 'Cannot reach pve.example.com: timed out.'],
  ])('a failure %j shows %j', async (message, shown) => {
    nodesServer({
      routes: {
        'POST /api/config/nodes/test-connection': () =>
          Response.json({ code: 'PVE_UNREACHABLE', message }, { status: 502 }),
      },
    })
    await openNodesTab('pve')
    await openAddPve()
    await fillToken()
    await button('Test Connection').click()
    await expect
      .element(testResult().getByRole('alert'))
      .toHaveTextContent(new RegExp(`^${shown}$`))
  })

  test('PBS success names the datastores found', async () => {
    nodesServer({
      routes: {
        'POST /api/config/nodes/test-connection': () =>
          Response.json({ status: 'success', message: 'Connection successful', datastoreCount: 2 }),
      },
    })
    await openNodesTab('pbs')
    await button('Add PBS Node').click()
    await field('Host URL').fill('https://pbs.example.com')
    await field('Token ID').fill('pulse-monitor@pbs!pulse-token')
    await field('Token Value').fill('secret')
    await button('Test Connection').click()
    await expect.element(testResult()).toHaveTextContent('Connection successful2 datastores found.')
  })
})

describe('editing a node (spec 001 §4 prefill, blank secrets kept)', () => {
  test('password node: prefilled, blank password kept (omitted), toast, the stored-node test', async () => {
    const { mock, state } = nodesServer({
      nodes: [PVE_CLUSTER_NODE],
      routes: {
        'PUT /api/config/nodes/pve-2': (body) => {
          state.nodes = [{ ...PVE_CLUSTER_NODE, ...body, status: 'connected' }]
          return Response.json(state.nodes[0])
        },
        'POST /api/config/nodes/pve-2/test': () =>
          Response.json({ status: 'success', message: 'Connection successful', isCluster: false }),
        'POST /api/config/nodes/test-connection': () =>
          Response.json({ status: 'success', message: 'Connection successful', isCluster: false }),
      },
    })
    await openNodesTab('pve')
    await nodeItem('lab-cluster').getByRole('button', { name: 'Edit' }).click()
    const modal = dialog('Edit Proxmox VE node')
    await expect.element(modal).toBeVisible()
    await expect.element(field('Node Name')).toHaveValue('lab-cluster')
    await expect.element(field('Host URL')).toHaveValue('https://127.0.0.11:8006')
    await expect.element(page.getByRole('radio', { name: 'Username & Password' })).toBeChecked()
    await expect.element(field('Username')).toHaveValue('root@pam')
    await expect.element(field('Password')).toHaveValue('')
    await expect
      .element(field('Password'))
      .toHaveAccessibleDescription('Leave blank to keep the stored password.')
    await expect.element(field('Verify SSL certificate')).not.toBeChecked()

    // No new secret and nothing changed: the existing-node test.
    await button('Test Connection').click()
    await expect.element(testResult()).toHaveTextContent('Connection successful')
    expect(callsTo(mock, 'POST', '/api/config/nodes/pve-2/test')).toHaveLength(1)
    // Changed settings: the form, with the id so the stored password is reused.
    await field('Verify SSL certificate').click()
    await button('Test Connection').click()
    await expect
      .poll(() => callsTo(mock, 'POST', '/api/config/nodes/test-connection').length)
      .toBe(1)
    const tested = bodyOf(mock, 'POST', '/api/config/nodes/test-connection')
    expect(tested).toMatchObject({ id: 'pve-2', user: 'root@pam', verifySSL: true })
    expect(tested).not.toHaveProperty('password')

    await field('Node Name').fill('lab-renamed')
    await button('Update Node').click()
    await expect.poll(toasts).toContain('success: Node updated successfully')
    await expect.element(modal).not.toBeInTheDocument()
    const sent = bodyOf(mock, 'PUT', '/api/config/nodes/pve-2')
    expect(sent).toEqual({
      type: 'pve',
      name: 'lab-renamed',
      host: 'https://127.0.0.11:8006',
      fingerprint: '',
      verifySSL: true,
      user: 'root@pam',
      monitorVMs: true,
      monitorContainers: true,
      monitorStorage: true,
      monitorBackups: true,
    })
    await expect.element(nodeItem('lab-renamed')).toBeVisible()
  })

  test('token node: token auth, token id kept, blank value omitted; a new value is sent', async () => {
    const { mock } = nodesServer({
      nodes: [PVE_TOKEN_NODE],
      routes: {
        'PUT /api/config/nodes/pve-1': (body) => Response.json({ ...PVE_TOKEN_NODE, ...body }),
      },
    })
    await openNodesTab('pve')
    await nodeItem('pve-one').getByRole('button', { name: 'Edit' }).click()
    await expect.element(page.getByRole('radio', { name: /API Token/ })).toBeChecked()
    await expect.element(field('Token ID')).toHaveValue('pulse-monitor@pam!pulse-token')
    await expect.element(field('Token Value')).toHaveValue('')
    await expect
      .element(field('Token Value'))
      .toHaveAccessibleDescription('Leave blank to keep the stored token value.')
    await button('Update Node').click()
    await expect.poll(() => callsTo(mock, 'PUT', '/api/config/nodes/pve-1').length).toBe(1)
    expect(bodyOf(mock, 'PUT', '/api/config/nodes/pve-1')).not.toHaveProperty('tokenValue')

    await nodeItem('pve-one').getByRole('button', { name: 'Edit' }).click()
    await field('Token Value').fill('new-token-value')
    await button('Update Node').click()
    await expect.poll(() => callsTo(mock, 'PUT', '/api/config/nodes/pve-1').length).toBe(2)
    expect(bodyOf(mock, 'PUT', '/api/config/nodes/pve-1', 1)).toMatchObject({
      tokenName: 'pulse-monitor@pam!pulse-token',
      tokenValue: 'new-token-value',
    })
  })

  test('PBS token node: switching to password shows the user derived from the token id', async () => {
    nodesServer({ nodes: [PBS_NODE] })
    await openNodesTab('pbs')
    await nodeItem('backup-one').getByRole('button', { name: 'Edit' }).click()
    await expect.element(dialog('Edit Proxmox Backup Server node')).toBeVisible()
    await page.getByRole('radio', { name: 'Username & Password' }).click()
    await expect.element(field('Username')).toHaveValue('pulse-monitor@pbs')
  })
})

describe('Quick Setup and Manual Setup (spec 001 §2, §5, §7, §8)', () => {
  const COMMAND =
    "curl -fsSL 'http://127.0.0.1:7655/api/setup-script?type=pve&setup_token=abc' | bash"

  test('"Please enter the Host URL first", then the command with Copy; a host change clears it', async () => {
    const writeText = vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue(undefined)
    const { mock } = nodesServer({
      routes: {
        'POST /api/setup-script-url': () =>
          Response.json({
            url: 'http://127.0.0.1:7655/api/setup-script',
            command: COMMAND,
            expires: 0,
          }),
      },
    })
    await openNodesTab('pve')
    await openAddPve()
    await button('Generate setup command').click()
    await expect.poll(toasts).toContain('error: Please enter the Host URL first')
    expect(callsTo(mock, 'POST', '/api/setup-script-url')).toHaveLength(0)

    await field('Host URL').fill('https://pve.example.com:8006')
    await button('Generate setup command').click()
    const block = page.getByTestId('setup-command')
    await expect.element(block).toHaveTextContent(COMMAND)
    expect(bodyOf(mock, 'POST', '/api/setup-script-url')).toEqual({
      type: 'pve',
      host: 'https://pve.example.com:8006',
      backupPerms: true,
    })
    await block.getByRole('button', { name: 'Copy' }).click()
    expect(writeText).toHaveBeenCalledWith(COMMAND)
    await expect.poll(toasts).toContain('success: Command copied to clipboard!')
    await expect.element(block.getByRole('button', { name: 'Copied!' })).toBeVisible()

    await field('Host URL').fill('https://pve2.example.com:8006')
    await expect.element(block).not.toBeInTheDocument()

    // Leaving Quick Setup clears it too.
    await button('Generate setup command').click()
    await expect.element(page.getByTestId('setup-command')).toBeVisible()
    await page.getByRole('tab', { name: 'Manual Setup' }).click()
    await page.getByRole('tab', { name: 'Quick Setup' }).click()
    await expect.element(page.getByTestId('setup-command')).not.toBeInTheDocument()
  })

  test('a copy failure and a generation failure are toasts', async () => {
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new Error('denied'))
    let fail = false
    nodesServer({
      routes: {
        'POST /api/setup-script-url': () =>
          fail
            ? new Response('', { status: 500 })
            : Response.json({ url: 'http://127.0.0.1:7655/x', command: COMMAND }),
      },
    })
    await openNodesTab('pve')
    await openAddPve()
    await field('Host URL').fill('https://pve.example.com')
    await button('Generate setup command').click()
    await page.getByTestId('setup-command').getByRole('button', { name: 'Copy' }).click()
    await expect.poll(toasts).toContain('error: Failed to copy command')
    fail = true
    await field('Host URL').fill('https://pve2.example.com')
    await button('Generate setup command').click()
    await expect.poll(toasts).toContain('error: Failed to generate setup URL')
  })

  test('Download script fetches /api/setup-script and saves it', async () => {
    const { blobs, names } = captureDownloads()
    const { mock } = nodesServer({
      routes: {
        'GET /api/setup-script': () =>
          new Response('#!/bin/bash\necho setup\n', {
            headers: { 'Content-Type': 'text/x-shellscript' },
          }),
      },
    })
    await openNodesTab('pve')
    await openAddPve()
    await button('Download script').click()
    await expect.poll(toasts).toContain('error: Please enter the Host URL first')
    await field('Host URL').fill('https://pve.example.com:8006')
    await button('Download script').click()
    await expect.poll(() => names).toEqual(['pulse-setup-pve.sh'])
    expect(await blobs[0]!.text()).toBe('#!/bin/bash\necho setup\n')
    await expect
      .poll(toasts)
      .toContain('success: Script downloaded! Copy it to the node and run: bash pulse-setup-pve.sh')
    const url = new URL(
      String(callsTo(mock, 'GET', '/api/setup-script')[0]![0]),
      window.location.href,
    )
    expect(Object.fromEntries(url.searchParams)).toEqual({
      type: 'pve',
      host: 'https://pve.example.com:8006',
      pulse_url: window.location.origin,
      backup_perms: 'true',
    })
  })

  test('Manual Setup shows the commands to run by hand and the token fields', async () => {
    const writeText = vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue(undefined)
    nodesServer()
    await openNodesTab('pbs')
    await button('Add PBS Node').click()
    const tab = page.getByRole('tab', { name: 'Manual Setup' })
    await page.getByRole('tab', { name: 'Quick Setup' }).click()
    // Arrow keys move between the tabs.
    await userEvent.keyboard('{ArrowRight}')
    await expect.element(tab).toHaveFocus()
    await expect.element(tab).toHaveAttribute('aria-selected', 'true')
    const panel = page.getByRole('tabpanel')
    await expect
      .element(panel)
      .toHaveTextContent(/proxmox-backup-manager user generate-token pulse-monitor@pbs pulse-token/)
    await panel.getByRole('button', { name: 'Copy' }).click()
    expect(writeText.mock.calls[0]![0]).toContain('proxmox-backup-manager acl update / Audit')
    await expect.poll(toasts).toContain('success: Command copied!')
    await expect
      .element(field('Token ID'))
      .toHaveAttribute('placeholder', 'pulse-monitor@pbs!pulse-token')
    await expect.element(field('Token Value')).toBeVisible()
  })
})
