import { describe, expect, it } from 'vitest'
import { readDataReadiness } from '../../../src/worker/readiness.ts'
import { createStateStore } from '../../../src/worker/store.ts'

describe('readDataReadiness', () => {
  it('reads the empty state served before the first poll as not polled, not collected', () => {
    const store = createStateStore()
    store.applyFull({ nodes: [], lastUpdate: 0, backupsCollectedAt: 0 })
    expect(readDataReadiness(store, true)).toEqual({
      firstPollDone: false,
      backupsCollected: false,
      backupsPending: [],
    })
  })

  it('reads the sources whose backups are pending, the same array while unchanged', () => {
    const store = createStateStore()
    store.applyFull(
      { nodes: [], lastUpdate: 5, backupsCollectedAt: 5, backupsPending: ['alpha'] },
      1,
    )
    const first = readDataReadiness(store, true).backupsPending
    expect(first).toEqual(['alpha'])
    expect(readDataReadiness(store, true).backupsPending).toBe(first)
    store.applyDelta({ scalars: { backupsPending: [] } }, 2)
    expect(readDataReadiness(store, true).backupsPending).toEqual([])
    // Malformed: ignored, not shown.
    store.applyDelta({ scalars: { backupsPending: [1, null] as never } }, 3)
    expect(readDataReadiness(store, true).backupsPending).toEqual([])
  })

  it('reads a polled state whose backups are not read yet', () => {
    const store = createStateStore()
    store.applyFull({ nodes: [], lastUpdate: 5, backupsCollectedAt: 0 }, 1)
    expect(readDataReadiness(store, true)).toMatchObject({
      firstPollDone: true,
      backupsCollected: false,
    })
    store.applyDelta({ scalars: { backupsCollectedAt: 5 } }, 2)
    expect(readDataReadiness(store, true).backupsCollected).toBe(true)
  })

  it('takes a full state without the markers (reference servers) as ready', () => {
    const store = createStateStore()
    store.applyFull({ nodes: [] })
    expect(readDataReadiness(store, true)).toEqual({
      firstPollDone: true,
      backupsCollected: true,
      backupsPending: [],
    })
    expect(readDataReadiness(store, false)).toEqual({
      firstPollDone: false,
      backupsCollected: false,
      backupsPending: [],
    })
  })
})
