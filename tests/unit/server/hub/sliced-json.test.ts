// The sliced serialiser writes exactly what JSON.stringify writes, whatever the value's shape.
import { describe, expect, it } from 'vitest'
import { JSON_SLICE_ELEMENTS, stringifySliced } from '../../../../src/server/hub/sliced-json.ts'
import { generateStates } from '../../worker/random-state.ts'

const same = async (value: unknown) =>
  expect((await stringifySliced(value)).toString('utf8')).toBe(JSON.stringify(value))

describe('stringifySliced', () => {
  it('writes the same JSON as JSON.stringify for random live states', async () => {
    for (const state of generateStates(7, 5))
      await same({ type: 'initialState', data: state, seq: 3 })
  })

  it('splits arrays longer than a slice and joins them back exactly', async () => {
    const long = Array.from({ length: JSON_SLICE_ELEMENTS * 2 + 7 }, (_, i) => ({
      id: `g${i}`,
      n: i / 3,
      tags: i % 2 ? ['a', 'é'] : [],
    }))
    await same({ rows: long, nested: { rows: long.slice(0, JSON_SLICE_ELEMENTS + 1) } })
    await same(long)
    await same([])
  })

  it('leaves out what JSON.stringify leaves out and keeps toJSON and null', async () => {
    await same({
      a: undefined,
      b: () => 1,
      c: null,
      d: new Date(0),
      e: [undefined, () => 1, NaN, Infinity],
      f: 'quote " and \\ and \u2028',
      g: { h: undefined },
    })
    await same('text')
    await same(42)
  })
})
