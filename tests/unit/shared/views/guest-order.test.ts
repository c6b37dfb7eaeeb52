import { describe, expect, it } from 'vitest'
import {
  identityOrder,
  rankTexts,
  sortIndicesByNumber,
} from '../../../../src/shared/views/guest-order.ts'
import { createRng } from '../../../../src/server/sim/prng.ts'

// The obvious comparator sort the radix sort must agree with: NaN last, ties in input order.
function referenceSort(order: Uint32Array, values: Float64Array, dir: 'asc' | 'desc'): number[] {
  const position = new Map<number, number>()
  order.forEach((index, at) => position.set(index, at))
  return [...order].sort((a, b) => {
    const va = values[a]!
    const vb = values[b]!
    if (Number.isNaN(va) || Number.isNaN(vb)) {
      if (Number.isNaN(va) && Number.isNaN(vb)) return position.get(a)! - position.get(b)!
      return Number.isNaN(va) ? 1 : -1
    }
    if (va !== vb) return (va < vb ? -1 : 1) * (dir === 'asc' ? 1 : -1)
    return position.get(a)! - position.get(b)!
  })
}

function randomValues(n: number, seed: number): Float64Array {
  const random = createRng(seed).next
  const values = new Float64Array(n)
  for (let i = 0; i < n; i++) {
    const r = random()
    if (r < 0.05) values[i] = NaN
    else if (r < 0.15)
      values[i] = Math.floor(random() * 5) // many exact ties
    else if (r < 0.25) values[i] = -random() * 1e9
    else if (r < 0.35)
      values[i] = 0.5 + random() * 1e-9 // equal as float32, different as float64
    else values[i] = random() * 2e7
  }
  return values
}

describe('sortIndicesByNumber', () => {
  it.each(['asc', 'desc'] as const)('agrees with a stable comparator sort (%s)', (dir) => {
    const values = randomValues(5000, 11)
    // A shuffled input order: ties must keep it.
    const order = sortIndicesByNumber(identityOrder(5000), randomValues(5000, 12), 'asc')
    expect([...sortIndicesByNumber(order, values, dir)]).toEqual(referenceSort(order, values, dir))
  })

  it('puts empty values last in both directions and handles -0, Infinity', () => {
    const values = new Float64Array([NaN, 3, -0, 0, Infinity, -Infinity, NaN, 1])
    expect([...sortIndicesByNumber(identityOrder(8), values, 'asc')]).toEqual([
      5, 2, 3, 7, 1, 4, 0, 6,
    ])
    expect([...sortIndicesByNumber(identityOrder(8), values, 'desc')]).toEqual([
      4, 1, 7, 2, 3, 5, 0, 6,
    ])
  })

  it('does not mutate its input and copes with empty input', () => {
    const order = identityOrder(3)
    sortIndicesByNumber(order, new Float64Array([3, 2, 1]), 'asc')
    expect([...order]).toEqual([0, 1, 2])
    expect(sortIndicesByNumber(new Uint32Array(0), new Float64Array(0), 'asc')).toHaveLength(0)
  })
})

describe('rankTexts', () => {
  it('ranks by code units, shares ranks for equal texts and leaves empty texts unranked', () => {
    const ranks = rankTexts(['b', 'a', '', 'b', 'a-1'])
    expect([...ranks.slice(0, 2)]).toEqual([2, 0])
    expect(ranks[2]).toBeNaN()
    expect(ranks[3]).toBe(2)
    expect(ranks[4]).toBe(1)
  })
})
