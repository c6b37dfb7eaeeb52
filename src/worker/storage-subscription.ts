// Storage tab subscriptions (spec 000 §2.3). Runs inside the worker. Imports only src/shared and
// src/worker.
import type { StorageViewModel, StorageViewRequest } from '../shared/views/storage-types.ts'
import { createStorageView } from '../shared/views/storage-view.ts'
import type { StateStore } from './store.ts'
import { createViewSubscriptions, type ViewSubscriptions } from './view-subscriptions.ts'

export type StorageSubscriptions = ViewSubscriptions<StorageViewRequest, StorageViewModel>

/** Create the storage subscriptions over `store` (see createViewSubscriptions for `deliver`). */
export function createStorageSubscriptions(
  store: StateStore,
  deliver: (onModel: (model: StorageViewModel) => void, model: StorageViewModel) => void,
): StorageSubscriptions {
  // A flush that touched only guests recomputes nothing here: these arrays keep their identity.
  const readInput = () => ({
    nodes: store.getNodes(),
    storage: store.getCollection('storage'),
    cephClusters: store.getCollection('cephClusters'),
    physicalDisks: store.getCollection('physicalDisks'),
  })
  return createViewSubscriptions(readInput, createStorageView, deliver)
}
