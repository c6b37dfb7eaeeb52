// Settings > PVE Nodes and PBS Nodes, the list (spec 001 §2 PVE and PBS tabs, §5 delete
// confirm, §8 node texts) with a stubbed fetch and a fake worker.
import { describe, expect, test, vi } from 'vitest'
import { page } from 'vitest/browser'
import { setDark } from '../../../src/ui/state.ts'
import { useAuthHarness } from './auth-harness.ts'
import {
  PBS_NODE,
  PVE_CLUSTER_NODE,
  PVE_ERROR_NODE,
  PVE_TOKEN_NODE,
  callsTo,
  deferred,
  dotOf,
  nodeItem,
  nodesServer,
  openNodesTab,
  toasts,
} from './settings-nodes-harness.ts'

useAuthHarness()

const ALL = [PVE_TOKEN_NODE, PVE_CLUSTER_NODE, PVE_ERROR_NODE, PBS_NODE]

describe('the node list (spec 001 §2)', () => {
  test('PVE nodes with status dots, auth kind, badges and the last error; PBS nodes elsewhere', async () => {
    nodesServer({ nodes: ALL })
    await openNodesTab('pve')
    await expect.element(nodeItem('pve-one')).toBeVisible()
    const names = [...document.querySelectorAll('[data-node] h3')].map((item) => item.textContent)
    expect(names).toEqual(['pve-one', 'lab-cluster', 'broken'])

    expect(dotOf('pve-one')).toMatchObject({ tone: 'green', label: 'Status: Connected' })
    expect(dotOf('pve-one').className).toContain('bg-emerald-500')
    expect(dotOf('lab-cluster')).toMatchObject({ tone: 'amber', label: 'Status: Pending' })
    expect(dotOf('lab-cluster').className).toContain('animate-pulse')
    expect(dotOf('broken')).toMatchObject({ tone: 'red', label: 'Status: Error' })
    expect(dotOf('broken').className).toContain('bg-red-500')

    const one = nodeItem('pve-one')
    await expect.element(one).toHaveTextContent('https://pve1.example.com:8006')
    await expect.element(one).toHaveTextContent('API token: pulse-monitor@pam!pulse-token')
    const badges = one.getByRole('list', { name: 'Monitored features' }).getByRole('listitem')
    expect(badges.elements().map((item) => item.textContent)).toEqual([
      'VMs',
      'Containers',
      'Storage',
      'Backups',
      'Temperature',
    ])
    await expect.element(nodeItem('lab-cluster')).toHaveTextContent('User: root@pam')
    await expect
      .element(nodeItem('broken'))
      .toHaveTextContent('Proxmox rejected the API token for pve3.example.com.')
    // The error line is only for a node in error.
    expect(one.element().querySelector('[data-node-error]')).toBeNull()
    expect(page.getByText('backup-one').query()).toBeNull()
  })

  test('a PVE cluster: name, endpoint count, each endpoint with its dot, name and IP, failover note', async () => {
    nodesServer({ nodes: [PVE_CLUSTER_NODE] })
    await openNodesTab('pve')
    const cluster = nodeItem('lab-cluster')
    await expect.element(cluster).toHaveTextContent('Cluster: lab')
    await expect.element(cluster).toHaveTextContent('2 endpoints')
    const endpoints = cluster.getByRole('list', { name: 'Cluster endpoints' }).getByRole('listitem')
    expect(
      endpoints.elements().map((item) => ({
        text: item.textContent,
        dot: item.querySelector<HTMLElement>('[data-tone]')!.dataset.tone,
        label: item.querySelector('[data-tone]')!.getAttribute('aria-label'),
      })),
    ).toEqual([
      { text: 'node-a127.0.0.11', dot: 'green', label: 'Online' },
      { text: 'node-b127.0.0.12', dot: 'red', label: 'Offline' },
    ])
    await expect.element(cluster).toHaveTextContent(/Automatic failover enabled/)
  })

  test('the PBS tab: PBS badges and a pulsing amber dot for disconnected', async () => {
    nodesServer({
      nodes: [...ALL, { ...PBS_NODE, id: 'pbs-2', name: 'hot', temperature: { available: true } }],
    })
    await openNodesTab('pbs')
    await expect.element(nodeItem('backup-one')).toBeVisible()
    expect(page.getByText('pve-one').query()).toBeNull()
    expect(dotOf('backup-one')).toMatchObject({ tone: 'amber', label: 'Status: Disconnected' })
    expect(dotOf('backup-one').className).toContain('animate-pulse')
    const badges = (name: string) =>
      nodeItem(name)
        .getByRole('list', { name: 'Monitored features' })
        .getByRole('listitem')
        .elements()
        .map((item) => item.textContent)
    expect(badges('backup-one')).toEqual([
      'Datastores',
      'Sync Jobs',
      'Verify Jobs',
      'Prune Jobs',
      'Garbage Collection',
    ])
    expect(badges('hot')).toContain('Temperature')
    await expect
      .element(nodeItem('backup-one'))
      .toHaveTextContent('API token: pulse-monitor@pbs!pulse-token')
  })

  test.each([
    ['pve', 'No PVE nodes configured', [PBS_NODE]],
    ['pbs', 'No PBS nodes configured', [PVE_TOKEN_NODE]],
  ] as const)('%s empty state', async (type, title, nodes) => {
    nodesServer({ nodes: [...nodes] })
    await openNodesTab(type)
    await expect.element(page.getByRole('heading', { name: title })).toBeVisible()
    await expect.element(page.getByText('Add a node to start monitoring')).toBeVisible()
    await expect
      .element(page.getByRole('button', { name: `Add ${type.toUpperCase()} Node` }))
      .toBeVisible()
  })

  test('loading, then a 429 is logged and retried after 3 s', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    const first = deferred<Response>()
    let calls = 0
    nodesServer({
      nodes: [PVE_TOKEN_NODE],
      routes: {
        'GET /api/config/nodes': () => {
          calls += 1
          if (calls === 1) return first.promise
          return Response.json([PVE_TOKEN_NODE])
        },
      },
    })
    await openNodesTab('pve')
    await expect.element(page.getByRole('status').getByText('Loading nodes...')).toBeVisible()
    first.resolve(
      Response.json({ code: 'RATE_LIMITED', message: 'Too many requests' }, { status: 429 }),
    )
    await expect.element(page.getByText('Failed to load nodes: Too many requests')).toBeVisible()
    expect(error).toHaveBeenCalledWith('Failed to load nodes', expect.anything())
    await expect.element(page.getByText('Trying again in a few seconds...')).toBeVisible()
    // The retry runs by itself (3 s later); waiting longer than that is not a timing assertion.
    await expect.element(nodeItem('pve-one'), { timeout: 8_000 }).toBeVisible()
    expect(calls).toBe(2)
  })

  test('a refused read (403) is not retried: Try again loads once more', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    let refuse = true
    nodesServer({
      routes: {
        'GET /api/config/nodes': () =>
          refuse
            ? Response.json({ code: 'FORBIDDEN', message: 'Admin role required' }, { status: 403 })
            : Response.json([PVE_TOKEN_NODE]),
      },
    })
    await openNodesTab('pve')
    await expect.element(page.getByText('Failed to load nodes: Admin role required')).toBeVisible()
    refuse = false
    await page.getByRole('button', { name: 'Try again' }).click()
    await expect.element(nodeItem('pve-one')).toBeVisible()
  })
})

describe('per-node actions (spec 001 §2, §5, §8)', () => {
  test('Test connection: Testing... then the success toast; a failure shows the stripped text', async () => {
    const answer = deferred<Response>()
    const { mock } = nodesServer({
      nodes: [PVE_TOKEN_NODE, PVE_ERROR_NODE],
      routes: {
        'POST /api/config/nodes/pve-1/test': () => answer.promise,
        'POST /api/config/nodes/pve-3/test': () =>
          Response.json(
            {
              code: 'PVE_AUTH_REJECTED',
              message: 'API request failed: 401 authentication failure',
            },
            { status: 502 },
          ),
      },
    })
    await openNodesTab('pve')
    const one = nodeItem('pve-one')
    await one.getByRole('button', { name: 'Test connection' }).click()
    await expect.element(one.getByRole('button', { name: 'Testing...' })).toBeDisabled()
    answer.resolve(
      Response.json({
        status: 'success',
        message: 'Connection successful',
        isCluster: false,
        nodeCount: 1,
      }),
    )
    await expect.poll(toasts).toContain('success: Connection successful')
    await expect.element(one.getByRole('button', { name: 'Test connection' })).toBeEnabled()
    expect(callsTo(mock, 'POST', '/api/config/nodes/pve-1/test')).toHaveLength(1)

    await nodeItem('broken').getByRole('button', { name: 'Test connection' }).click()
    await expect.poll(toasts).toContain('error: authentication failure')
  })

  test('Delete asks "Are you sure you want to delete this node?"; Cancel keeps it, Delete removes it', async () => {
    const { mock, state } = nodesServer({
      nodes: [PVE_TOKEN_NODE, PVE_ERROR_NODE],
      routes: {
        'DELETE /api/config/nodes/pve-3': () => {
          state.nodes = state.nodes.filter((node) => node.id !== 'pve-3')
          return Response.json({ success: true })
        },
      },
    })
    await openNodesTab('pve')
    const deleteButton = nodeItem('broken').getByRole('button', { name: 'Delete' })
    await deleteButton.click()
    const confirm = page.getByRole('alertdialog', { name: 'Delete node' })
    await expect.element(confirm).toHaveTextContent(/Are you sure you want to delete this node\?/)
    await expect.element(confirm.getByRole('button', { name: 'Cancel' })).toHaveFocus()
    await confirm.getByRole('button', { name: 'Cancel' }).click()
    await expect.element(confirm).not.toBeInTheDocument()
    await expect.element(deleteButton).toHaveFocus()
    expect(callsTo(mock, 'DELETE', '/api/config/nodes/pve-3')).toHaveLength(0)

    await deleteButton.click()
    await page
      .getByRole('alertdialog', { name: 'Delete node' })
      .getByRole('button', { name: 'Delete' })
      .click()
    await expect.poll(toasts).toContain('success: Node deleted successfully')
    await expect.element(nodeItem('broken')).not.toBeInTheDocument()
    await expect.element(nodeItem('pve-one')).toBeVisible()
    expect(callsTo(mock, 'DELETE', '/api/config/nodes/pve-3')).toHaveLength(1)
  })

  test('a failed delete says so and keeps the node', async () => {
    nodesServer({
      nodes: [PVE_TOKEN_NODE],
      routes: {
        'DELETE /api/config/nodes/pve-1': () => new Response('', { status: 500 }),
      },
    })
    await openNodesTab('pve')
    await nodeItem('pve-one').getByRole('button', { name: 'Delete' }).click()
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click()
    await expect.poll(toasts).toContain('error: Failed to delete node')
    await expect.element(nodeItem('pve-one')).toBeVisible()
  })

  test('the tab fits a 375 px phone in dark mode', async () => {
    await page.viewport(375, 800)
    setDark(true)
    try {
      nodesServer({ nodes: ALL })
      const { host } = await openNodesTab('pve', { width: 375, height: 800 })
      await expect.element(nodeItem('lab-cluster')).toBeVisible()
      const main = host.querySelector('main')!
      expect(main.scrollWidth).toBeLessThanOrEqual(main.clientWidth)
      const card = page.getByRole('region', { name: 'Proxmox VE nodes' }).element()
      expect(getComputedStyle(card).backgroundColor).not.toBe('rgb(255, 255, 255)')
    } finally {
      setDark(false)
    }
  })
})
