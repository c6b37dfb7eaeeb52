// Storage tab subscriptions (spec 000 §2.3): one memoized view per subscription, pushed on every
// data flush when its result changed. Runs inside the worker. Imports only src/shared and src/worker.
import {
  createStorageView,
  type StorageView,
  type StorageViewInput,
} from '../shared/views/storage-view.ts'
import type {
  StorageViewModel,
  StorageViewRequest,
  StorageViewResult,
} from '../shared/views/storage-types.ts'
import type { StateStore } from './store.ts'

type OnModel = (model: StorageViewModel) => void

interface Subscription {
  request: StorageViewRequest
  view: StorageView
  onModel: OnModel
  last: StorageViewResult | null
}

/** The storage subscriptions of one worker API. Ids come from the API's shared counter. */
export interface StorageSubscriptions {
  /** Add a subscription and push its first model at once. */
  add(id: number, request: StorageViewRequest, onModel: OnModel): void
  /** Change the request of a subscription and push at once; unknown ids are ignored. */
  update(id: number, request: StorageViewRequest): void
  /** Drop a subscription; false when the id is not one of these. */
  remove(id: number): boolean
  /** Recompute every subscription after a data change; unchanged results are not sent. */
  flush(): void
}

/**
 * Create the subscriptions over `store`. `deliver` calls a subscriber's callback (the API passes
 * its own guarded call, so a closed page's rejected proxy never reaches the worker).
 */
export function createStorageSubscriptions(
  store: StateStore,
  deliver: (onModel: OnModel, model: StorageViewModel) => void,
): StorageSubscriptions {
  const subs = new Map<number, Subscription>()
  let version = 0

  // Arrays straight from the store keep their identity until their collection changes, which is
  // what the view memoizes on: a flush that touched only guests recomputes nothing here.
  const readInput = (): StorageViewInput => ({
    nodes: store.getNodes(),
    storage: store.getCollection('storage'),
    cephClusters: store.getCollection('cephClusters'),
    physicalDisks: store.getCollection('physicalDisks'),
  })

  const push = (sub: Subscription, input: StorageViewInput) => {
    const result = sub.view.compute(input, sub.request)
    if (result === sub.last) return
    sub.last = result
    deliver(sub.onModel, { ...result, version: ++version })
  }

  return {
    add(id, request, onModel) {
      const sub: Subscription = { request, view: createStorageView(), onModel, last: null }
      subs.set(id, sub)
      push(sub, readInput())
    },
    update(id, request) {
      const sub = subs.get(id)
      if (!sub) return
      sub.request = request
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
