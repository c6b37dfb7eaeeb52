// Proxmox RRD rows into our metrics, on the real recorded answers (tests/fixtures/proxmox/pve,
// PVE 9.2.3): units as the tables use them, omitted keys and empty buckets as gaps (null, never
// zero), each row's own time, and the cut to the range's window.
import { describe, expect, it } from 'vitest'
import {
  cutFrame,
  normaliseRrd,
  smallestStep,
} from '../../../../src/server/history/rrd-normalise.ts'
import { LXC, LXC_HOUR, NODE, NODE_HOUR, QEMU, QEMU_YEAR, recorded } from './history-fixture.ts'

const all = -Infinity

describe('normaliseRrd', () => {
  it('reads a node hour in percent, load and bytes per second', () => {
    const rows = recorded(NODE_HOUR)
    const first = rows[0] as Record<string, number>
    const max = rows.map((r) => ({ ...r, cpu: 0.5 }))
    const { series, stepSeconds } = cutFrame(
      normaliseRrd(NODE, rows, max),
      ['cpu', 'memory', 'disk', 'load', 'iowait', 'netin', 'netout'],
      all,
    )
    expect(stepSeconds).toBe(60)
    expect(series.cpu!.time).toHaveLength(12)
    expect(series.cpu!.time[0]).toBe(1785168420)
    expect(series.cpu!.avg[0]).toBeCloseTo(first.cpu! * 100, 10)
    expect(series.cpu!.max![0]).toBe(50)
    expect(series.memory!.avg[0]).toBeCloseTo((first.memused! / first.memtotal!) * 100, 10)
    expect(series.disk!.avg[0]).toBeCloseTo((first.rootused! / first.roottotal!) * 100, 10)
    expect(series.load!.avg[0]).toBe(first.loadavg)
    expect(series.iowait!.avg[0]).toBeCloseTo(first.iowait! * 100, 10)
    expect(series.netin!.avg[0]).toBe(first.netin)
    expect(series.netout!.avg[0]).toBe(first.netout)
    // Temperature is not in Proxmox RRD.
    expect(series.temperature).toBeUndefined()
  })

  it('reads a container hour: memory of maxmem, disk of maxdisk', () => {
    const rows = recorded(LXC_HOUR)
    const first = rows[0] as Record<string, number>
    const { series } = cutFrame(normaliseRrd(LXC, rows), ['memory', 'disk', 'diskread'], all)
    expect(series.memory!.avg[0]).toBeCloseTo((first.mem! / first.maxmem!) * 100, 10)
    expect(series.disk!.avg[0]).toBeCloseTo((first.disk! / first.maxdisk!) * 100, 10)
    expect(series.diskread!.avg[0]).toBe(0)
    // No MAX answer: every peak is a gap, not a copy of the average.
    expect(series.memory!.max!.every((v) => v === null)).toBe(true)
  })

  it('turns omitted keys into gaps, never zero, and a VM disk of 0 into unknown', () => {
    const rows = recorded(QEMU_YEAR)
    const { series, stepSeconds } = cutFrame(
      normaliseRrd(QEMU, rows, rows),
      ['cpu', 'memory', 'disk', 'netin'],
      all,
    )
    // The recorded year ends in two rows with only time, disk and the max* keys.
    expect(series.cpu!.avg.slice(-2)).toEqual([null, null])
    expect(series.memory!.avg.slice(-2)).toEqual([null, null])
    expect(series.netin!.max!.slice(-2)).toEqual([null, null])
    expect(series.cpu!.avg[0]).toBeCloseTo(0.70435117676127, 10)
    // PVE reports a VM's disk as 0: it cannot see inside the guest.
    expect(series.disk!.avg.every((v) => v === null)).toBe(true)
    expect(stepSeconds).toBe(smallestStep(rows.map((r) => r.time as number)))
  })

  it('makes an empty bucket a gap in every metric and keeps mixed steps', () => {
    const rows = [
      { time: 1000, cpu: 0.1, loadavg: 1 },
      { time: 2800, cpu: 0.2, loadavg: 2 },
      { time: 4600 },
      { time: 4660, cpu: 0.3, loadavg: 3 },
      { time: 4720, cpu: 0.4 },
    ]
    const { series, stepSeconds } = cutFrame(normaliseRrd(NODE, rows), ['cpu', 'load'], all)
    expect(series.cpu!.time).toEqual([1000, 2800, 4600, 4660, 4720])
    expect(series.cpu!.avg.map((v) => (v === null ? null : Math.round(v)))).toEqual([
      10,
      20,
      null,
      30,
      40,
    ])
    expect(series.load!.avg).toEqual([1, 2, null, 3, null])
    expect(stepSeconds).toBe(60)
  })

  it('cuts the rows to the window of the range', () => {
    const rows = recorded(NODE_HOUR)
    const since = rows[6]!.time as number
    const { series, last } = cutFrame(normaliseRrd(NODE, rows), ['cpu'], since)
    expect(series.cpu!.time).toEqual(rows.slice(6).map((r) => r.time))
    expect(last).toBe(rows[11]!.time)
  })
})
