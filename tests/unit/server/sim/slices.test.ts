import { describe, expect, it } from 'vitest'
import { createEstate } from '../../../../src/server/sim/estate.ts'
import type { SimClusterModel, SimStorage } from '../../../../src/server/sim/model.ts'
import { renderContentSliced } from '../../../../src/server/sim/render-storage.ts'
import { wrapData } from '../../../../src/server/sim/reply.ts'
import { createSlicer, wrapDataSliced, type Slicer } from '../../../../src/server/sim/slices.ts'

const NOW = Date.UTC(2026, 0, 15, 12)

/** The storage holding the most backups, and a node that lists it. */
function biggestStore(cluster: SimClusterModel): { storage: SimStorage; node: number } {
  const store = [...cluster.backups.stores].sort((a, b) => b.series.size - a.series.size)[0]!
  const storage = cluster.storages.find((s) => s.storage === store.storage)!
  return { storage, node: Math.max(0, store.node) }
}

/** A slicer that yields after every step and counts its pauses; `onPause` runs in each. */
function everyStep(onPause: () => void = () => {}): Slicer & { pauses: number } {
  const inner = createSlicer(0)
  const slicer = {
    pauses: 0,
    due: () => true,
    async pause() {
      slicer.pauses++
      onPause()
      await inner.pause()
    },
  }
  return slicer
}

/** Never yields: the listing built in one go. */
const never: Slicer = { due: () => false, pause: () => Promise.resolve() }

describe('simulator answers in slices', () => {
  it('serialises a list to the same bytes as one JSON.stringify, yielding between steps', async () => {
    const items: unknown[] = Array.from({ length: 5_003 }, (_, i) =>
      i % 7 === 0 ? { volid: `pbs:backup/vm/${i}`, notes: 'naïve "quoted" \u2028', n: i / 3 } : i,
    )
    items.push(undefined, null, [1, [2]], 'last')
    for (const list of [[], [1], items]) {
      const slicer = everyStep()
      const body = await wrapDataSliced(list, slicer)
      expect(body.equals(wrapData(list))).toBe(true)
      expect(JSON.parse(body.toString())).toEqual(JSON.parse(wrapData(list).toString()))
      if (list.length > 2_000) expect(slicer.pauses).toBeGreaterThan(1)
    }
  })

  it('lets other work run while a large backup listing is built', async () => {
    const estate = createEstate(
      { seed: 4, clusters: 1, nodesPerCluster: 3, guestsPerNode: 60 },
      () => NOW,
      10_000,
    )
    const cluster = estate.clusters[0]!
    const { storage, node } = biggestStore(cluster)
    let ranBetween = 0
    const slicer = everyStep()
    const listing = renderContentSliced(cluster, storage, node, undefined, undefined, slicer)
    setImmediate(() => ranBetween++)
    const content = (await listing) as Record<string, unknown>[]
    expect(ranBetween).toBe(1)
    expect(slicer.pauses).toBeGreaterThan(10)
    expect(content.filter((v) => v.content === 'backup').length).toBeGreaterThan(100)
    expect(content).toEqual(
      await renderContentSliced(cluster, storage, node, undefined, undefined, never),
    )
    // Volume ids in order, as PVE lists them.
    const ids = content.map((v) => String(v.volid))
    expect(ids).toEqual([...ids].sort())
  })

  it('lists what was there when it started, even when the model ticks between two steps', async () => {
    let now = NOW
    const estate = createEstate(
      { seed: 5, clusters: 1, nodesPerCluster: 2, guestsPerNode: 50 },
      () => now,
      10_000,
    )
    const cluster = estate.clusters[0]!
    const { storage, node } = biggestStore(cluster)
    const before = await renderContentSliced(cluster, storage, node, 'backup', undefined, never)
    // Through a whole night: the backup job adds volumes and prunes old ones while we list.
    const ticking = everyStep(() => {
      for (let i = 0; i < 2; i++) estate.tick((now += 20 * 60_000))
    })
    const during = await renderContentSliced(cluster, storage, node, 'backup', undefined, ticking)
    expect(ticking.pauses).toBeGreaterThan(10)
    expect(during).toEqual(before)
    const after = await renderContentSliced(cluster, storage, node, 'backup', undefined, never)
    expect(after).not.toEqual(before)
  })
})
