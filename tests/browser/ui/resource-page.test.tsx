// The resource pages (issue 25) in Chromium against a fake worker: each opens from its URL,
// loading then "not found" for an unknown id, `?at=` picks the chart range, and the tables link
// to them. The resource view itself is tested in tests/unit/shared/views/resource-view.test.ts.
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { page } from 'vitest/browser'
import type { ResourceViewModel } from '../../../src/shared/views/resource-types.ts'
import { EMPTY_RESOURCE } from '../../../src/shared/views/resource-view.ts'
import { FakeWorker, groupRow, guestRow, viewModel } from './fake-worker.ts'
import { makeSummaryRow } from './summary-fixtures.ts'
import { cleanup, renderApp } from './render.tsx'
import { resourceAlertBands } from '../../../src/ui/resource/ResourceAlerts.tsx'
import { overviewRow } from './alert-fixtures.ts'

const BASE: ResourceViewModel = { ...EMPTY_RESOURCE, version: 1, status: 'found' }

const GUEST_ID = 'lab-pve1-100'
const guestModel = (): ResourceViewModel => ({
  ...BASE,
  header: { name: 'web-01', typeLabel: 'VM 100', status: 'running', up: true, place: 'node pve1' },
  guest: guestRow(100, 'web-01', {
    id: GUEST_ID,
    detail: {
      os: 'Debian 12',
      ipAddresses: ['10.0.0.5'],
      memory: [],
      filesystems: [],
      interfaces: [],
      diskReason: '',
    },
  }),
  alerts: [overviewRow('a1', { resourceId: GUEST_ID })],
})

const datastore = {
  id: 'pbs-main:store1',
  name: 'store1',
  pbsId: 'pbs-main',
  pbsName: 'main',
  status: 'available',
  total: 100,
  usage: 70,
  usageText: '70%',
  usageDetail: '70 B / 100 B',
  usageColour: 'green' as const,
  forecast: { text: 'full in 12 days', title: 'Growing 2.5 B per day: a straight-line fit.' },
}

beforeEach(async () => {
  await page.viewport(1280, 800)
})
afterEach(() => cleanup())

const heading = (name: string) => page.getByRole('heading', { level: 1, name })

describe('resource pages', () => {
  test('a guest page opens from its URL: header, details, charts, active alerts, backups', async () => {
    const api = new FakeWorker()
    api.resources.set(`guest:${GUEST_ID}`, guestModel())
    renderApp(api, `/guests/${GUEST_ID}`)
    await expect.element(heading('web-01')).toBeVisible()
    expect(api.resourceRequests.at(-1)).toMatchObject({ resourceKind: 'guest', id: GUEST_ID })
    await expect.element(page.getByText('Debian 12')).toBeVisible()
    await expect.element(page.getByText('CPU at 97%')).toBeVisible()
    // Issue 28: acknowledged from the page, through the worker's optimistic overlay.
    await page.getByRole('button', { name: 'Acknowledge web-01: CPU at 97%' }).click()
    await expect.poll(() => api.acks).toContainEqual({ alertId: 'a1', acknowledged: true })
    await expect.poll(() => api.chartRequests.at(-1)?.resourceId).toBe(GUEST_ID)
    expect(api.chartRequests.at(-1)?.range).toBe('1h')
    await expect.element(page.getByRole('region', { name: 'Backups' })).toBeVisible()
    expect(api.backupsRequests.at(-1)?.search).toBe('100 web-01')
    await expect
      .element(page.getByRole('link', { name: 'Back to Main' }))
      .toHaveAttribute('href', '/')
  })

  test('loading until the live data is here, then "not found" for an unknown id', async () => {
    const api = new FakeWorker()
    renderApp(api, '/guests/nope')
    await expect.element(page.getByText('Loading…')).toBeVisible()
    api.resourceFallback = { ...BASE, status: 'notFound' }
    api.pushResources()
    await expect.element(page.getByText('Resource not found')).toBeVisible()
    expect(api.chartRequests).toHaveLength(0)
  })

  test('a node page and a PBS page open from their URLs', async () => {
    const api = new FakeWorker()
    api.resources.set('node:lab-pve1', {
      ...BASE,
      header: { name: 'pve1', typeLabel: 'Node', status: 'online', up: true, place: 'lab' },
      node: makeSummaryRow('lab-pve1', 'pve1'),
    })
    const { location } = renderApp(api, '/nodes/lab-pve1')
    await expect.element(heading('pve1')).toBeVisible()
    await expect.poll(() => api.chartRequests.at(-1)?.resourceId).toBe('lab-pve1')
    api.resources.set('pbs:pbs-main', {
      ...BASE,
      header: { name: 'main', typeLabel: 'PBS', status: 'healthy', up: true, place: '' },
      node: makeSummaryRow('pbs-main', 'main', { kind: 'pbs' }),
      datastores: [datastore],
    })
    location.navigate('/pbs/pbs-main')
    await expect.element(heading('main')).toBeVisible()
    await expect.element(page.getByText('full in 12 days')).toBeVisible()
    await expect
      .element(page.getByRole('link', { name: 'Open the page of datastore store1' }))
      .toHaveAttribute('href', '/storage/pbs-main%3Astore1')
  })

  test('a storage page and a PBS datastore page open from their URLs', async () => {
    const api = new FakeWorker()
    api.resources.set('datastore:pbs-main:store1', {
      ...BASE,
      header: { name: 'store1', typeLabel: 'Datastore', status: 'ok', up: true, place: 'PBS main' },
      datastore,
    })
    renderApp(api, '/storage/pbs-main%3Astore1')
    await expect.element(heading('store1')).toBeVisible()
    expect(api.resourceRequests.at(-1)).toMatchObject({
      resourceKind: 'datastore',
      id: 'pbs-main:store1',
    })
    await expect.element(page.getByText('full in 12 days')).toBeVisible()
    await expect.poll(() => api.chartRequests.at(-1)?.resourceId).toBe('pbs-main:store1')
    cleanup()

    const api2 = new FakeWorker()
    api2.resources.set('storage:lab-pve1-local', {
      ...BASE,
      header: {
        name: 'local',
        typeLabel: 'Storage (dir)',
        status: 'available',
        up: true,
        place: 'node pve1',
      },
      storage: null,
    })
    renderApp(api2, '/storage/lab-pve1-local')
    await expect.element(heading('local')).toBeVisible()
    expect(api2.resourceRequests.at(-1)).toMatchObject({ resourceKind: 'storage' })
  })

  test('?at= marks the moment and picks the smallest range holding it', async () => {
    const api = new FakeWorker()
    api.resources.set(`guest:${GUEST_ID}`, guestModel())
    const at = Math.floor(Date.now() / 1000) - 3 * 3600
    renderApp(api, `/guests/${GUEST_ID}?at=${at}`)
    await expect.element(heading('web-01')).toBeVisible()
    await expect.poll(() => api.chartRequests.at(-1)?.range).toBe('6h')
  })
})

describe('links to the resource pages', () => {
  test('the guest detail panel links to the guest page', async () => {
    const api = new FakeWorker()
    api.push(
      viewModel([
        groupRow('pve1', 1),
        guestRow(100, 'web-01', {
          id: GUEST_ID,
          detail: {
            os: 'Debian 12',
            ipAddresses: [],
            memory: [],
            filesystems: [],
            interfaces: [],
            diskReason: '',
          },
        }),
      ]),
    )
    api.resources.set(`guest:${GUEST_ID}`, guestModel())
    const { location } = renderApp(api, '/')
    await page.getByText('web-01').click()
    const link = page.getByRole('link', { name: 'Open the page of web-01' })
    await link.click()
    await expect.poll(() => location.history?.at(-1)).toBe(`/guests/${GUEST_ID}`)
    await expect.element(heading('web-01')).toBeVisible()
  })

  test('a node summary row links to the node page without selecting the node', async () => {
    const api = new FakeWorker()
    api.push(viewModel([groupRow('pve1', 1), guestRow(100, 'web-01')]))
    api.nodeSummary = {
      kind: 'nodeSummary',
      version: 1,
      tab: 'dashboard',
      nameLabel: 'Node',
      diskLabel: 'Disk',
      showTemperature: false,
      countColumns: [],
      guestsLoading: false,
      rows: [makeSummaryRow('lab-pve1', 'pve1')],
    } as never
    const { location } = renderApp(api, '/')
    await page.getByRole('link', { name: 'Open the page of pve1' }).click()
    await expect.poll(() => location.history?.at(-1)).toBe('/nodes/lab-pve1')
  })
})

describe('alert history on a resource page', () => {
  test('asks for the resource only, lists its occurrences and makes them chart bands', async () => {
    const api = new FakeWorker()
    api.resources.set(`guest:${GUEST_ID}`, guestModel())
    renderApp(api, `/guests/${GUEST_ID}`)
    await expect.element(heading('web-01')).toBeVisible()
    const start = Date.UTC(2025, 0, 1, 10)
    const row = {
      kind: 'alert' as const,
      key: 'alert:1',
      alertId: 'a1',
      timestampText: '10:00:00',
      timestampTitle: 'Jan 1, 2025 10:00:00',
      resourceId: GUEST_ID,
      startSec: start / 1000,
      endSec: start / 1000 + 600,
      resource: 'web-01',
      resourceType: 'VM' as const,
      resourceTypeText: 'VM',
      level: 'critical' as const,
      severityText: 'Critical',
      message: 'CPU peaked at 99%',
      alertType: 'cpu',
      durationText: '10m',
      status: 'resolved' as const,
      statusText: 'Resolved',
      notes: [],
      node: 'pve1',
    }
    api.pushAlertHistory({
      kind: 'alertHistory',
      version: 1,
      loading: false,
      error: null,
      total: 1,
      shown: 1,
      loaded: true,
      bucketMs: 86_400_000,
      buckets: [],
      rowCount: 1,
      start: 0,
      rows: [row],
    })
    await expect.element(page.getByText('CPU peaked at 99%')).toBeVisible()
    expect(resourceAlertBands([row], 0)).toEqual([
      {
        start: start / 1000,
        end: start / 1000 + 600,
        label: 'Critical: CPU peaked at 99%',
        level: 'critical',
      },
    ])
    expect(resourceAlertBands([{ ...row, endSec: null }], start / 1000 + 60)[0]!.end).toBe(
      start / 1000 + 60,
    )
  })
})
