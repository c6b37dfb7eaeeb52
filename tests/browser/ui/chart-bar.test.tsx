// The one uPlot chart wrapper's bar mode (issue 24 #39) in real Chromium: created once per bar count, fed
// new data in place, keys and clicks pick a bar.
import { afterEach, expect, test } from 'vitest'
import { page, userEvent } from 'vitest/browser'
import { act } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { Chart, chartSplits, type BarChartProps } from '../../../src/ui/components/Chart.tsx'

let root: Root | null = null
let host: HTMLDivElement | null = null
afterEach(() => {
  act(() => root?.unmount())
  host?.remove()
  root = null
})

function draw(props: Partial<BarChartProps> & { stacks: number[][] }, picks: number[]) {
  const full: BarChartProps = {
    mode: 'bar',
    series: [
      { label: 'All', fill: '#f97316' },
      { label: 'Part', fill: '#8b5cf6' },
    ],
    height: 100,
    labelOf: (i) => `d${i}`,
    labelSpace: 40,
    maxBarWidth: 20,
    selected: null,
    onPick: (i) => picks.push(i),
    ariaLabel: 'Test chart',
    testId: 'test-chart',
    ...props,
  }
  if (!host) {
    host = document.createElement('div')
    host.style.width = '600px'
    document.body.append(host)
    root = createRoot(host)
  }
  act(() => root!.render(<Chart {...full} />))
}

test('one uPlot per bar count: new data of the same length reuses it, keys pick bars', async () => {
  const picks: number[] = []
  draw(
    {
      stacks: [
        [3, 5, 2],
        [1, 2, 1],
      ],
    },
    picks,
  )
  const chart = page.getByTestId('test-chart')
  await expect.element(chart).toBeVisible()
  const canvas = host!.querySelector('canvas')
  expect(canvas).not.toBeNull()
  draw(
    {
      stacks: [
        [4, 6, 2],
        [1, 2, 1],
      ],
    },
    picks,
  )
  expect(host!.querySelector('canvas')).toBe(canvas)
  ;(chart.element() as HTMLElement).focus()
  await userEvent.keyboard('{End}')
  draw(
    {
      stacks: [
        [4, 6, 2],
        [1, 2, 1],
      ],
      selected: 2,
    },
    picks,
  )
  await userEvent.keyboard('{ArrowLeft}')
  expect(picks).toEqual([2, 1])
  draw(
    {
      stacks: [
        [1, 2, 3, 4],
        [0, 0, 0, 0],
      ],
    },
    picks,
  )
  expect(host!.querySelectorAll('canvas')).toHaveLength(1)
  expect(host!.querySelector('canvas')).not.toBe(canvas)
})

test('grid steps are round and at most five', () => {
  expect(chartSplits(0)).toEqual([0, 1])
  expect(chartSplits(7)).toEqual([0, 2, 4, 6, 8])
  expect(chartSplits(2400)).toEqual([0, 500, 1000, 1500, 2000, 2500])
})
