// The Backups view as the worker computes it after each live delta (the store's shared incremental
// normaliser, sorted orders carried over, counts kept as records come and go) must equal a fresh
// pipeline over the same data, for every view mode, type, grouping, sort, search and filter.
import { describe, expect, it } from 'vitest'
import type { StateDelta } from '../../../../src/shared/model/messages.ts'
import { localDay } from '../../../../src/shared/views/backups-dates.ts'
import {
  BACKUP_SORT_KEYS,
  type BackupsViewRequest,
} from '../../../../src/shared/views/backups-types.ts'
import {
  createBackupsViewPipeline,
  type BackupsViewInput,
} from '../../../../src/shared/views/backups-view.ts'
import { normaliseBackups } from '../../../../src/shared/views/backups-normalize.ts'
import { readNormalisedBackups } from '../../../../src/worker/view-kinds.ts'
import type { StateStore } from '../../../../src/worker/store.ts'
import { makeBackupsRequest } from './backups-fixtures.ts'
import {
  createLoadedStore,
  createScenario,
  randomDelta,
  sourcesOf,
  T0,
  viewInput,
  withoutGroupNumbers,
} from './backups-delta-fixtures.ts'

const DAY = localDay(T0)

/** Requests covering each filter, grouping and sort the view offers. */
const REQUESTS: BackupsViewRequest[] = [
  makeBackupsRequest(),
  ...(['snapshot', 'pve', 'pbs'] as const).map((viewMode) => makeBackupsRequest({ viewMode })),
  ...(['VM', 'LXC', 'Host'] as const).map((typeFilter) => makeBackupsRequest({ typeFilter })),
  ...BACKUP_SORT_KEYS.flatMap((key) =>
    (['asc', 'desc'] as const).map((direction) =>
      makeBackupsRequest({ sort: { key, direction }, grouping: key === 'name' ? 'guest' : 'date' }),
    ),
  ),
  makeBackupsRequest({ grouping: 'guest' }),
  makeBackupsRequest({ grouping: 'guest', sort: { key: 'size', direction: 'desc' } }),
  makeBackupsRequest({ search: 'g-1' }),
  makeBackupsRequest({ search: '10', grouping: 'guest', viewMode: 'pve' }),
  makeBackupsRequest({ search: 'pbs:pbs1:offsite' }),
  makeBackupsRequest({ scope: { instance: 'pbs1', datastore: 'main', namespace: 'prod' } }),
  makeBackupsRequest({ selectedNode: 'alpha-n1' }),
  makeBackupsRequest({ selectedNode: 'pbs-pbs1' }),
  makeBackupsRequest({ selectedDay: DAY - 1 }),
  makeBackupsRequest({ range: 7, selectedDay: DAY, grouping: 'guest' }),
  makeBackupsRequest({ range: 365, window: { start: 7, count: 15 } }),
]

/** The worker's input: the store's one shared normaliser, as view-kinds.ts wires it. */
function workerInput(store: StateStore): BackupsViewInput {
  return { ...viewInput(store), normalised: () => readNormalisedBackups(store) }
}

/**
 * A fresh pipeline over the plain normalisation (no kept counts, no change to carry over):
 * everything normalised, counted, sorted and grouped from scratch.
 */
function freshModel(store: StateStore, request: BackupsViewRequest) {
  const input = viewInput(store)
  const scratch = normaliseBackups(sourcesOf(store))
  const fresh: BackupsViewInput = { ...input, normalised: () => scratch }
  return withoutGroupNumbers(createBackupsViewPipeline().compute(fresh, request))
}

describe('the incremental Backups view', () => {
  it.each([1, 2, 3])(
    'equals a fresh pipeline after random deltas to all three collections and the guests (seed %i)',
    (seed) => {
      const scenario = createScenario(seed, true)
      const store = createLoadedStore(scenario)
      // One pipeline per subscription (a request that stays), and one that switches requests.
      const steady = REQUESTS.map(() => createBackupsViewPipeline())
      const switching = createBackupsViewPipeline()
      for (let step = 1; step <= 24; step++) {
        if (step % 12 === 0) {
          // A resync: a full state replaces every object.
          const full = JSON.parse(JSON.stringify(store.toState())) as Record<string, unknown>
          store.applyFull(full, step)
        } else {
          const delta = JSON.parse(JSON.stringify(randomDelta(store, scenario))) as StateDelta
          expect(store.applyDelta(delta, step).outcome).toBe('applied')
        }
        REQUESTS.forEach((request, r) => {
          const expected = freshModel(store, request)
          const live = steady[r]!.compute(workerInput(store), request)
          expect(withoutGroupNumbers(live), JSON.stringify(request)).toEqual(expected)
          if ((r + step) % 3 === 0) {
            const switched = switching.compute(workerInput(store), request)
            expect(withoutGroupNumbers(switched), JSON.stringify(request)).toEqual(expected)
          }
        })
      }
    },
  )
})
