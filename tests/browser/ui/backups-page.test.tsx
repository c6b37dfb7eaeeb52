// The Backups tab against a fake worker whose backups subscription answers with the real pure
// pipeline (src/shared/views/backups-view.ts) for every request the UI sends, so the controls, the
// request and the rendered rows are checked together. The worker side is tested in tests/unit.
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { page, userEvent } from 'vitest/browser'
import type {
  NodeSummaryModel,
  NodeSummaryRow,
} from '../../../src/shared/views/node-summary-types.ts'
import type {
  BackupsViewModel,
  BackupsViewRequest,
} from '../../../src/shared/views/backups-types.ts'
import {
  createBackupsViewPipeline,
  type BackupsViewInput,
} from '../../../src/shared/views/backups-view.ts'
import { backupsState, defaultBackupsState } from '../../../src/ui/backups/backups-state.ts'
import { PREFS_KEY, startPrefs } from '../../../src/ui/prefs.ts'
import { clearNodeSelection } from '../../../src/ui/summary/selection.ts'
import { makeGuest, makeNode } from '../../unit/shared/views/guest-fixtures.ts'
import {
  makePbsBackup,
  makePbsInstance,
  makeSnapshot,
  makeStorageBackup,
} from '../../unit/shared/views/backups-fixtures.ts'
import type { ViewKind, ViewModel, ViewRequest } from '../../../src/worker/api-types.ts'
import { FakeWorker } from './fake-worker.ts'
import { cleanup, renderApp } from './render.tsx'

const GIB = 1024 ** 3
const NOW = Date.now()
const HOUR = 3600
const now = Math.floor(NOW / 1000)

function input(patch: Partial<BackupsViewInput> = {}): BackupsViewInput {
  return {
    pveBackups: {
      backupTasks: [],
      guestSnapshots: [makeSnapshot(101, now - HOUR, { name: 'pre-upgrade' })],
      storageBackups: [
        makeStorageBackup(102, now - 26 * HOUR, { type: 'lxc', size: 30 * GIB, node: 'pve2' }),
      ],
    },
    pbsBackups: [
      makePbsBackup('101', now - 2 * HOUR, { size: 60 * GIB, namespace: 'prod' }),
      makePbsBackup('103', now - 10 * 24 * HOUR, { backupType: 'ct', comment: 'x'.repeat(50) }),
    ],
    pbs: [makePbsInstance('pbs1', [2.44, 3.06])],
    guests: [makeGuest(101, { name: 'web' }), makeGuest(102, { name: 'dns', type: 'lxc' })],
    nodes: [makeNode('pve1'), makeNode('pve2')],
    now: NOW,
    ...patch,
  }
}

/** A fake worker whose backups view is the real pipeline over `data`. */
class BackupsWorker extends FakeWorker {
  private version = 0
  private pipeline = createBackupsViewPipeline()
  constructor(private data: BackupsViewInput) {
    super()
  }
  answer(request: BackupsViewRequest): BackupsViewModel {
    return { ...this.pipeline.compute(this.data, request), version: ++this.version }
  }
  override subscribe<K extends ViewKind>(
    request: ViewRequest<K> & { kind: K },
    onModel: (model: ViewModel<K>) => void,
  ): number {
    const any: ViewRequest = request
    if (any.kind === 'backups') this.backups = this.answer(any)
    return super.subscribe(request, onModel)
  }
  override update(id: number, request: ViewRequest): void {
    super.update(id, request)
    if (request.kind === 'backups') this.pushBackups(this.answer(request))
  }
}

function summaryRow(id: string, name: string, kind: 'pve' | 'pbs'): NodeSummaryRow {
  return {
    id,
    kind,
    name,
    href: `https://${name}.example.com:8006`,
    online: true,
    uptimeText: '1d 0h',
    uptimeShort: false,
    cpuPercent: 10,
    cpuText: '10%',
    memoryPercent: 40,
    memoryText: '40%',
    memoryDetail: '',
    diskPercent: 10,
    diskText: '10%',
    diskDetail: '',
    temperature: null,
    temperatureText: '-',
    temperatureColour: null,
    badges: {
      type: kind === 'pve' ? 'PVE' : 'PBS',
      version: '8.3.1',
      cluster: null,
      displayName: null,
    },
    counts: { backups: 0 },
  }
}

const SUMMARY: NodeSummaryModel = {
  kind: 'nodeSummary',
  version: 1,
  tab: 'backups',
  nameLabel: 'Node / PBS',
  diskLabel: 'Storage / Disk',
  showTemperature: false,
  countColumns: [{ key: 'backups', label: 'Backups' }],
  rows: [
    summaryRow('lab-pve1', 'pve1', 'pve'),
    summaryRow('lab-pve2', 'pve2', 'pve'),
    summaryRow('pbs-pbs1', 'pbs1', 'pbs'),
  ],
}

let stopPrefs: (() => void) | null = null

function open(data = input(), size?: { width: number; height: number }) {
  const api = new BackupsWorker(data)
  api.nodeSummary = SUMMARY
  stopPrefs = startPrefs()
  const { host } = renderApp(api, '/backups', size)
  return { api, host }
}

beforeEach(async () => {
  await page.viewport(1400, 900)
})
afterEach(() => {
  stopPrefs?.()
  stopPrefs = null
  cleanup()
  clearNodeSelection()
  Object.assign(backupsState, defaultBackupsState())
})

const list = () => page.getByRole('table', { name: 'Backups' })
const searchBox = () => page.getByRole('searchbox', { name: 'Search backups' })
const rows = (host: HTMLElement) =>
  [...host.querySelectorAll<HTMLElement>('[data-kind="backup"]')].map(
    (row) => `${row.dataset.class}:${row.dataset.vmid}`,
  )
const groups = (host: HTMLElement) =>
  [...host.querySelectorAll<HTMLElement>('[data-kind="group"]')].map(
    (row) => row.querySelector('[role="cell"]')?.textContent,
  )
const toggle = (group: string, name: string) =>
  page.getByRole('group', { name: group }).getByRole('button', { name, exact: true })

describe('backups list', () => {
  test('shows every column, day groups newest first and the deduplication factor', async () => {
    const { host } = open()
    await expect.element(list()).toBeVisible()
    const headers = list()
      .getByRole('columnheader')
      .elements()
      .map((th) => th.textContent)
    expect(headers).toEqual([
      'VMID/Host',
      'Type',
      'Name',
      'Node',
      'Owner',
      'Time',
      'Size',
      'Backup',
      'Location',
      'Verified',
      'Details',
    ])
    expect(groups(host)[0]).toBe('Today')
    expect(rows(host)).toHaveLength(4)
    await expect.element(page.getByText('2.8x')).toBeVisible()
    // Details truncated at 35 characters.
    await expect.element(page.getByText(`${'x'.repeat(32)}...`)).toBeVisible()
  })

  test('view mode, type and search change the list and the request', async () => {
    const { api, host } = open()
    await expect.element(list()).toBeVisible()
    await toggle('Backup source', 'PBS').click()
    await expect.poll(() => rows(host).sort()).toEqual(['remote:101', 'remote:103'])
    expect(api.backupsRequests.at(-1)?.viewMode).toBe('pbs')
    await toggle('Backup source', 'All').click()
    await toggle('Guest type', 'LXC').click()
    await expect.poll(() => rows(host).sort()).toEqual(['local:102', 'remote:103'])
    await toggle('Guest type', 'All').click()
    await searchBox().fill('pbs:pbs1:main:prod')
    await expect.poll(() => rows(host)).toEqual(['remote:101'])
    await searchBox().fill('no-such-backup')
    await expect.element(page.getByText('No backups match your filters')).toBeVisible()
    await expect
      .element(page.getByText('Try adjusting filters or selecting a different time range.'))
      .toBeVisible()
  })

  test('offers Host only when host backups exist', async () => {
    open()
    await expect.element(list()).toBeVisible()
    expect(toggle('Guest type', 'Host').query()).toBeNull()
    cleanup()
    const withHost = input()
    withHost.pbsBackups = [
      ...withHost.pbsBackups,
      makePbsBackup('gw', now - HOUR, { backupType: 'host' }),
    ]
    open(withHost)
    await expect.element(toggle('Guest type', 'Host')).toBeVisible()
  })

  test('choosing a PBS in the selector forces the remote view', async () => {
    const { api, host } = open()
    await expect.element(list()).toBeVisible()
    await page.getByRole('combobox', { name: 'Node or namespace' }).selectOptions('pbs1')
    await expect.poll(() => rows(host).sort()).toEqual(['remote:101', 'remote:103'])
    expect(api.backupsRequests.at(-1)?.selectedNode).toBe('pbs-pbs1')
    await expect.element(toggle('Backup source', 'PBS')).toHaveAttribute('aria-pressed', 'true')
    await page
      .getByRole('combobox', { name: 'Node or namespace' })
      .selectOptions('pbs1 / ds0 / root')
    await expect.poll(() => api.backupsRequests.at(-1)?.scope?.datastore).toBe('ds0')
  })

  test('header clicks sort time and size descending first, others ascending', async () => {
    const { api } = open()
    await expect.element(list()).toBeVisible()
    await list().getByRole('button', { name: 'Size' }).click()
    await expect
      .poll(() => api.backupsRequests.at(-1)?.sort)
      .toEqual({ key: 'size', direction: 'desc' })
    await list().getByRole('button', { name: 'Name' }).click()
    await expect
      .poll(() => api.backupsRequests.at(-1)?.sort)
      .toEqual({ key: 'name', direction: 'asc' })
    await list().getByRole('button', { name: 'Name' }).click()
    await expect
      .poll(() => api.backupsRequests.at(-1)?.sort)
      .toEqual({ key: 'name', direction: 'desc' })
  })

  test('Reset and Escape restore the spec defaults', async () => {
    const { api } = open()
    await expect.element(list()).toBeVisible()
    await toggle('Backup source', 'PVE').click()
    await toggle('Grouping', 'By guest').click()
    await toggle('Chart range', '1y').click()
    await page.getByRole('button', { name: 'Reset' }).click()
    await expect
      .poll(() => api.backupsRequests.at(-1))
      .toMatchObject({
        search: '',
        viewMode: 'all',
        typeFilter: 'all',
        grouping: 'date',
        sort: { key: 'backupTime', direction: 'desc' },
        range: 30,
        selectedDay: null,
      })
    await toggle('Backup source', 'PBS').click()
    ;(document.activeElement as HTMLElement | null)?.blur()
    await userEvent.keyboard('{Escape}')
    await expect.poll(() => api.backupsRequests.at(-1)?.viewMode).toBe('all')
    await userEvent.keyboard('w')
    await expect.element(searchBox()).toHaveValue('w')
  })

  test('keeps sort and relative time in the saved preferences', async () => {
    open()
    await expect.element(list()).toBeVisible()
    await list().getByRole('button', { name: 'Size' }).click()
    await page.getByRole('switch').click()
    await expect.element(page.getByText('1h ago').first()).toBeVisible()
    await expect
      .poll(() => JSON.parse(localStorage.getItem(PREFS_KEY) ?? '{}'))
      .toMatchObject({
        backupsSortKey: 'size',
        backupsSortDirection: 'desc',
        backupsUseRelativeTime: true,
      })
  })

  test('shows cards instead of the table on a small screen', async () => {
    await page.viewport(400, 800)
    const { host } = open(input(), { width: 390, height: 780 })
    await expect.element(list()).toBeVisible()
    await expect.poll(() => rows(host)).toHaveLength(4)
    expect(list().getByRole('columnheader').query()).toBeNull()
  })
})

describe('backups chart', () => {
  test('a bar click selects the day, Clear filter clears it; ranges change the request', async () => {
    const { api, host } = open()
    const chart = page.getByTestId('backups-chart')
    await expect.element(chart).toBeVisible()
    const over = host.querySelector<HTMLElement>('.u-over')!
    const box = over.getBoundingClientRect()
    // The last bar is today (30 bars across the plot).
    await page
      .elementLocator(over)
      .click({ position: { x: box.width - box.width / 60, y: box.height - 4 } })
    await expect.element(page.getByRole('button', { name: /Clear filter/ })).toBeVisible()
    expect(api.backupsRequests.at(-1)?.selectedDay).toBe(api.backups?.today)
    await expect.poll(() => groups(host)).toEqual(['Today'])
    await page.getByRole('button', { name: /Clear filter/ }).click()
    await expect.poll(() => api.backupsRequests.at(-1)?.selectedDay).toBeNull()
    // Keyboard: End selects today, ArrowLeft the day before.
    chart.element().focus()
    await userEvent.keyboard('{End}')
    await expect.poll(() => api.backupsRequests.at(-1)?.selectedDay).toBe(api.backups?.today)
    await userEvent.keyboard('{ArrowLeft}')
    await expect.poll(() => groups(host)).toEqual(['Yesterday'])
    await page.getByRole('button', { name: /Clear filter/ }).click()
    await toggle('Chart range', '7d').click()
    await expect.poll(() => api.backups?.chart.days.length).toBe(7)
  })

  test('an empty range says there is no backup data', async () => {
    open(
      input({
        pveBackups: { backupTasks: [], guestSnapshots: [], storageBackups: [] },
        pbsBackups: [makePbsBackup('101', now - 200 * 24 * HOUR)],
      }),
    )
    await expect.element(page.getByText('No backup data')).toBeVisible()
    await expect
      .element(page.getByText('Adjust filters or expand the time range to see activity.'))
      .toBeVisible()
  })
})

describe('backups page states', () => {
  test('no sources, then loading with the first-load hint', async () => {
    open(input({ nodes: [], pbs: [] }))
    await expect.element(page.getByText('No backup sources configured')).toBeVisible()
    cleanup()
    open(input({ pveBackups: undefined, pbsBackups: [] }))
    await expect.element(page.getByText('Loading backup data...')).toBeVisible()
    await expect
      .element(page.getByText('This may take up to 20 seconds on the first load.'))
      .toBeVisible()
  })
})
