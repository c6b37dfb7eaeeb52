// Composition of the guest metadata domain: the bounded service the routes use and the retention
// sweep, both against the live state; the sweep starts with the published states (the polls).
import type { LiveState } from '../live/live-state.ts'
import type { Db } from '../store/db.ts'
import { createMetadataRepo } from '../store/metadata-repo.ts'
import { createGuestLookup } from './known-guests.ts'
import { createMetadataRetention, type MetadataRetention } from './metadata-retention.ts'
import { createMetadataService, type MetadataService } from './metadata-service.ts'

/** Build the metadata service and its retention sweep, subscribed to `live`. */
export function createGuestMetadata(deps: {
  db: Db
  live: LiveState
  now: () => number
  log?: { info(obj: object, msg: string): void; error(obj: object, msg: string): void }
}): { service: MetadataService; retention: MetadataRetention } {
  const { live } = deps
  const repo = createMetadataRepo(deps.db)
  const isGuest = createGuestLookup({
    hasGuestId: (id) => live.guestSlot(id) !== undefined,
    nodes: () => live.current().state.nodes,
  })
  const retention = createMetadataRetention({
    repo,
    state: () => live.current().state,
    isGuest,
    now: deps.now,
    log: deps.log,
  })
  live.subscribe(() => retention.sweepIfDue())
  return { service: createMetadataService({ repo, isGuest }), retention }
}
