// Backups view subscriptions (spec 000 §2.4): one memoized pipeline per subscription, pushed on
// every data flush when its result changed. Runs inside the worker. Imports only src/shared and
// src/worker.
import type { Guest, PbsBackup, PbsInstance, PveBackups } from '../shared/model/state.ts'
import type { BackupsViewModel, BackupsViewRequest } from '../shared/views/backups-types.ts'
import {
  createBackupsViewPipeline,
  type BackupsViewInput,
  type BackupsViewPipeline,
  type BackupsViewResult,
} from '../shared/views/backups-view.ts'
import type { StateStore } from './store.ts'

type OnModel = (model: BackupsViewModel) => void

interface Subscription {
  request: BackupsViewRequest
  pipeline: BackupsViewPipeline
  onModel: OnModel
  last: BackupsViewResult | null
}

/** The backups subscriptions of one worker API. Ids come from the API's shared counter. */
export interface BackupsSubscriptions {
  /** Add a subscription and push its first model at once. */
  add(id: number, request: BackupsViewRequest, onModel: OnModel): void
  /** Change the request of a subscription and push at once; unknown ids are ignored. */
  update(id: number, request: BackupsViewRequest): void
  /** Drop a subscription; false when the id is not one of these. */
  remove(id: number): boolean
  /** Recompute every subscription after a data change; unchanged results are not sent. */
  flush(): void
}

/** The scalar pveBackups of the store: replaced whole when it changes, so its identity is a version. */
export function readPveBackups(store: StateStore): PveBackups | undefined {
  const value: unknown = store.getScalar('pveBackups')
  return typeof value === 'object' && value !== null ? (value as PveBackups) : undefined
}

/**
 * Create the subscriptions over `store`. `deliver` calls a subscriber's callback (the API passes
 * its own guarded call); `now` gives epoch ms for 'Today' and the chart range.
 */
export function createBackupsSubscriptions(
  store: StateStore,
  deliver: (onModel: OnModel, model: BackupsViewModel) => void,
  now: () => number = Date.now,
): BackupsSubscriptions {
  const subs = new Map<number, Subscription>()
  let version = 0

  // Arrays straight from the store keep their identity until their collection changes, which is
  // what the pipeline memoizes on.
  const readInput = (): BackupsViewInput => ({
    pveBackups: readPveBackups(store),
    pbsBackups: store.getCollection('pbsBackups') as unknown as readonly PbsBackup[],
    pbs: store.getCollection('pbs') as unknown as readonly PbsInstance[],
    guests: store.getGuests() as readonly Guest[],
    nodes: store.getNodes(),
    now: now(),
  })

  const push = (sub: Subscription, input: BackupsViewInput) => {
    const result = sub.pipeline.compute(input, sub.request)
    if (result === sub.last) return
    sub.last = result
    deliver(sub.onModel, { ...result, version: ++version })
  }

  return {
    add(id, request, onModel) {
      const sub: Subscription = {
        request,
        pipeline: createBackupsViewPipeline(),
        onModel,
        last: null,
      }
      subs.set(id, sub)
      push(sub, readInput())
    },
    update(id, request) {
      const sub = subs.get(id)
      if (!sub) return
      sub.request = request
      // Immediate, not batched: filter changes and scrolling must answer within the frame.
      push(sub, readInput())
    },
    remove: (id) => subs.delete(id),
    flush() {
      if (subs.size === 0) return
      const input = readInput()
      for (const sub of subs.values()) push(sub, input)
    },
  }
}
