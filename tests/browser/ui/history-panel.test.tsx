// A resource's history panel (issue 25) in real Chromium over the fake worker, whose
// `historyAnswer` serves typed arrays as the real worker does (its fetch is tested in
// tests/unit/worker/history-fetch.test.ts).
import { afterEach, expect, test, vi } from 'vitest'
import { page, userEvent } from 'vitest/browser'
import '../../../src/ui/styles.css'
import { HistoryPanel, type HistoryPanelProps } from '../../../src/ui/history/HistoryPanel.tsx'
import { plotOf } from '../../../src/ui/components/Chart.tsx'
import { WorkerContext } from '../../../src/ui/worker-context.ts'
import { FakeWorker } from './fake-worker.ts'
import { fixtureAnswer } from './history-fixtures.ts'
import { cleanup, render } from './render.tsx'

afterEach(cleanup)

function show(props: Partial<HistoryPanelProps> = {}, worker = new FakeWorker(), width = 1200) {
  worker.historyAnswer = fixtureAnswer(props.kind ?? 'guest')
  render(
    <WorkerContext.Provider value={worker}>
      <HistoryPanel resourceId="pve1/qemu/100" kind="guest" {...props} />
    </WorkerContext.Provider>,
    { width, height: 900 },
  )
  return worker
}

test('draws a chart per metric group with legend values in the tables’ units', async () => {
  const worker = show()
  await expect.element(page.getByTestId('history-plot-cpu')).toBeVisible()
  for (const id of ['memory', 'disk', 'diskio', 'net']) {
    await expect.element(page.getByTestId(`history-plot-${id}`)).toBeVisible()
  }
  expect(worker.chartRequests[0]).toMatchObject({ resourceId: 'pve1/qemu/100', range: '1h' })
  expect(worker.chartRequests[0]!.metrics).toEqual([
    'cpu',
    'memory',
    'disk',
    'diskread',
    'diskwrite',
    'netin',
    'netout',
  ])
  await expect
    .element(page.getByTestId('history-caption'))
    .toHaveTextContent('Proxmox RRD and recent polls · step 1 min')
  const net = plotOf(page.getByTestId('history-plot-net').element())!
  expect(net.series.map((s) => s.label)).toEqual(['Time', 'In', 'In peak', 'Out', 'Out peak'])
  net.setCursor({ left: net.bbox.width / devicePixelRatio / 4, top: 10 })
  await expect
    .poll(() => page.getByTestId('history-plot-net').element().textContent)
    .toMatch(/\d(\.\d)? MB\/s/)
  const cpu = plotOf(page.getByTestId('history-plot-cpu').element())!
  cpu.setCursor({ left: cpu.bbox.width / devicePixelRatio / 4, top: 10 })
  await expect.poll(() => page.getByTestId('history-plot-cpu').element().textContent).toMatch(/\d%/)
})

test('the range buttons ask the worker for the new range', async () => {
  const worker = show()
  await expect.element(page.getByTestId('history-plot-cpu')).toBeVisible()
  await page.getByRole('button', { name: '7d' }).click()
  await expect.poll(() => worker.chartRequests.at(-1)?.range).toBe('7d')
  await expect
    .element(page.getByRole('button', { name: '7d' }))
    .toHaveAttribute('aria-pressed', 'true')
  await expect
    .element(page.getByTestId('history-caption'))
    .toHaveTextContent('Proxmox RRD · step 30 min')
  // Keyboard: Tab to a range and Enter picks it.
  ;(page.getByRole('button', { name: '30d' }).element() as HTMLElement).focus()
  await userEvent.keyboard('{Enter}')
  await expect.poll(() => worker.chartRequests.at(-1)?.range).toBe('30d')
})

test('an offline stretch reaches uPlot as nulls: a gap, not a line', async () => {
  show()
  await expect.element(page.getByTestId('history-plot-cpu')).toBeVisible()
  const cpu = plotOf(page.getByTestId('history-plot-cpu').element())!
  const avg = Array.from(cpu.data[1]!) as (number | null)[]
  const nulls = avg.filter((v) => v === null).length
  expect(nulls).toBeGreaterThan(5)
  expect(avg.filter((v) => typeof v === 'number').length).toBeGreaterThan(200)
})

test('empty and failed answers say so in a box of the chart’s height', async () => {
  const worker = new FakeWorker()
  show({}, worker)
  await expect.element(page.getByTestId('history-plot-cpu')).toBeVisible()
  // The fake's own default answer: no series.
  worker.historyAnswer = new FakeWorker().historyAnswer
  await page.getByRole('button', { name: '6h' }).click()
  await expect.element(page.getByText('No history for this range')).toBeVisible()
  // As tall as a chart card: the page does not jump when the answer lands.
  const box = page.getByText('No history for this range').element().getBoundingClientRect()
  expect(box.height).toBe(206)
  worker.historyAnswer = () => Promise.reject(new Error('resourceId: no such resource.'))
  await page.getByRole('button', { name: '24h' }).click()
  await expect.element(page.getByRole('alert')).toHaveTextContent('resourceId: no such resource.')
})

test('a moment picks the smallest range that shows it, and is marked with its bands', async () => {
  const now = Math.floor(Date.now() / 1000)
  const worker = show({
    metrics: ['cpu'],
    atSec: now - 3 * 3600,
    bands: [{ start: now - 3 * 3600, end: now - 2 * 3600, label: 'CPU > 90%', level: 'critical' }],
  })
  await expect.element(page.getByTestId('history-plot-cpu')).toBeVisible()
  expect(worker.chartRequests[0]).toMatchObject({ range: '6h', metrics: ['cpu'] })
  expect(page.getByTestId('history-plot-memory').query()).toBeNull()
})

test('two columns at 1600 px, one at 390 px', async () => {
  show({}, new FakeWorker(), 1600)
  await expect.element(page.getByTestId('history-chart-memory')).toBeVisible()
  const a = page.getByTestId('history-chart-cpu').element().getBoundingClientRect()
  const b = page.getByTestId('history-chart-memory').element().getBoundingClientRect()
  expect(b.top).toBe(a.top)
  cleanup()
  show({}, new FakeWorker(), 390)
  await expect.element(page.getByTestId('history-chart-memory')).toBeVisible()
  const c = page.getByTestId('history-chart-cpu').element().getBoundingClientRect()
  const d = page.getByTestId('history-chart-memory').element().getBoundingClientRect()
  expect(d.top).toBeGreaterThan(c.bottom - 1)
  expect(c.width).toBeLessThanOrEqual(390)
})

test('1h and 6h are fetched again every minute; longer ranges are not', async () => {
  // Only the panel's interval is faked; everything else runs on real time.
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] })
  try {
    const worker = show()
    await expect.poll(() => worker.chartRequests.length).toBe(1)
    vi.advanceTimersByTime(60_000)
    await expect.poll(() => worker.chartRequests.length).toBe(2)
    expect(worker.chartRequests[1]).toMatchObject({ range: '1h' })
    await page.getByRole('button', { name: '7d' }).click()
    await expect.poll(() => worker.chartRequests.length).toBe(3)
    vi.advanceTimersByTime(5 * 60_000)
    expect(worker.chartRequests).toHaveLength(3)
  } finally {
    vi.useRealTimers()
  }
})
