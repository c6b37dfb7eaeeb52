// The simulator's vzdump log rendering: its time stamps and the rendered logs it keeps.
import { describe, expect, it } from 'vitest'
import type { SimClusterModel } from '../../../../src/server/sim/model.ts'
import type { SimTask } from '../../../../src/server/sim/tasks.ts'
import { FINISHED_LOGS_KEPT, renderTaskLog, stamp } from '../../../../src/server/sim/task-log.ts'

const reference = (sec: number) => new Date(sec * 1000).toISOString().slice(0, 19).replace('T', ' ')

// Tasks without a vzdump run render from their status alone: enough to see what is kept.
const cluster = {} as SimClusterModel
const task = (n: number, ended: boolean): SimTask =>
  ({
    upid: `UPID:n:${n}`,
    starttime: 1_700_000_000 + n,
    ...(ended ? { endtime: 1_700_000_060 + n, status: 'OK' } : {}),
  }) as unknown as SimTask

describe('simulated task logs', () => {
  it('stamps like the ISO date of the second, across days and for fractions', () => {
    const seconds = [0, 59.9, 86_399, 86_400, 86_400.5, 1_700_000_000, 1_700_086_399.99]
    for (let s = 1_767_225_000; s < 1_767_226_000; s += 7.3) seconds.push(s) // over a new year
    for (const s of seconds) expect(stamp(s)).toBe(reference(s))
  })

  it('renders a finished task once while it is among the last kept, a running one every time', () => {
    const done = task(1, true)
    const first = renderTaskLog(cluster, 'pve1', done)
    expect(renderTaskLog(cluster, 'pve1', done)).toBe(first)
    // As many other finished logs push it out: rendered again, the same lines.
    for (let n = 2; n <= FINISHED_LOGS_KEPT + 1; n++) renderTaskLog(cluster, 'pve1', task(n, true))
    const again = renderTaskLog(cluster, 'pve1', done)
    expect(again).not.toBe(first)
    expect(again).toEqual(first)

    const running = task(1000, false)
    expect(renderTaskLog(cluster, 'pve1', running)).toEqual([])
    Object.assign(running, { endtime: running.starttime + 5, status: 'job errors' })
    expect(renderTaskLog(cluster, 'pve1', running)).toEqual(['TASK ERROR: job errors'])
  })
})
