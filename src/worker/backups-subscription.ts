// Backups view subscriptions (spec 000 §2.4). Runs inside the worker. Imports only src/shared and
// src/worker.
import type { PveBackups } from '../shared/model/state.ts'
import type { BackupsViewModel, BackupsViewRequest } from '../shared/views/backups-types.ts'
import { createBackupsViewPipeline, type BackupsViewInput } from '../shared/views/backups-view.ts'
import type { StateStore } from './store.ts'
import { createViewSubscriptions, type ViewSubscriptions } from './view-subscriptions.ts'

export type BackupsSubscriptions = ViewSubscriptions<BackupsViewRequest, BackupsViewModel>

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
  deliver: (onModel: (model: BackupsViewModel) => void, model: BackupsViewModel) => void,
  now: () => number = Date.now,
): BackupsSubscriptions {
  const readInput = (): BackupsViewInput => ({
    pveBackups: readPveBackups(store),
    pbsBackups: store.getCollection('pbsBackups'),
    pbs: store.getCollection('pbs'),
    guests: store.getGuests(),
    nodes: store.getNodes(),
    now: now(),
  })
  return createViewSubscriptions(readInput, createBackupsViewPipeline, deliver)
}
