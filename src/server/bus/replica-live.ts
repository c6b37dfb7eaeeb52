// A web node's publications, for its hub: the collector's changes as they arrive, numbered for
// this node's clients. While in step with the collector a publication keeps the collector's own
// changes (the same delta, the same metrics by the same slots), so every dialect's frames are
// the ones a client of the collector gets; with the same seq too, unless a resync or a stale
// period moved this node's numbering (then only the seq differs).
//
// A state that does not follow the last publication (a snapshot after a gap, a new collector
// epoch) is published with a seq at least two ahead: no client can take it for the next delta,
// so each one loads it whole (delta mode 2: a first load; mode 1: initialState), and one that
// was still catching up sees the gap and asks for a resync, as with the collector itself.
import type { StateChanges } from '../../shared/model/delta-steps.ts'
import { createEmptyState, type State } from '../../shared/model/state.ts'
import type { HubLive } from '../hub/hub.ts'
import { createPublication, type Publication } from '../live/live-state.ts'

export interface ReplicaLive extends HubLive {
  /** Publish a state that does not follow the last publication (clients load it whole). */
  reset(state: State, collectorSeq: number): Publication
  /** Publish the next state and the changes that lead to it from the last publication. */
  advance(state: State, changes: StateChanges): Publication
}

export interface ReplicaLiveDeps {
  now: () => number
  version: string
  /** The collector's slot of a guest (replica-state.ts). */
  guestSlot(id: string): number | undefined
}

/** The publications of a web node, starting from an empty state. */
export function createReplicaLive(deps: ReplicaLiveDeps): ReplicaLive {
  let publication = createPublication(createEmptyState(deps.now(), deps.version), 0, null)
  const listeners = new Set<(p: Publication) => void>()
  const publish = (next: Publication) => {
    publication = next
    for (const listener of listeners) listener(publication)
    return publication
  }
  return {
    current: () => publication,
    guestSlot: (id) => deps.guestSlot(id),
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    reset: (state, collectorSeq) =>
      publish(createPublication(state, Math.max(collectorSeq, publication.seq + 2), null)),
    advance: (state, changes) => publish(createPublication(state, publication.seq + 1, changes)),
  }
}
