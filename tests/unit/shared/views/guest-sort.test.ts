import { describe, expect, it } from 'vitest'
import type { Guest } from '../../../../src/shared/model/state.ts'
import {
  buildStateColumns,
  LIVE_SORT_KEYS,
} from '../../../../src/shared/views/guest-live-columns.ts'
import {
  getSortValues,
  getTieOrder,
  maskInactive,
  sortGuests,
} from '../../../../src/shared/views/guest-sort.ts'
import { makeGuest } from './guest-fixtures.ts'

const guests: Guest[] = [
  makeGuest(100, { cpu: 0.5 }),
  makeGuest(101, { status: 'stopped', cpu: 0, uptime: 0 }),
  makeGuest(102, { cpu: 0.1 }),
  makeGuest(103, { status: 'paused', cpu: 0 }),
  makeGuest(104, { cpu: 0.3 }),
]
const vmids = (order: Uint32Array) => [...order].map((i) => guests[i]!.vmid)

describe('sortGuests', () => {
  it('sorts CPU ascending with the stopped guests last, as empty values', () => {
    const order = sortGuests(getTieOrder(guests), getSortValues(guests, 'cpu'), 'asc')
    expect(vmids(order)).toEqual([102, 104, 100, 101, 103])
  })

  it('keeps the stopped guests last in descending order too', () => {
    const order = sortGuests(getTieOrder(guests), getSortValues(guests, 'cpu'), 'desc')
    expect(vmids(order)).toEqual([100, 104, 102, 101, 103])
  })

  it('sorts stopped guests by vmid, which they always have', () => {
    const order = sortGuests(getTieOrder(guests), getSortValues(guests, 'vmid'), 'desc')
    expect(vmids(order)).toEqual([104, 103, 102, 101, 100])
  })
})

describe('maskInactive', () => {
  it('turns the live columns into the sort values: stopped guests empty', () => {
    const columns = buildStateColumns(guests)
    for (const key of LIVE_SORT_KEYS) {
      const masked = maskInactive(columns.sort[key], columns.running)
      expect([...masked], key).toEqual([...getSortValues(guests, key)])
    }
    // The columns themselves keep the raw values: metric filters read them.
    expect(columns.sort.cpu[1]).toBe(0)
  })
})
