// The Backups tab against a fake worker whose backups subscription answers with the real pure
// pipeline (src/shared/views/backups-view.ts) for every request the UI sends, so the controls, the
// request and the rendered rows are checked together. The worker side is tested in tests/unit.
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { page, userEvent } from 'vitest/browser'
import { PREFS_KEY } from '../../../src/ui/prefs.ts'
import { makePbsBackup } from '../../unit/shared/views/backups-fixtures.ts'
import {
  HOUR,
  groups,
  input,
  list,
  now,
  open,
  resetBackupsHarness,
  rows,
  searchBox,
  toggle,
} from './backups-harness.ts'
import { cleanup } from './render.tsx'
import { fixtureAnswer } from './history-fixtures.ts'

beforeEach(async () => {
  await page.viewport(1400, 900)
})
afterEach(resetBackupsHarness)

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
        guestSnapshots: [],
        storageBackups: [],
        pbsBackups: [makePbsBackup('101', now - 200 * 24 * HOUR)],
      }),
    )
    await expect.element(page.getByText('No backup data')).toBeVisible()
    await expect
      .element(page.getByText('Adjust filters or expand the time range to see activity.'))
      .toBeVisible()
  })
})

describe('PBS history (issue 25)', () => {
  test('a PBS row’s History button shows its CPU and memory and each datastore’s usage', async () => {
    const { api } = open()
    api.historyAnswer = (request) =>
      fixtureAnswer(request.resourceId.includes(':') ? 'datastore' : 'pbs')(request)
    await page.getByRole('button', { name: 'History of pbs1', exact: true }).click()
    const region = page.getByRole('region', { name: 'History of pbs1' })
    await expect.element(region.getByTestId('history-plot-cpu')).toBeVisible()
    await expect.element(region.getByTestId('history-plot-memory')).toBeVisible()
    const stores = page.getByRole('region', { name: /^History of datastore/ })
    await expect.poll(() => stores.elements().length).toBe(2)
    await expect
      .poll(() => api.chartRequests.map((r) => r.resourceId).sort())
      .toEqual(['pbs-pbs1', 'pbs-pbs1:ds0', 'pbs-pbs1:ds1'])
    await expect.element(stores.first().getByTestId('history-plot-usage')).toBeVisible()
  })
})
