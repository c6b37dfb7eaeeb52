import { fork, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { startLoopStatsHook, type LoopStats } from '../../../src/server/loop-stats.ts'

const CHILD = fileURLToPath(new URL('./loop-stats-child.ts', import.meta.url))
let child: ChildProcess | undefined
afterEach(() => {
  child?.kill()
  child = undefined
})

function next<T>(proc: ChildProcess, type: string): Promise<T> {
  return new Promise((resolve) => {
    const onMessage = (message: { type?: string }) => {
      if (message.type !== type) return
      proc.off('message', onMessage)
      resolve(message as T)
    }
    proc.on('message', onMessage)
  })
}

function start(env: Record<string, string>): ChildProcess {
  const { PULSE_DEBUG_LOOP_STATS: _off, ...rest } = process.env
  return fork(CHILD, [], { execArgv: ['--import', 'tsx'], env: { ...rest, ...env } })
}

describe('startLoopStatsHook', () => {
  it('stays off without PULSE_DEBUG_LOOP_STATS=1', async () => {
    expect(startLoopStatsHook({})).toBe(false)
    expect(startLoopStatsHook({ PULSE_DEBUG_LOOP_STATS: 'true' })).toBe(false)
    child = start({})
    expect(await next<{ started: boolean }>(child, 'started')).toMatchObject({ started: false })
  })

  it('answers its parent with the event-loop delay and memory when enabled', async () => {
    child = start({ PULSE_DEBUG_LOOP_STATS: '1' })
    expect(await next<{ started: boolean }>(child, 'started')).toMatchObject({ started: true })
    const reset = next(child, 'loop-stats-reset')
    child.send({ type: 'loop-stats-reset' })
    await reset
    const ask = async (): Promise<LoopStats> => {
      const answer = next<LoopStats>(child!, 'loop-stats')
      child!.send({ type: 'loop-stats' })
      return answer
    }
    // A delay is measured from the sample before it: wait for the first one after the reset.
    let stats = await ask()
    for (let i = 0; i < 500 && stats.count === 0; i++) stats = await ask()
    const blocked = next(child, 'blocked')
    child.send({ type: 'block' })
    await blocked
    // The late tick is recorded when its timer runs, maybe after the next message: ask until in.
    for (let i = 0; i < 500 && stats.maxMs < 100; i++) stats = await ask()
    // The 120 ms block shows as one long delay sample.
    expect(stats.maxMs).toBeGreaterThanOrEqual(100)
    expect(stats.p99Ms).toBeGreaterThan(0)
    expect(stats.rssBytes).toBeGreaterThan(0)
    expect(stats.rssMaxBytes).toBeGreaterThanOrEqual(stats.rssBytes)
  })
})
