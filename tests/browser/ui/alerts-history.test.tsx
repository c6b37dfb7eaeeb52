// The alerts History tab in real Chromium over a fake worker whose alertHistory view is built
// with the real pure helpers (the worker's fetching is tested in tests/unit/worker). HTTP goes
// to a stubbed fetch: the real server's routes are tested in tests/unit/server.
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { page, userEvent } from 'vitest/browser'
import type {
  AlertHistoryModel,
  AlertHistoryRequest,
} from '../../../src/shared/views/alert-history-types.ts'
import {
  bucketLabel,
  dayLabel,
  formatHistoryRow,
  groupHistoryByDay,
} from '../../../src/shared/views/alert-history.ts'
import { defaultHistoryState, historyState } from '../../../src/ui/alerts/history-state.ts'
import { CLEAR_HISTORY_CONFIRM } from '../../../src/ui/alerts/ClearHistoryButton.tsx'
import { toastState } from '../../../src/ui/components/toast-store.ts'
import { PREFS_KEY, startPrefs } from '../../../src/ui/prefs.ts'
import type { ViewKind, ViewModel, ViewRequest } from '../../../src/worker/api-types.ts'
import { HOUR, historyRow } from '../../unit/shared/views/alert-history-fixtures.ts'
import { FakeWorker } from './fake-worker.ts'
import { fixtureAnswer } from './history-fixtures.ts'
import { cleanup, renderApp, stubServer, type StubRoute } from './render.tsx'
import { expectOneClearButton } from './search-box-assert.ts'

const NOW = Date.now()
const ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone
const ROWS = [
  historyRow({
    historyId: 2,
    message: 'VM cpu at 91%',
    startTime: new Date(NOW - HOUR).toISOString(),
  }),
  historyRow({
    historyId: 1,
    message: 'Storage at 88%',
    type: 'usage',
    value: 88,
    peak: 88,
    level: 'critical',
    resourceType: 'Storage',
    endTime: new Date(NOW - 2 * HOUR).toISOString(),
    startTime: new Date(NOW - 3 * HOUR).toISOString(),
  }),
]

/** Answers alertHistory requests as the worker would, from ROWS; records every request. */
class HistoryWorker extends FakeWorker {
  historyRequests: AlertHistoryRequest[] = []
  total = 4321
  rows = ROWS
  private version = 0
  private historyListeners = new Map<number, (model: AlertHistoryModel) => void>()

  answer(request: AlertHistoryRequest): AlertHistoryModel {
    const rows = request.reload > 0 ? [] : this.rows
    const items = groupHistoryByDay(rows, Date.now(), ZONE)
    const bucketMs = 6 * HOUR
    const buckets = Array.from({ length: 28 }, (_, i) => {
      const start = NOW - (28 - i) * bucketMs
      return {
        start,
        end: start + bucketMs,
        count: i % 3,
        critical: i % 2,
        warning: (i % 3) - (i % 2),
      }
    }).map((bucket) => ({
      ...bucket,
      warning: Math.max(0, bucket.warning),
      label: bucketLabel(bucket.start, bucketMs, ZONE),
    }))
    return {
      kind: 'alertHistory',
      version: ++this.version,
      loading: false,
      error: null,
      loaded: true,
      total: request.reload > 0 ? 0 : this.total,
      shown: rows.length,
      bucketMs,
      buckets,
      rowCount: items.length,
      start: 0,
      rows: items.map((item) =>
        item.kind === 'day' ? item : formatHistoryRow(rows[item.index]!, ZONE),
      ),
    }
  }
  override subscribe<K extends ViewKind>(
    request: ViewRequest<K> & { kind: K },
    onModel: (model: ViewModel<K>) => void,
  ): number {
    const any: ViewRequest = request
    const id = super.subscribe(request, onModel)
    if (any.kind === 'alertHistory') {
      this.historyRequests.push(any)
      const listener = onModel as unknown as (model: AlertHistoryModel) => void
      this.historyListeners.set(id, listener)
      listener(this.answer(any))
    }
    return id
  }
  override update(id: number, request: ViewRequest): void {
    super.update(id, request)
    if (request.kind !== 'alertHistory') return
    this.historyRequests.push(request)
    this.historyListeners.get(id)?.(this.answer(request))
  }
  get last(): AlertHistoryRequest | undefined {
    return this.historyRequests.at(-1)
  }
}

let stopPrefs: (() => void) | null = null

function open(route?: StubRoute) {
  const fetchMock = stubServer({ route })
  const api = new HistoryWorker()
  stopPrefs = startPrefs()
  const { host } = renderApp(api, '/alerts/history')
  return { api, host, fetchMock }
}

beforeEach(async () => {
  await page.viewport(1280, 900)
})

afterEach(() => {
  stopPrefs?.()
  stopPrefs = null
  cleanup()
  Object.assign(historyState, defaultHistoryState())
})

const savedPrefs = () =>
  JSON.parse(localStorage.getItem(PREFS_KEY) ?? '{}') as Record<string, unknown>

describe('alerts history tab', () => {
  test('lists the rows grouped by day and says how many the server holds', async () => {
    const { api } = open()
    await expect.element(page.getByRole('table', { name: 'Alert history' })).toBeVisible()
    expect(api.last).toMatchObject({ range: '7d', severity: 'all', search: '', bucket: null })
    await expect.element(page.getByText('Showing 2 of 4,321')).toBeVisible()
    for (const name of [
      'Timestamp',
      'Resource',
      'Type',
      'Severity',
      'Message',
      'Duration',
      'Status',
      'Node',
    ]) {
      await expect.element(page.getByRole('columnheader', { name, exact: true })).toBeVisible()
    }
    await expect.element(page.getByText('CPU peak 93.0%, last 91.3%')).toBeVisible()
    await expect.element(page.getByRole('cell', { name: 'Resolved' })).toBeVisible()
  })

  test('shows cards without column headers on a phone', async () => {
    await page.viewport(390, 800)
    const api = new HistoryWorker()
    stubServer()
    stopPrefs = startPrefs()
    renderApp(api, '/alerts/history', { width: 390, height: 780 })
    await expect.element(page.getByText('CPU peak 93.0%, last 91.3%')).toBeVisible()
    expect(page.getByRole('columnheader').query()).toBeNull()
    // The newest row's day, whatever the clock says now (an hour ago may be yesterday).
    const newest = dayLabel(NOW - HOUR, Date.now(), ZONE)
    await expect
      .poll(() => document.querySelector('[data-kind="day"] [role="cell"]')?.textContent)
      .toBe(newest)
  })

  test('the filters change the request and the time and severity are saved locally', async () => {
    const { api } = open()
    await expect.element(page.getByRole('table', { name: 'Alert history' })).toBeVisible()
    await page.getByRole('button', { name: 'Last 24h' }).click()
    await expect.poll(() => api.last?.range).toBe('24h')
    await page.getByRole('combobox', { name: 'Severity' }).selectOptions('Critical Only')
    await expect.poll(() => api.last?.severity).toBe('critical')
    await expect
      .poll(() => savedPrefs())
      .toMatchObject({
        alertHistoryRange: '24h',
        alertHistorySeverity: 'critical',
      })
    // Typing anywhere goes to the search box; Escape clears it.
    ;(document.activeElement as HTMLElement | null)?.blur()
    await userEvent.keyboard('cpu')
    await expect
      .element(page.getByRole('searchbox', { name: 'Search alert history' }))
      .toHaveValue('cpu')
    await expect.poll(() => api.last?.search).toBe('cpu')
    await userEvent.keyboard('{Escape}')
    await expect.poll(() => api.last?.search).toBe('')
    expect(savedPrefs().search).toBeUndefined()
  })

  test('the search box shows one clear button, ours', async () => {
    const { api } = open()
    const search = page.getByRole('searchbox', { name: 'Search alert history' })
    await search.fill('cpu')
    await expect.poll(() => api.last?.search).toBe('cpu')
    expectOneClearButton(search.element() as HTMLInputElement)
    await page.getByRole('button', { name: 'Clear search' }).click()
    await expect.poll(() => api.last?.search).toBe('')
  })

  test('at 1600 px "Acknowledged (resolved)" shows whole, under its Status header', async () => {
    await page.viewport(1600, 900)
    const api = new HistoryWorker()
    api.rows = [
      historyRow({
        historyId: 3,
        message: 'VM cpu at 95%',
        acknowledged: true,
        endTime: new Date(NOW - HOUR).toISOString(),
        startTime: new Date(NOW - 2 * HOUR).toISOString(),
      }),
    ]
    stubServer()
    stopPrefs = startPrefs()
    renderApp(api, '/alerts/history', { width: 1600, height: 880 })
    const cell = page.getByRole('cell', { name: 'Acknowledged (resolved)' })
    await expect.element(cell).toBeVisible()
    const element = cell.element() as HTMLElement
    expect(element.scrollWidth).toBeLessThanOrEqual(element.clientWidth)
    const header = page.getByRole('columnheader', { name: 'Status' }).element()
    expect(element.getBoundingClientRect().left).toBe(header.getBoundingClientRect().left)
  })

  test('a corrupt saved filter falls back to the defaults', async () => {
    localStorage.setItem(
      PREFS_KEY,
      JSON.stringify({ alertHistoryRange: '1y', alertHistorySeverity: 'critical' }),
    )
    const { api } = open()
    await expect.poll(() => api.last).toMatchObject({ range: '7d', severity: 'critical' })
  })

  test('a chart bar click filters to that bucket and Clear filter removes it', async () => {
    const { api, host } = open()
    await expect.element(page.getByTestId('history-chart')).toBeVisible()
    const over = host.querySelector<HTMLElement>('.u-over')!
    const box = over.getBoundingClientRect()
    // The last of 28 bars.
    await page
      .elementLocator(over)
      .click({ position: { x: box.width - box.width / 56, y: box.height - 4 } })
    await expect.element(page.getByRole('button', { name: /Clear filter/ })).toBeVisible()
    const buckets = api.answer(api.last!).buckets
    expect(api.last?.bucket).toEqual({ start: buckets.at(-1)!.start, end: buckets.at(-1)!.end })
    await page.getByRole('button', { name: /Clear filter/ }).click()
    await expect.poll(() => api.last?.bucket).toBeNull()
    expect(page.getByRole('button', { name: /Clear filter/ }).query()).toBeNull()
  })

  test('Clear All History asks with the exact text, then sends DELETE and empties the list', async () => {
    const deletes: RequestInit[] = []
    const { api } = open((url, init) => {
      if (url.endsWith('/api/alerts/history') && init?.method === 'DELETE') {
        deletes.push(init)
        return Response.json({ status: 'success', message: 'Alert history cleared' })
      }
      return undefined
    })
    await expect.element(page.getByText('CPU peak 93.0%, last 91.3%')).toBeVisible()
    await page.getByRole('button', { name: 'Clear All History' }).click()
    const dialog = page.getByRole('alertdialog')
    await expect
      .element(dialog)
      .toHaveTextContent(
        'Are you sure you want to clear all alert history? This will permanently delete all historical alert data and cannot be undone.',
      )
    expect(CLEAR_HISTORY_CONFIRM).toBe(
      'Are you sure you want to clear all alert history? This will permanently delete all historical alert data and cannot be undone.',
    )
    // Cancel sends nothing.
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    expect(deletes).toHaveLength(0)
    await page.getByRole('button', { name: 'Clear All History' }).click()
    await page.getByRole('alertdialog').getByRole('button', { name: 'Clear All History' }).click()
    await expect.poll(() => deletes).toHaveLength(1)
    await expect.poll(() => api.last?.reload).toBe(1)
    await expect.element(page.getByText('No alerts in this period')).toBeVisible()
    expect(page.getByText('CPU peak 93.0%, last 91.3%').query()).toBeNull()
  })

  test('a failed clear says so in a toast and keeps the list', async () => {
    open((url, init) =>
      url.endsWith('/api/alerts/history') && init?.method === 'DELETE'
        ? new Response('boom', { status: 500 })
        : undefined,
    )
    await page.getByRole('button', { name: 'Clear All History' }).click()
    await page.getByRole('alertdialog').getByRole('button', { name: 'Clear All History' }).click()
    await expect
      .poll(() => toastState.toasts.map((toast) => toast.message))
      .toEqual(['Error clearing alert history. Please check your connection and try again.'])
    await expect.element(page.getByText('CPU peak 93.0%, last 91.3%')).toBeVisible()
  })
})

describe('alert context on the history tab (issue 25)', () => {
  test('selecting an occurrence charts its metric around its time with the occurrences as bands', async () => {
    const { api, host } = open()
    api.rows = [
      ...ROWS,
      historyRow({
        historyId: 3,
        message: 'VM cpu at 95%',
        level: 'critical',
        startTime: new Date(NOW - 3 * HOUR).toISOString(),
        endTime: new Date(NOW - 2.5 * HOUR).toISOString(),
        status: 'resolved',
      }),
    ]
    api.historyAnswer = fixtureAnswer('guest')
    await expect.poll(() => host.querySelectorAll('[data-kind="alert"]').length).toBe(3)
    const find = (match: (text: string) => boolean) =>
      page.elementLocator(
        [...host.querySelectorAll('[data-kind="alert"]')].find((el) =>
          match(el.textContent ?? ''),
        )!,
      )
    const row = find((text) => text.includes('VM') && text.includes('Warning'))
    await row.click()
    await expect.element(row).toHaveAttribute('aria-selected', 'true')
    const region = page.getByRole('region', { name: 'History of web' })
    const plot = region.getByTestId('history-plot-cpu')
    await expect.element(plot).toBeVisible()
    expect(api.chartRequests.at(-1)).toMatchObject({
      resourceId: 'lab-pve1-101',
      metrics: ['cpu'],
      range: '6h',
    })
    // Both cpu occurrences of this guest are bands; the storage one is not.
    await expect.element(plot).toHaveAttribute('data-bands', '2')
    expect(region.getByTestId('history-plot-memory').query()).toBeNull()
    // Keyboard: Enter on another row picks it; the close button closes the chart.
    const storage = find((text) => text.includes('Storage'))
    ;(storage.element() as HTMLElement).focus()
    await userEvent.keyboard('{Enter}')
    await expect.element(storage).toHaveAttribute('aria-selected', 'true')
    await expect.poll(() => api.chartRequests.at(-1)?.metrics).toEqual(['usage'])
    await page.getByRole('button', { name: 'Close the alert’s chart' }).click()
    await expect.element(storage).toHaveAttribute('aria-selected', 'false')
  })

  test('an occurrence with notes says how many, and picking it shows them (issue 28)', async () => {
    const { api, host } = open()
    api.rows = [
      historyRow({
        historyId: 7,
        message: 'VM cpu at 95%',
        startTime: new Date(NOW - HOUR).toISOString(),
        status: 'resolved',
        endTime: new Date(NOW - HOUR / 2).toISOString(),
        notes: [
          { author: 'ann', at: new Date(NOW - HOUR).toISOString(), text: 'Rebooting pve1' },
          { author: 'bob', at: new Date(NOW - HOUR / 2).toISOString(), text: 'Back up' },
        ],
      }),
    ]
    api.historyAnswer = fixtureAnswer('guest')
    await expect.poll(() => host.querySelectorAll('[data-kind="alert"]').length).toBe(1)
    const row = page.elementLocator(host.querySelector('[data-kind="alert"]')!)
    await expect.element(row.getByText('2 notes')).toHaveAttribute('title', 'bob: Back up')
    await row.click()
    const notes = page.getByRole('region', { name: 'Notes on this alert' })
    await expect
      .element(notes.getByRole('listitem').first())
      .toHaveTextContent(/ann.*Rebooting pve1/)
    await expect.element(notes.getByRole('listitem').last()).toHaveTextContent(/bob.*Back up/)
  })
})
