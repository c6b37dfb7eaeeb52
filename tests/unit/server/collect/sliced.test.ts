import { describe, expect, it } from 'vitest'
import { createInterner, flatId } from '../../../../src/server/collect/intern.ts'
import { MAP_SLICE, reuseSliced } from '../../../../src/server/collect/sliced.ts'

interface Rec {
  id: string
  size: number
}
const recs = (n: number, size = (i: number) => i): Rec[] =>
  Array.from({ length: n }, (_, i) => ({ id: `r${i}`, size: size(i) }))

describe('reuseSliced', () => {
  it('keeps the previous objects of equal records and says when nothing changed', async () => {
    const previous = recs(3 * MAP_SLICE + 7)
    const { list, same } = await reuseSliced(previous, recs(previous.length))
    expect(same).toBe(true)
    expect(list.every((r, i) => r === previous[i])).toBe(true)
  })

  it('keeps the changed, the new and the moved records right', async () => {
    const previous = recs(2 * MAP_SLICE)
    // One record changed, one removed at the front (every position shifts), one added.
    const next = recs(2 * MAP_SLICE + 1, (i) => (i === 10 ? -1 : i)).slice(1)
    const { list, same } = await reuseSliced(previous, next)
    expect(same).toBe(false)
    expect(list.map((r) => r.id)).toEqual(next.map((r) => r.id))
    const byId = new Map(previous.map((r) => [r.id, r]))
    expect(list.find((r) => r.id === 'r10')).toEqual({ id: 'r10', size: -1 })
    expect(list.find((r) => r.id === 'r10')).not.toBe(byId.get('r10'))
    expect(list.find((r) => r.id === `r${2 * MAP_SLICE}`)).toEqual({
      id: `r${2 * MAP_SLICE}`,
      size: 2 * MAP_SLICE,
    })
    const kept = list.filter((r) => byId.get(r.id) === r)
    expect(kept).toHaveLength(2 * MAP_SLICE - 2)
  })

  it('is not the same when the previous list was longer or absent', async () => {
    expect((await reuseSliced(recs(3), recs(2))).same).toBe(false)
    expect((await reuseSliced(undefined, recs(2))).same).toBe(false)
    expect((await reuseSliced([], [])).same).toBe(true)
  })

  it('lets the event loop run between slices', async () => {
    let turns = 0
    const tick = setInterval(() => turns++, 0)
    const previous = recs(20 * MAP_SLICE)
    // Positions all shift, so the previous list is indexed too.
    await reuseSliced(previous, recs(20 * MAP_SLICE + 1).slice(1))
    clearInterval(tick)
    expect(turns).toBeGreaterThan(0)
  })
})

describe('createInterner', () => {
  it('hands out one copy per value and per list', () => {
    const intern = createInterner()
    const a = intern.string(['web', '01'].join('-'))
    expect(intern.string(['web', '01'].join('-'))).toBe(a)
    expect(intern.string(undefined)).toBeUndefined()
    const files = intern.list(['index.json.blob', 'drive-scsi0.img.fidx'])
    expect(intern.list(['index.json.blob', 'drive-scsi0.img.fidx'])).toBe(files)
    expect(intern.list(['index.json.blob'])).not.toBe(files)
    // Lists that differ only in where the names split are different lists.
    expect(intern.list(['a', 'b'])).not.toEqual(intern.list(['a\0b']))
  })

  it('starts again past its limit instead of growing', () => {
    const intern = createInterner(100)
    for (let i = 0; i < 1000; i++) {
      expect(intern.string(`value-${i}`)).toBe(`value-${i}`)
      expect(intern.list([`file-${i}`])).toEqual([`file-${i}`])
      expect(intern.size).toBeLessThanOrEqual(200)
    }
    expect(intern.size).toBeGreaterThan(0)
  })
})

describe('flatId', () => {
  it('joins the parts with dashes', () => {
    expect(flatId('pbs', 'main', '', 'vm', '100', 1700000000)).toBe('pbs-main--vm-100-1700000000')
  })
})
