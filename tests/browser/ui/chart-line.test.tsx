// The one chart's line and sparkline modes (issue 25) in real Chromium: typed arrays in, NaN
// drawn as a gap (null to uPlot), legend values in the tables' units, drag zoom and double-click
// reset, alert bands and a marker drawn on the canvas, data fed in place.
import { afterEach, expect, test } from 'vitest'
import { page } from 'vitest/browser'
import { act } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { Chart, plotOf, type ChartProps } from '../../../src/ui/components/Chart.tsx'

let root: Root | null = null
let host: HTMLDivElement | null = null
afterEach(() => {
  act(() => root?.unmount())
  host?.remove()
  host = null
  root = null
})

function draw(props: ChartProps) {
  if (!host) {
    host = document.createElement('div')
    host.style.width = '600px'
    document.body.append(host)
    root = createRoot(host)
  }
  act(() => root!.render(<Chart {...props} />))
}

const T0 = 1_700_000_000
function series(values: number[]) {
  return {
    time: Float64Array.from(values, (_, i) => T0 + i * 60),
    avg: Float64Array.from(values),
  }
}

function line(values: number[], extra: Partial<ChartProps> = {}): ChartProps {
  const { time, avg } = series(values)
  return {
    mode: 'line',
    lines: [{ label: 'CPU', time, avg, max: avg.map((v) => v * 1.5) }],
    unit: 'percent',
    height: 120,
    ariaLabel: 'CPU chart',
    testId: 'cpu-chart',
    ...extra,
  } as ChartProps
}

async function plot() {
  const box = page.getByTestId('cpu-chart')
  await expect.element(box).toBeVisible()
  const u = plotOf(box.element())
  expect(u).toBeDefined()
  return u!
}

test('draws a canvas, hands uPlot null for a NaN gap, and formats the legend as the tables do', async () => {
  draw(line([10, 20, NaN, NaN, 40, 50]))
  const u = await plot()
  expect(host!.querySelector('canvas')).not.toBeNull()
  expect(u.data[1]).toEqual([10, 20, null, null, 40, 50])
  expect(u.data[2]).toEqual([15, 30, null, null, 60, 75])
  expect(u.series[1]!.spanGaps).toBe(false)
  act(() => u.setCursor({ left: u.valToPos(T0 + 60, 'x'), top: 10 }))
  await expect.poll(() => host!.querySelector('.u-legend')?.textContent ?? '').toContain('20%')
  expect(host!.querySelector('.u-legend')!.textContent).toContain('30%')
})

test('new data goes in place: the same uPlot, the same canvas', async () => {
  draw(line([1, 2, 3]))
  const u = await plot()
  const canvas = host!.querySelector('canvas')
  draw(line([4, 5, 6, 7]))
  expect(await plot()).toBe(u)
  expect(host!.querySelector('canvas')).toBe(canvas)
  expect(u.data[1]).toEqual([4, 5, 6, 7])
})

test('a drag zooms into a window and a double-click shows the whole range again', async () => {
  draw(line([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], { xRange: [T0, T0 + 540] }))
  const u = await plot()
  expect(u.scales.x!.min).toBe(T0)
  expect(u.scales.x!.max).toBe(T0 + 540)
  const over = u.over.getBoundingClientRect()
  const y = over.top + over.height / 2
  u.over.dispatchEvent(
    new MouseEvent('mousedown', { clientX: over.left + 100, clientY: y, bubbles: true, button: 0 }),
  )
  u.over.dispatchEvent(
    new MouseEvent('mousemove', {
      clientX: over.left + 250,
      clientY: y,
      movementX: 150,
      bubbles: true,
    }),
  )
  document.dispatchEvent(
    new MouseEvent('mouseup', { clientX: over.left + 250, clientY: y, bubbles: true, button: 0 }),
  )
  await expect.poll(() => u.scales.x!.min).toBeGreaterThan(T0)
  expect(u.scales.x!.max).toBeLessThan(T0 + 540)
  // Fresh data keeps the zoomed window.
  const zoomedMin = u.scales.x!.min
  draw(line([2, 2, 3, 4, 5, 6, 7, 8, 9, 10], { xRange: [T0, T0 + 540] }))
  expect(u.scales.x!.min).toBe(zoomedMin)
  u.over.dispatchEvent(
    new MouseEvent('dblclick', { clientX: over.left + 50, clientY: y, bubbles: true }),
  )
  await expect.poll(() => u.scales.x!.min).toBe(T0)
  expect(u.scales.x!.max).toBe(T0 + 540)
})

test('alert bands are shaded on the canvas under the lines', async () => {
  draw(line([0, 0, 0, 0, 0, 0, 0, 0, 0, 0]))
  const u = await plot()
  const pixel = () => {
    const x = Math.round(u.valToPos(T0 + 270, 'x', true))
    const yy = Math.round(u.bbox.top + u.bbox.height / 2)
    return Array.from(u.ctx.getImageData(x, yy, 1, 1).data)
  }
  const before = pixel()
  draw(
    line([0, 0, 0, 0, 0, 0, 0, 0, 0, 0], {
      bands: [{ start: T0 + 180, end: T0 + 360, label: 'CPU > 90%', level: 'critical' }],
    }),
  )
  await expect.poll(pixel).not.toEqual(before)
  const [r, g, b, a] = pixel()
  expect(a).toBeGreaterThan(0)
  expect(r).toBeGreaterThan(g!)
  expect(r).toBeGreaterThan(b!)
})

test('a sparkline has no axes, legend or cursor', async () => {
  const { time, avg } = series([1, 5, NaN, 3])
  draw({
    mode: 'sparkline',
    line: { label: 'CPU', time, avg },
    unit: 'percent',
    height: 20,
    ariaLabel: 'CPU trend',
    testId: 'cpu-chart',
  })
  const u = await plot()
  expect(host!.querySelector('.u-legend')).toBeNull()
  expect(host!.querySelector('.u-axis')).toBeNull()
  expect(u.cursor.show).toBe(false)
  expect(u.data[1]).toEqual([1, 5, null, 3])
})
