// Node summary subscriptions (spec 000 §2.1). Runs inside the worker. Imports only src/shared and
// src/worker.
import { createNodeSummaryView, type NodeSummaryInput } from '../shared/views/node-summary.ts'
import type { NodeSummaryModel, NodeSummaryRequest } from '../shared/views/node-summary-types.ts'
import { readPveBackups } from './backups-subscription.ts'
import type { StateStore } from './store.ts'
import { createViewSubscriptions, type ViewSubscriptions } from './view-subscriptions.ts'

export type NodeSummarySubscriptions = ViewSubscriptions<NodeSummaryRequest, NodeSummaryModel>

/** Create the node summary subscriptions over `store` (see createViewSubscriptions). */
export function createNodeSummarySubscriptions(
  store: StateStore,
  deliver: (onModel: (model: NodeSummaryModel) => void, model: NodeSummaryModel) => void,
): NodeSummarySubscriptions {
  const readInput = (): NodeSummaryInput => ({
    nodes: store.getNodes(),
    guests: store.getGuests(),
    pbs: store.getCollection('pbs'),
    storage: store.getCollection('storage'),
    physicalDisks: store.getCollection('physicalDisks'),
    pveBackups: readPveBackups(store),
    pbsBackups: store.getCollection('pbsBackups'),
  })
  return createViewSubscriptions(readInput, createNodeSummaryView, deliver)
}
