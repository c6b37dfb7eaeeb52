// A poll's evaluation run a slice per turn of the loop (issue 27: at 100,000 guests one
// evaluation held the loop for seconds). Slices of 0 ms make every yield a turn, so these polls
// of 12,000 guests always take several; an unsliced service fed the same polls is the reference.
// Real SQLite files.
import { afterEach, describe, expect, it } from 'vitest'
import { createAlertService, type AlertService } from '../../../../src/server/alerts/service.ts'
import { createAlertHistoryRepo } from '../../../../src/server/store/alert-history.ts'
import { createAlertsRepo } from '../../../../src/server/store/alerts-repo.ts'
import { openDatabase } from '../../../../src/server/store/db.ts'
import type { State } from '../../../../src/shared/model/state.ts'
import { makeTempDir } from '../temp-dir.ts'
import { instantConfig, makeGuest, makeState, T0 } from './engine-fixture.ts'

const GUESTS = 12_000
let time = T0
const cleanups: (() => void)[] = []
afterEach(() => {
  for (const c of cleanups.splice(0)) c()
})

const estate = (hot: (i: number) => boolean): State =>
  makeState({
    vms: Array.from({ length: GUESTS }, (_, i) => makeGuest(100 + i, { cpu: hot(i) ? 0.97 : 0.1 })),
  })
const calm = estate(() => false)
const storm = estate((i) => i % 100 < 10)
const shifted = estate((i) => i % 100 >= 5 && i % 100 < 20)

interface Harness {
  service: AlertService
  told: string[]
  republished: number
}

function start(evaluateSliceMs: number): Harness {
  const { dir, cleanup } = makeTempDir()
  const db = openDatabase(dir)
  const h: Harness = { service: undefined!, told: [], republished: 0 }
  h.service = createAlertService({
    repo: createAlertsRepo(db),
    history: createAlertHistoryRepo(db),
    now: () => time,
    broadcast: (type, data) => h.told.push(`${type} ${(data as { id?: string }).id ?? ''}`),
    republish: () => h.republished++,
    log: { warn: () => {}, error: () => {} },
    evaluateSliceMs,
  })
  h.service.saveConfig(instantConfig())
  cleanups.push(() => {
    h.service.close()
    db.close()
    cleanup()
  })
  return h
}

const poll = (h: Harness, state: State) =>
  h.service.decorate({ ...state, lastUpdate: time }, time, true)
const ids = (h: Harness) => h.service.active().map((a) => `${a.id} ${a.acknowledged === true}`)

describe('an evaluation run a slice per turn', () => {
  it('shows the alerts as they were until it ends, then the same alerts as one run', async () => {
    const sliced = start(0)
    const whole = start(Infinity)
    for (const state of [storm, shifted, calm]) {
      time += 10_000
      const before = ids(sliced)
      const republished = sliced.republished
      poll(sliced, state)
      poll(whole, state)
      // Still under way: nothing of this poll is shown or told yet.
      expect(ids(sliced)).toEqual(before)
      await sliced.service.settled()
      expect(sliced.service.stats().evaluateTurns).toBeGreaterThan(2)
      expect(sliced.republished).toBeGreaterThan(republished)
      expect(ids(sliced)).toEqual(ids(whole))
      expect(sliced.told).toEqual(whole.told)
    }
    expect(whole.told.length).toBeGreaterThan(1000)
  })

  it('evaluates only the newest of the polls that arrive meanwhile', async () => {
    const sliced = start(0)
    const whole = start(Infinity)
    time += 10_000
    poll(sliced, storm)
    poll(whole, storm)
    time += 10_000
    poll(sliced, calm) // replaced by the next poll before its turn comes
    time += 10_000
    poll(sliced, shifted)
    poll(whole, shifted)
    await sliced.service.settled()
    expect(ids(sliced)).toEqual(ids(whole))
    expect(sliced.told).toEqual(whole.told)
  })

  it('keeps an acknowledgment made while it runs, and evaluates the poll again from it', async () => {
    const sliced = start(0)
    const whole = start(Infinity)
    time += 10_000
    poll(sliced, storm)
    poll(whole, storm)
    await sliced.service.settled()
    const target = sliced.service.active().find((a) => a.resourceId.endsWith('-105'))!
    expect(target).toBeDefined()
    time += 10_000
    poll(sliced, shifted)
    // The evaluation of `shifted` is under way; the acknowledgment changes the engine under it.
    expect(sliced.service.acknowledge([target.id], 'admin')).toEqual([
      { alertId: target.id, success: true },
    ])
    whole.service.acknowledge([target.id], 'admin')
    poll(whole, shifted)
    await sliced.service.settled()
    expect(ids(sliced)).toContain(`${target.id} true`)
    expect(ids(sliced)).toEqual(ids(whole))
    expect(sliced.told).toEqual(whole.told)
  })
})
