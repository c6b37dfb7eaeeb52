// Node summary subscriptions (spec 000 §2.1): one memoized view per subscription, pushed on every
// data flush when its result changed. Runs inside the worker. Imports only src/shared and src/worker.
import {
  createNodeSummaryView,
  type NodeSummaryInput,
  type NodeSummaryView,
} from '../shared/views/node-summary.ts'
import type {
  NodeSummaryModel,
  NodeSummaryRequest,
  NodeSummaryResult,
} from '../shared/views/node-summary-types.ts'
import type { PbsBackup } from '../shared/model/state.ts'
import { readPveBackups } from './backups-subscription.ts'
import type { StateStore } from './store.ts'

type OnModel = (model: NodeSummaryModel) => void

interface Subscription {
  request: NodeSummaryRequest
  view: NodeSummaryView
  onModel: OnModel
  last: NodeSummaryResult | null
}

/** The node summary subscriptions of one worker API. Ids come from the API's shared counter. */
export interface NodeSummarySubscriptions {
  /** Add a subscription and push its first model at once. */
  add(id: number, request: NodeSummaryRequest, onModel: OnModel): void
  /** Change the request (sort) of a subscription and push at once; unknown ids are ignored. */
  update(id: number, request: NodeSummaryRequest): void
  /** Drop a subscription; false when the id is not one of these. */
  remove(id: number): boolean
  /** Recompute every subscription after a data change; unchanged results are not sent. */
  flush(): void
}

/**
 * Create the subscriptions over `store`. `deliver` calls a subscriber's callback (the API passes
 * its own guarded call, so a closed page's rejected proxy never reaches the worker).
 */
export function createNodeSummarySubscriptions(
  store: StateStore,
  deliver: (onModel: OnModel, model: NodeSummaryModel) => void,
): NodeSummarySubscriptions {
  const subs = new Map<number, Subscription>()
  let version = 0

  // Arrays straight from the store: they keep their identity until their collection changes,
  // which is what the view memoizes on.
  const readInput = (): NodeSummaryInput => ({
    nodes: store.getNodes(),
    guests: store.getGuests(),
    pbs: store.getCollection('pbs'),
    storage: store.getCollection('storage'),
    physicalDisks: store.getCollection('physicalDisks'),
    pveBackups: readPveBackups(store),
    pbsBackups: store.getCollection('pbsBackups') as unknown as readonly PbsBackup[],
  })

  const push = (sub: Subscription, input: NodeSummaryInput) => {
    const result = sub.view.compute(input, sub.request)
    // The view returns the same object when nothing it reads changed: nothing to send.
    if (result === sub.last) return
    sub.last = result
    deliver(sub.onModel, { ...result, version: ++version })
  }

  return {
    add(id, request, onModel) {
      const sub: Subscription = { request, view: createNodeSummaryView(), onModel, last: null }
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
