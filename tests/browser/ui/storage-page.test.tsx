// The Storage tab against a fake worker whose storage subscription answers with the real pure view
// (src/shared/views/storage-view.ts) for every request the UI sends, so the controls, the request
// and the rendered rows are checked together. The worker side is tested in tests/unit.
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { page, userEvent } from 'vitest/browser'
import type {
  CephCluster,
  Entity,
  PhysicalDisk,
  PveNode,
  Storage,
} from '../../../src/shared/model/state.ts'
import type { NodeSummaryModel } from '../../../src/shared/views/node-summary-types.ts'
import type {
  StorageViewModel,
  StorageViewRequest,
} from '../../../src/shared/views/storage-types.ts'
import {
  computeStorageView,
  type StorageViewInput,
} from '../../../src/shared/views/storage-view.ts'
import { PREFS_KEY, startPrefs } from '../../../src/ui/prefs.ts'
import { defaultStorageState, storageState } from '../../../src/ui/storage/storage-state.ts'
import { clearNodeSelection } from '../../../src/ui/summary/selection.ts'
import type { ViewKind, ViewModel, ViewRequest } from '../../../src/worker/api-types.ts'
import { FakeWorker } from './fake-worker.ts'
import { makeSummaryRow } from './summary-fixtures.ts'
import { cleanup, renderApp } from './render.tsx'
import { fixtureAnswer } from './history-fixtures.ts'

const TB = 1024 ** 4

function node(name: string, instance: string): PveNode {
  return {
    id: `${instance}-${name}`,
    name,
    displayName: name,
    host: `https://${name}.example.com:8006`,
    instance,
    status: 'online',
    type: 'pve',
    uptime: 86_400,
    cpu: 0.1,
    memory: { usage: 40, used: 40, total: 100 },
    disk: { usage: 10, used: 10, total: 100 },
    cpuInfo: { cores: 8 },
    pveVersion: 'pve-manager/8.3.1/abc',
    isClusterMember: true,
    clusterName: instance,
  }
}

function storage(nodeName: string, name: string, patch: Partial<Storage> = {}): Storage {
  const instance = patch.instance ?? 'alpha'
  return {
    id: `${instance}-${nodeName}-${name}`,
    name,
    node: nodeName,
    instance,
    type: 'dir',
    content: 'backup,iso',
    status: 'available',
    shared: false,
    enabled: true,
    active: true,
    total: 4 * TB,
    used: TB,
    free: 3 * TB,
    usage: 25,
    ...patch,
  }
}

function disk(nodeName: string, devPath: string, patch: Partial<PhysicalDisk> = {}): PhysicalDisk {
  return {
    id: `alpha-${nodeName}-${devPath}`,
    node: nodeName,
    instance: 'alpha',
    devPath,
    model: 'SAMSUNG MZQL23T8',
    serial: `S64-${devPath}`,
    type: 'nvme',
    size: 2 * TB,
    health: 'PASSED',
    wearout: 80,
    temperature: 40,
    rpm: 0,
    used: 'ZFS',
    lastChecked: 0,
    ...patch,
  }
}

const NODES = [
  node('alpha-pve1', 'alpha'),
  node('alpha-pve2', 'alpha'),
  node('bravo-pve1', 'bravo'),
]

const STORAGE: Storage[] = [
  storage('alpha-pve1', 'local', { total: 2 * TB, used: 1.9 * TB, free: 0.1 * TB }),
  storage('alpha-pve2', 'local'),
  storage('alpha-pve1', 'nas', {
    type: 'nfs',
    shared: true,
    total: 16 * TB,
    used: 13 * TB,
    free: 3 * TB,
  }),
  storage('alpha-pve2', 'nas', {
    type: 'nfs',
    shared: true,
    total: 16 * TB,
    used: 13 * TB,
    free: 3 * TB,
  }),
  storage('alpha-pve2', 'tank', {
    type: 'zfspool',
    zfsPool: {
      name: 'tank',
      state: 'DEGRADED',
      readErrors: 2,
      writeErrors: 0,
      checksumErrors: 41,
      devices: [
        {
          name: 'ata-ST16000_ZL20C4',
          state: 'FAULTED',
          readErrors: 2,
          writeErrors: 0,
          checksumErrors: 41,
          errors: 43,
          message: 'too many errors',
        },
      ],
    },
  }),
  storage('bravo-pve1', 'ceph-vm', { instance: 'bravo', type: 'rbd', shared: true }),
]

const CEPH: CephCluster = {
  id: 'bravo-fsid',
  instance: 'bravo',
  name: 'Ceph',
  fsid: 'fsid',
  health: 'HEALTH_WARN',
  healthMessage: '1 osds down',
  totalBytes: 8 * TB,
  usedBytes: 2 * TB,
  availableBytes: 6 * TB,
  usagePercent: 25,
  numMons: 3,
  numMgrs: 2,
  numOsds: 12,
  numOsdsUp: 11,
  numOsdsIn: 12,
  numPGs: 640,
  pools: [
    { id: 1, name: '.mgr', storedBytes: 1024, availableBytes: TB },
    { id: 2, name: 'rbd-pool', storedBytes: TB, availableBytes: TB },
    { id: 3, name: 'cephfs_data', storedBytes: TB, availableBytes: TB },
  ],
  services: [{ type: 'osd', running: 11, total: 12 }],
  lastUpdated: Date.UTC(2025, 0, 1, 12, 0, 0),
}

const DISKS = [
  disk('alpha-pve1', '/dev/nvme0n1', { wearout: 6 }),
  disk('alpha-pve2', '/dev/sdd', { health: 'FAILED', wearout: -1, type: 'sata', temperature: 72 }),
]

/** A fake worker whose storage view is the real pure view over `data`. */
class StorageWorker extends FakeWorker {
  private version = 0
  constructor(private data: StorageViewInput) {
    super()
  }
  private answer(request: StorageViewRequest): StorageViewModel {
    return { ...computeStorageView(this.data, request), version: ++this.version }
  }
  override subscribe<K extends ViewKind>(
    request: ViewRequest<K> & { kind: K },
    onModel: (model: ViewModel<K>) => void,
  ): number {
    const any: ViewRequest = request
    if (any.kind === 'storage') this.storage = this.answer(any)
    return super.subscribe(request, onModel)
  }
  override update(id: number, request: ViewRequest): void {
    super.update(id, request)
    if (request.kind === 'storage') this.pushStorage(this.answer(request))
  }
}

const summaryRow = (nodeId: string, name: string) =>
  makeSummaryRow(nodeId, name, {
    badges: { type: 'PVE', version: '8.3.1', cluster: 'alpha', displayName: null },
    counts: { storage: 3, disks: 1 },
  })

const SUMMARY: NodeSummaryModel = {
  kind: 'nodeSummary',
  version: 1,
  tab: 'storage',
  nameLabel: 'Node',
  diskLabel: 'Disk',
  showTemperature: false,
  countColumns: [
    { key: 'storage', label: 'Storage' },
    { key: 'disks', label: 'Disks' },
  ],
  rows: NODES.map((n) => summaryRow(n.id, n.name)),
}

const asEntities = <T,>(items: T[]) => items as unknown as Entity[]

let stopPrefs: (() => void) | null = null

function open(
  data: Partial<StorageViewInput> = {},
  snapshot = {},
  size?: { width: number; height: number },
) {
  const api = new StorageWorker({
    nodes: NODES,
    storage: asEntities(STORAGE),
    cephClusters: asEntities([CEPH]),
    physicalDisks: asEntities(DISKS),
    ...data,
  })
  api.setConnection(snapshot)
  api.nodeSummary = SUMMARY
  stopPrefs = startPrefs()
  const { host, location } = renderApp(api, '/storage', size)
  return { api, host, location }
}

beforeEach(async () => {
  await page.viewport(1280, 800)
})
afterEach(() => {
  stopPrefs?.()
  stopPrefs = null
  cleanup()
  clearNodeSelection()
  Object.assign(storageState, defaultStorageState())
})

const poolTable = () => page.getByRole('table', { name: 'Storage pools' })
const diskTable = () => page.getByRole('table', { name: 'Physical disks' })
const searchBox = () => page.getByRole('searchbox', { name: 'Search storage' })
const poolNames = (host: HTMLElement) =>
  [...host.querySelectorAll<HTMLElement>('tr[data-kind="pool"]')].map((row) => row.dataset.storage)
/**
 * A node summary row; its centre is a metric cell, not the name link. The summary subscribes once
 * the storage view has rendered, so its rows can arrive after the pool table: wait for the row.
 */
async function nodeRow(host: HTMLElement, id: string) {
  const selector = `tr[data-node-id="${id}"]`
  await expect.poll(() => host.querySelector(selector)).not.toBeNull()
  return page.elementLocator(host.querySelector(selector)!)
}
const toggle = (name: string) =>
  page.getByRole('group', { name: 'Group storage' }).getByRole('button', { name, exact: true })

describe('storage pools', () => {
  test('by node shows node headers and Shared; by storage merges shared storage', async () => {
    const { api, host } = open()
    await expect.element(poolTable()).toBeVisible()
    const headers = poolTable()
      .getByRole('columnheader')
      .elements()
      .map((th) => th.textContent)
    expect(headers).toEqual([
      'Storage',
      'Type',
      'Content',
      'Status',
      'Shared',
      'Usage',
      'Free',
      'Total',
    ])
    expect(host.querySelectorAll('tr[data-kind="group"]')).toHaveLength(3)
    expect(poolNames(host).filter((name) => name === 'nas')).toHaveLength(2)
    await toggle('By Storage').click()
    await expect.poll(() => poolNames(host).filter((name) => name === 'nas').length).toBe(1)
    expect(api.storageRequests.at(-1)?.viewMode).toBe('storage')
    expect(host.querySelectorAll('tr[data-kind="group"]')).toHaveLength(0)
    expect(poolTable().getByRole('columnheader', { name: 'Shared' }).query()).toBeNull()
    await expect.element(poolTable().getByText('alpha-pve1, alpha-pve2')).toBeVisible()
  })

  test('colours usage bars at 80 and 90 percent', async () => {
    const { host } = open()
    await expect.element(poolTable()).toBeVisible()
    const colours = [...host.querySelectorAll<HTMLElement>('tr[data-kind="pool"]')].map((row) => [
      row.dataset.storage,
      row.querySelector<HTMLElement>('[role="meter"]')?.dataset.colour,
    ])
    expect(colours).toContainEqual(['local', 'red'])
    expect(colours).toContainEqual(['nas', 'yellow'])
    expect(colours).toContainEqual(['tank', 'green'])
  })

  test('search with node: narrows the list and a miss shows the exact text', async () => {
    const { api, host } = open()
    await expect.element(poolTable()).toBeVisible()
    await searchBox().fill('node:alpha-pve2')
    await expect.poll(() => poolNames(host)).toEqual(['local', 'nas', 'tank'])
    expect(api.storageRequests.at(-1)?.search).toBe('node:alpha-pve2')
    await searchBox().fill('nothing-like-this')
    await expect.element(page.getByText('No storage found')).toBeVisible()
    await expect
      .element(page.getByText('No storage matches your search "nothing-like-this"'))
      .toBeVisible()
  })

  test('sort select and direction reorder rows; Reset restores name ascending by node', async () => {
    const { api, host } = open()
    await expect.element(poolTable()).toBeVisible()
    await toggle('By Storage').click()
    await page.getByRole('combobox', { name: 'Sort storage by' }).selectOptions('usage')
    // Ascending: the 25% rows first, ties by name.
    await expect.poll(() => poolNames(host).slice(0, 3)).toEqual(['ceph-vm', 'local', 'tank'])
    await page.getByRole('button', { name: 'Sort ascending' }).click()
    // Descending: local on alpha-pve1 (95%), then nas (81%).
    await expect.poll(() => poolNames(host).slice(0, 2)).toEqual(['local', 'nas'])
    expect(api.storageRequests.at(-1)?.sort).toEqual({ key: 'usage', direction: 'desc' })
    await page.getByRole('button', { name: 'Reset' }).click()
    await expect
      .poll(() => api.storageRequests.at(-1)?.sort)
      .toEqual({ key: 'name', direction: 'asc' })
    expect(api.storageRequests.at(-1)?.viewMode).toBe('node')
  })

  test('a degraded ZFS pool has the ERRORS badge and the ZFS Pool Status banner', async () => {
    open()
    const banner = page.getByRole('alert', { name: 'ZFS Pool Status' })
    await expect.element(banner).toBeVisible()
    await expect.element(banner).toHaveTextContent(/read errors 2/)
    await expect.element(banner).toHaveTextContent(/checksum errors 41/)
    await expect.element(banner).toHaveTextContent(/ata-ST16000_ZL20C4: FAULTED \(43 errors\)/)
    const tank = poolTable().getByRole('row').filter({ hasText: 'tank' })
    await expect.element(tank.getByText('ERRORS', { exact: true })).toBeVisible()
  })

  test('a Ceph row opens the Ceph panel on click and closes on Enter', async () => {
    const { host } = open()
    await expect.poll(() => host.querySelector('tr[data-storage="ceph-vm"]')).not.toBeNull()
    await page.elementLocator(host.querySelector('tr[data-storage="ceph-vm"]')!).click()
    const panel = page.getByRole('region', { name: 'Ceph cluster' })
    await expect.element(panel).toBeVisible()
    await expect.element(panel).toHaveTextContent(/HEALTH_WARN/)
    await expect.element(panel).toHaveTextContent(/11 up \/ 12 in of 12/)
    await expect.element(panel).toHaveTextContent(/640/)
    await expect.element(panel.getByText('rbd-pool')).toBeVisible()
    expect(panel.getByText('cephfs_data').query()).toBeNull()
    await expect.element(panel.getByText('+1 more')).toBeVisible()
    const ceph = host.querySelector<HTMLElement>('tr[data-storage="ceph-vm"]')!
    expect(ceph.getAttribute('aria-expanded')).toBe('true')
    ceph.focus()
    await userEvent.keyboard('{Enter}')
    await expect.element(panel).not.toBeInTheDocument()
  })

  test('without live Ceph data the panel is derived and says so', async () => {
    const { host } = open({ cephClusters: [] })
    await expect.poll(() => host.querySelector('tr[data-storage="ceph-vm"]')).not.toBeNull()
    await page.elementLocator(host.querySelector('tr[data-storage="ceph-vm"]')!).click()
    const panel = page.getByRole('region', { name: 'Ceph cluster' })
    await expect
      .element(panel.getByText('Derived from storage metrics – live Ceph telemetry unavailable.'))
      .toBeVisible()
    await expect.element(panel).toHaveTextContent(/2 up \/ 2 in of 2/)
    await expect.element(panel).toHaveTextContent(/128/)
  })

  test('a live cluster without pools says so in the panel', async () => {
    const { host } = open({ cephClusters: asEntities([{ ...CEPH, pools: [] }]) })
    await expect.poll(() => host.querySelector('tr[data-storage="ceph-vm"]')).not.toBeNull()
    await page.elementLocator(host.querySelector('tr[data-storage="ceph-vm"]')!).click()
    const panel = page.getByRole('region', { name: 'Ceph cluster' })
    await expect.element(panel.getByText('No pool data available')).toBeVisible()
    expect(panel.getByText(/Derived from/).query()).toBeNull()
  })

  test('a pool’s History button expands its usage over time under the row', async () => {
    const { api } = open()
    api.historyAnswer = fixtureAnswer('storage')
    const button = poolTable().getByRole('button', { name: 'History of local on alpha-pve1' })
    await expect.element(button).toHaveAttribute('aria-expanded', 'false')
    await button.click()
    await expect.element(button).toHaveAttribute('aria-expanded', 'true')
    const region = page.getByRole('region', { name: 'History of local on alpha-pve1' })
    await expect.element(region.getByTestId('history-plot-usage')).toBeVisible()
    await expect.element(region.getByTestId('history-plot-used')).toBeVisible()
    expect(api.chartRequests.at(-1)).toMatchObject({ resourceId: 'alpha-alpha-pve1-local' })
    await button.click()
    await expect.element(region).not.toBeInTheDocument()
  })

  test('clicking a node in the summary filters pools and disks to it', async () => {
    const { api, host } = open()
    await expect.element(poolTable()).toBeVisible()
    await (await nodeRow(host, 'alpha-alpha-pve1')).click()
    await expect.poll(() => api.storageRequests.at(-1)?.selectedNode).toBe('alpha-alpha-pve1')
    await expect.poll(() => poolNames(host)).toEqual(['local', 'nas'])
    await userEvent.keyboard('{Escape}')
    await expect.poll(() => api.storageRequests.at(-1)?.selectedNode).toBeNull()
  })

  test('the states: loading, and no storage configured', async () => {
    open({}, { initialDataReceived: false })
    await expect.element(page.getByText('Loading storage data...')).toBeVisible()
    cleanup()
    // Polled, but storage not read yet: still loading, never "No storage configured".
    const early = open({ storage: [] }, { backupsCollected: false })
    await expect.element(page.getByText('Loading storage data...')).toBeVisible()
    expect(page.getByText('No storage configured').query()).toBeNull()
    early.api.setConnection({ backupsCollected: true })
    await expect.element(page.getByText('No storage configured')).toBeVisible()
    cleanup()
    open({ storage: [] })
    await expect.element(page.getByText('No storage configured')).toBeVisible()
  })
})

describe('physical disks', () => {
  test('health, SSD life and temperature, then search and node filter texts', async () => {
    const { api, host } = open()
    await page.getByRole('tab', { name: /Physical Disks/ }).click()
    await expect.element(diskTable()).toBeVisible()
    const headers = diskTable()
      .getByRole('columnheader')
      .elements()
      .map((th) => th.textContent)
    expect(headers).toEqual([
      'Node',
      'Device',
      'Model',
      'Type',
      'FS',
      'Health',
      'SSD Life',
      'Temp',
      'Size',
    ])
    const health = [...host.querySelectorAll<HTMLElement>('[data-health]')].map(
      (el) => el.textContent,
    )
    expect(health).toEqual(['LOW LIFE', 'FAILED'])
    const life = host.querySelector<HTMLElement>('tr[data-kind="disk"] [role="meter"]')!
    expect(life.dataset.colour).toBe('red')
    expect(life.getAttribute('aria-valuetext')).toBe('6%')
    await expect.element(diskTable().getByText('72°C')).toHaveClass(/text-red-600/)
    const search = page.getByRole('searchbox', { name: 'Search disks' })
    await search.fill('no-such-disk')
    await expect
      .element(page.getByText('No physical disks found matching "no-such-disk"'))
      .toBeVisible()
    expect(api.storageRequests.at(-1)?.diskSearch).toBe('no-such-disk')
    await (await nodeRow(host, 'bravo-bravo-pve1')).click()
    await expect
      .element(
        page.getByText('No physical disks found for node bravo-pve1 matching "no-such-disk"'),
      )
      .toBeVisible()
  })
})

describe('keys and preferences', () => {
  test('typing focuses the search; Escape resets the filters', async () => {
    const { api } = open()
    await expect.element(poolTable()).toBeVisible()
    await toggle('By Storage').click()
    ;(document.activeElement as HTMLElement | null)?.blur()
    await userEvent.keyboard('nas')
    await expect.element(searchBox()).toHaveValue('nas')
    expect(document.activeElement).toBe(searchBox().element())
    searchBox().element().blur()
    await userEvent.keyboard('{Escape}')
    await expect.element(searchBox()).toHaveValue('')
    await expect.poll(() => api.storageRequests.at(-1)?.viewMode).toBe('node')
  })

  test('view mode, sort and history are saved; invalid saved values fall back per field', async () => {
    localStorage.setItem(
      PREFS_KEY,
      JSON.stringify({
        storageViewMode: 'storage',
        storageSortKey: 'bogus',
        storageSortDirection: 'desc',
      }),
    )
    const { api } = open()
    await expect.element(poolTable()).toBeVisible()
    expect(api.storageRequests[0]).toMatchObject({
      viewMode: 'storage',
      sort: { key: 'name', direction: 'desc' },
    })
    await page.getByRole('combobox', { name: 'Sort storage by' }).selectOptions('free')
    await searchBox().fill('nfs')
    await userEvent.keyboard('{Enter}')
    await expect
      .poll(() => JSON.parse(localStorage.getItem(PREFS_KEY) ?? '{}') as Record<string, unknown>)
      .toMatchObject({
        storageViewMode: 'storage',
        storageSortKey: 'free',
        storageSortDirection: 'desc',
        storageSearchHistory: ['nfs'],
      })
  })

  test('on a phone the tables scroll inside their box, in dark mode too', async () => {
    await page.viewport(375, 700)
    document.documentElement.classList.add('dark')
    try {
      const { host } = open({}, {}, { width: 375, height: 700 })
      await expect.element(poolTable()).toBeVisible()
      const box = poolTable().element().parentElement!
      expect(box.scrollWidth).toBeGreaterThan(box.clientWidth)
      expect(host.scrollWidth).toBeLessThanOrEqual(host.clientWidth + 1)
    } finally {
      document.documentElement.classList.remove('dark')
    }
  })
})

describe('storage forecast (issue 25)', () => {
  test('"full in N days" beside the usage bar only where the server sends a forecast', async () => {
    const forecast = {
      fullInDays: 12,
      fullAt: Date.UTC(2025, 0, 13),
      bytesPerDay: 50 * 1024 ** 3,
      r2: 0.97,
      computedAt: Date.UTC(2025, 0, 1),
    }
    const { host } = open({
      storage: asEntities([
        storage('alpha-pve1', 'local', { forecast }),
        storage('alpha-pve2', 'local'),
        storage('alpha-pve2', 'fast', { forecast: { ...forecast, fullInDays: 0 } }),
      ]),
    })
    await expect.element(poolTable()).toBeVisible()
    const notes = () => [...host.querySelectorAll<HTMLElement>('[data-testid="forecast"]')]
    await expect
      .poll(() => notes().map((n) => n.textContent))
      .toEqual(['full in 12 days', 'full in < 1 day'])
    expect(notes()[0]!.title).toBe(
      'Growing 50 GB per day: a straight-line fit of the last 30 days of usage.',
    )
  })
})

describe('storage page links (issue 25)', () => {
  test('a pool row links to its storage page; the click does not expand the row', async () => {
    const { location } = open()
    await expect.element(poolTable()).toBeVisible()
    const link = page.getByRole('link', { name: 'Open the page of ceph-vm on bravo-pve1' })
    await expect.element(link).toHaveAttribute('href', '/storage/bravo-bravo-pve1-ceph-vm')
    await link.click()
    await expect.poll(() => location.history?.at(-1)).toBe('/storage/bravo-bravo-pve1-ceph-vm')
    expect(storageState.expanded).toEqual([])
  })
})
