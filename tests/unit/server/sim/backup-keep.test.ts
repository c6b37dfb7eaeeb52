import { describe, expect, it } from 'vitest'
import { buildEstate } from '../../../../src/server/sim/build-estate.ts'
import type { SimClusterModel } from '../../../../src/server/sim/model.ts'

const NOW = Date.UTC(2026, 0, 15, 12)
const shape = { seed: 1, clusters: 2, nodesPerCluster: 2, guestsPerNode: 15 }

function backupCount(clusters: SimClusterModel[]): number {
  let count = 0
  for (const cluster of clusters)
    for (const store of cluster.backups.stores)
      for (const series of store.series.values()) count += series.times.length
  return count
}

describe('simulator backup retention (DEMO_BACKUP_KEEP)', () => {
  it('keeps the given number of nightly backups per guest in every cluster', () => {
    const own = buildEstate(shape, NOW)
    const kept = buildEstate({ ...shape, backupKeep: 25 }, NOW)
    for (const cluster of kept) expect(cluster.backups.keep).toBe(25)
    // Every cluster's own retention is 7-14: 25 kept over the 30 seeded nights is more.
    for (const cluster of own) expect(cluster.backups.keep).toBeLessThanOrEqual(14)
    expect(backupCount(kept)).toBeGreaterThan(backupCount(own) * 1.5)
  })
})
