// The optimistic ack overlay (spec 000 §4, §9 15 s) over a real store, with a clock the test
// drives: no 15 s waits, and every timer the overlay arms is visible.
import { beforeEach, describe, expect, it } from 'vitest'
import {
  ACK_TIMEOUT_MS,
  createAlertAcks,
  readAlerts,
  readPendingAcks,
  type AckClock,
  type AlertAcks,
} from '../../../src/worker/alert-acks.ts'
import { createStateStore, type StateStore } from '../../../src/worker/store.ts'

/** A manual clock: `advance` runs the timers that fall due, in order. */
function createClock(start = Date.UTC(2025, 0, 1)) {
  let now = start
  let nextHandle = 1
  const timers = new Map<number, { at: number; run: () => void }>()
  const clock: AckClock = {
    now: () => now,
    setTimeout(run, ms) {
      const handle = nextHandle++
      timers.set(handle, { at: now + ms, run })
      return handle
    },
    clearTimeout(handle) {
      timers.delete(handle as number)
    },
  }
  const advance = (ms: number) => {
    const until = now + ms
    for (;;) {
      const due = [...timers.entries()]
        .filter(([, timer]) => timer.at <= until)
        .sort((a, b) => a[1].at - b[1].at)[0]
      if (!due) break
      timers.delete(due[0])
      now = due[1].at
      due[1].run()
    }
    now = until
  }
  return { clock, advance, timers }
}

const alert = (id: string, acknowledged = false, change: Record<string, unknown> = {}) => ({
  id,
  type: 'cpu',
  level: 'warning',
  resourceId: `lab-pve1-${id}`,
  resourceName: id,
  node: 'pve1',
  instance: 'lab',
  message: 'VM cpu at 91.0%',
  value: 91,
  threshold: 80,
  startTime: '2025-01-01T00:00:00Z',
  acknowledged,
  ...(acknowledged ? { ackTime: '2025-01-01T00:01:00Z', ackUser: 'admin' } : {}),
  ...change,
})

let store: StateStore
let clock: ReturnType<typeof createClock>
let acks: AlertAcks
let changes: number
let timeouts: string[][]
const ackOf = (id: string) => readAlerts(store).find((a) => a.id === id)?.acknowledged

beforeEach(() => {
  store = createStateStore()
  clock = createClock()
  changes = 0
  timeouts = []
  acks = createAlertAcks(store, clock.clock, {
    onChange: () => changes++,
    onTimeout: (ids) => timeouts.push(ids),
  })
  store.applyFull({ activeAlerts: [alert('a1'), alert('a2'), alert('a3', true)] })
})

describe('optimistic alert acks', () => {
  it('reads the store as is, same array, while nothing is pending', () => {
    const first = readAlerts(store)
    expect(first).toBe(store.getCollection('activeAlerts'))
    expect(readAlerts(store)).toBe(first)
    expect(readPendingAcks(store).size).toBe(0)
  })

  it('applies an ack locally at once and tells the owner', () => {
    acks.set('a1', true)
    expect(changes).toBe(1)
    expect(ackOf('a1')).toBe(true)
    expect(ackOf('a2')).toBe(false)
    expect([...readPendingAcks(store)]).toEqual(['a1'])
    // Unchanged inputs: the same overlaid array.
    expect(readAlerts(store)).toBe(readAlerts(store))
  })

  it('applies an unack locally, without the ack time and user', () => {
    acks.set('a3', false)
    const a3 = readAlerts(store).find((a) => a.id === 'a3')!
    expect(a3.acknowledged).toBe(false)
    expect(a3.ackUser).toBeUndefined()
    expect(a3.ackTime).toBeUndefined()
  })

  it('ignores a server list still showing the alert unacknowledged while the ack is pending', () => {
    acks.set('a1', true)
    store.applyFull({ activeAlerts: [alert('a1', false, { value: 95 }), alert('a2')] })
    const a1 = readAlerts(store).find((a) => a.id === 'a1')!
    expect(a1.acknowledged).toBe(true)
    // The rest of the server's update shows.
    expect(a1.value).toBe(95)
    expect(readPendingAcks(store).has('a1')).toBe(true)
  })

  it('drops the pending record when the server shows the matching value', () => {
    acks.set('a1', true)
    store.applyFull({ activeAlerts: [alert('a1', true), alert('a2')] })
    expect(ackOf('a1')).toBe(true)
    expect(readPendingAcks(store).size).toBe(0)
    expect(readAlerts(store)).toBe(store.getCollection('activeAlerts'))
    // Later server values show again: nothing is held any more.
    store.applyFull({ activeAlerts: [alert('a1', false), alert('a2')] })
    expect(ackOf('a1')).toBe(false)
    clock.advance(ACK_TIMEOUT_MS)
    expect(timeouts).toEqual([])
  })

  it('reverts to the server value after 15 s unconfirmed and reports the ids once', () => {
    acks.set('a1', true)
    clock.advance(5_000)
    acks.set('a2', true)
    clock.advance(ACK_TIMEOUT_MS - 5_000 - 1)
    expect(timeouts).toEqual([])
    expect(ackOf('a1')).toBe(true)
    clock.advance(1)
    expect(timeouts).toEqual([['a1']])
    expect(ackOf('a1')).toBe(false)
    expect(ackOf('a2')).toBe(true)
    clock.advance(5_000)
    expect(timeouts).toEqual([['a1'], ['a2']])
    expect(ackOf('a2')).toBe(false)
    expect(readPendingAcks(store).size).toBe(0)
    expect(clock.timers.size).toBe(0)
  })

  it('reports acks that expire together in one call', () => {
    acks.set('a1', true)
    acks.set('a2', true)
    clock.advance(ACK_TIMEOUT_MS)
    expect(timeouts).toEqual([['a1', 'a2']])
  })

  it('does not report a timeout for a confirmation no view read yet', () => {
    acks.set('a1', true)
    store.applyFull({ activeAlerts: [alert('a1', true)] })
    clock.advance(ACK_TIMEOUT_MS)
    expect(timeouts).toEqual([])
  })

  it('removes alerts absent from a new server list and drops their pending records', () => {
    acks.set('a1', true)
    store.applyFull({ activeAlerts: [alert('a2')] })
    expect(readAlerts(store).map((a) => a.id)).toEqual(['a2'])
    expect(readPendingAcks(store).size).toBe(0)
    clock.advance(ACK_TIMEOUT_MS)
    expect(timeouts).toEqual([])
  })

  it('reverts at once when the HTTP call failed (drop)', () => {
    acks.set('a1', true)
    acks.drop('a1')
    expect(changes).toBe(2)
    expect(ackOf('a1')).toBe(false)
    expect(clock.timers.size).toBe(0)
    acks.drop('a1')
    expect(changes).toBe(2)
  })

  it('holds nothing for an ack the server already shows or an unknown alert', () => {
    acks.set('a3', true)
    acks.set('nope', true)
    expect(changes).toBe(0)
    expect(readPendingAcks(store).size).toBe(0)
  })

  it('takes a change of mind while pending: back to the server value drops the record', () => {
    acks.set('a1', true)
    acks.set('a1', false)
    expect(ackOf('a1')).toBe(false)
    expect(readPendingAcks(store).size).toBe(0)
  })
})
