import { describe, expect, it } from 'vitest'
import type { StateDelta } from '../../../../src/shared/model/messages.ts'
import { createEmptyState } from '../../../../src/shared/model/state.ts'
import { createBackupNormaliser } from '../../../../src/shared/views/backups-incremental.ts'
import {
  normaliseBackups,
  type NormalisedBackups,
} from '../../../../src/shared/views/backups-normalize.ts'
import { createBackupsViewPipeline } from '../../../../src/shared/views/backups-view.ts'
import type { BackupsViewRequest } from '../../../../src/shared/views/backups-types.ts'
import { createStateStore } from '../../../../src/worker/store.ts'
import { computeNodeSummary } from '../../../../src/shared/views/node-summary.ts'
import { makeNode } from './guest-fixtures.ts'
import { makeBackupsRequest } from './backups-fixtures.ts'
import {
  createLoadedStore,
  createScenario,
  randomDelta,
  sourcesOf,
  viewInput,
  withoutGroupNumbers,
  type Row,
} from './backups-delta-fixtures.ts'

/** Group numbers are arbitrary: compare which records share a group. */
function groupPartition(data: NormalisedBackups): number[] {
  const first = new Map<number, number>()
  return Array.from(data.guestGroups, (group, i) => {
    if (!first.has(group)) first.set(group, i)
    return first.get(group)!
  })
}

function expectSameNormalisation(incremental: NormalisedBackups, scratch: NormalisedBackups) {
  expect(incremental.records).toEqual(scratch.records)
  expect(Array.from(incremental.days)).toEqual(Array.from(scratch.days))
  expect(Array.from(incremental.times)).toEqual(Array.from(scratch.times))
  expect(incremental.classes).toEqual(scratch.classes)
  expect(incremental.nodeIds).toEqual(scratch.nodeIds)
  expect(incremental.hasHost).toBe(scratch.hasHost)
  expect(groupPartition(incremental)).toEqual(groupPartition(scratch))
}

describe('incremental backup normalisation', () => {
  it.each([1, 2, 3, 4, 5])(
    'equals a normalisation from scratch after random upserts and removals (seed %i)',
    (seed) => {
      const scenario = createScenario(seed)
      const store = createLoadedStore(scenario)
      const normalise = createBackupNormaliser()
      expectSameNormalisation(normalise(sourcesOf(store)), normaliseBackups(sourcesOf(store)))
      for (let step = 1; step <= 60; step++) {
        if (step % 20 === 0) {
          // A resync: a full state replaces every object (same ids, new objects).
          const full = JSON.parse(JSON.stringify(store.toState())) as Record<string, unknown>
          store.applyFull(full, step)
          expectSameNormalisation(normalise(sourcesOf(store)), normaliseBackups(sourcesOf(store)))
          continue
        }
        const delta = JSON.parse(JSON.stringify(randomDelta(store, scenario))) as StateDelta
        expect(store.applyDelta(delta, step).outcome).toBe('applied')
        expectSameNormalisation(normalise(sourcesOf(store)), normaliseBackups(sourcesOf(store)))
      }
    },
  )

  it('keeps the view (rows, chart, totals) equal to a fresh pipeline through the same changes', () => {
    const scenario = createScenario(42)
    const store = createLoadedStore(scenario)
    const live = createBackupsViewPipeline()
    const requests: BackupsViewRequest[] = [
      makeBackupsRequest(),
      makeBackupsRequest({ sort: { key: 'size', direction: 'asc' } }),
      makeBackupsRequest({ sort: { key: 'name', direction: 'desc' }, grouping: 'guest' }),
      makeBackupsRequest({ search: 'g-1' }),
    ]
    for (let step = 1; step <= 40; step++) {
      const delta = JSON.parse(JSON.stringify(randomDelta(store, scenario))) as StateDelta
      store.applyDelta(delta, step)
      // Every request each step: the sorted orders of all four are carried over the change.
      const input = viewInput(store)
      for (const request of requests) {
        expect(withoutGroupNumbers(live.compute(input, request))).toEqual(
          withoutGroupNumbers(createBackupsViewPipeline().compute(input, request)),
        )
      }
    }
  })

  it('stays equal when a long run of records is removed and new ones are appended', () => {
    const scenario = createScenario(9)
    const state = createEmptyState(0, 'test')
    for (let i = 0; i < 30; i++) state.pbsBackups.push(scenario.pbsBackup())
    for (let i = 0; i < 400; i++)
      state.storageBackups.push(scenario.storageBackup(state.pbsBackups))
    const store = createStateStore()
    store.applyFull(JSON.parse(JSON.stringify(state)) as Record<string, unknown>, 0)
    const normalise = createBackupNormaliser()
    normalise(sourcesOf(store))
    const ids = store.getCollection('storageBackups').map((b) => b.id)
    const delta: StateDelta = {
      remove: { storageBackups: ids.slice(100, 300), pbsBackups: [state.pbsBackups[0]!.id] },
      upsert: {
        storageBackups: [
          { id: ids[50]!, size: 1 },
          ...([scenario.storageBackup(state.pbsBackups)] as unknown as Row[]),
        ],
      },
    }
    store.applyDelta(delta, 1)
    const after = normalise(sourcesOf(store))
    expectSameNormalisation(after, normaliseBackups(sourcesOf(store)))
    // The 99 kept records after the gap are found again, not rebuilt.
    expect(after.change!.added.length).toBeLessThan(10)
  })

  it('keeps the node summary Backups counts equal to a full count through the same changes', () => {
    const scenario = createScenario(11)
    const store = createLoadedStore(scenario)
    const normalise = createBackupNormaliser()
    // One node of each instance is known; the others' backups are not counted anywhere.
    const nodes = [makeNode('n1', { instance: 'alpha' }), makeNode('n2', { instance: 'bravo' })]
    const request = { kind: 'nodeSummary', tab: 'backups', sort: null } as const
    for (let step = 1; step <= 30; step++) {
      const delta = JSON.parse(JSON.stringify(randomDelta(store, scenario))) as StateDelta
      store.applyDelta(delta, step)
      const input = {
        nodes,
        guests: store.getGuests(),
        pbs: [],
        storage: [],
        physicalDisks: [],
        storageBackups: store.getCollection('storageBackups'),
        guestSnapshots: store.getCollection('guestSnapshots'),
        pbsBackups: store.getCollection('pbsBackups'),
      }
      const data = normalise(sourcesOf(store))
      expect(computeNodeSummary({ ...input, backups: () => data }, request).rows).toEqual(
        computeNodeSummary(input, request).rows,
      )
    }
  })

  it('rebuilds only the records whose source objects changed', () => {
    const scenario = createScenario(7)
    const store = createLoadedStore(scenario)
    const normalise = createBackupNormaliser()
    const before = normalise(sourcesOf(store))
    const target = store.getCollection('guestSnapshots')[3]!
    store.applyDelta({ upsert: { guestSnapshots: [{ id: target.id, description: 'x' }] } }, 1)
    const after = normalise(sourcesOf(store))
    expect(Array.from(after.change!.added)).toEqual([3])
    const kept = after.records.filter((record, i) => record === before.records[i])
    expect(kept).toHaveLength(before.records.length - 1)
  })

  it('does not renormalise when only guest metrics change', () => {
    const scenario = createScenario(8)
    const store = createLoadedStore(scenario)
    const pipeline = createBackupsViewPipeline()
    pipeline.compute(viewInput(store), makeBackupsRequest())
    const guest = store.getCollection('vms')[0] ?? store.getCollection('containers')[0]!
    const key = guest.type === 'lxc' ? 'containers' : 'vms'
    store.applyDelta({ upsert: { [key]: [{ id: guest.id, cpu: 0.9 }] } }, 1)
    pipeline.compute(viewInput(store), makeBackupsRequest())
    expect(pipeline.runs.normalise).toBe(1)
  })
})
