// The published live state: one immutable snapshot at a time, numbered, with the changes from the
// previous one computed once for every socket client. The diff runs in time slices
// (run-sliced.ts): at 100,000 guests it would otherwise hold the event loop for 150 ms a cycle.
import {
  createGuestSlots,
  diffStateSteps,
  toJsonDelta,
  type StateChanges,
} from '../../shared/model/delta-steps.ts'
import type { StateDelta } from '../../shared/model/messages.ts'
import { createEmptyState, type State } from '../../shared/model/state.ts'
import type { CollectedState } from '../collect/poller.ts'
import { runSliced } from './run-sliced.ts'

export interface Publication {
  state: State
  seq: number
  /** Delta mode 2: the changes from seq - 1 (guest metrics apart); null for the first snapshot. */
  changes: StateChanges | null
  /** Delta mode 1: the all-JSON delta from seq - 1, built on first use; null for the first. */
  readonly delta: StateDelta | null
}

export interface LiveState {
  current(): Publication
  /**
   * Merge a poll result into the state and publish it if anything changed. Polls are applied one
   * at a time, in order; a poll that arrives while one is being diffed waits for it.
   */
  applyCollected(collected: CollectedState): Promise<Publication>
  /** The metrics-frame slot of a guest in the current state, undefined when it has none. */
  guestSlot(id: string): number | undefined
  subscribe(listener: (publication: Publication) => void): () => void
}

export interface LiveStateDeps {
  now: () => number
  version: string
  clientCount: () => number
}

/** Create the live state holder. */
export function createLiveState(deps: LiveStateDeps): LiveState {
  const startTime = deps.now()
  let publication = createPublication(createEmptyState(startTime, deps.version), 0, null)
  const listeners = new Set<(p: Publication) => void>()
  const slots = createGuestSlots()
  let queue: Promise<unknown> = Promise.resolve()

  const apply = async (collected: CollectedState): Promise<Publication> => {
    const prev = publication.state
    const now = deps.now()
    const next: State = {
      ...prev,
      nodes: collected.nodes,
      vms: collected.vms,
      containers: collected.containers,
      storage: collected.storage,
      cephClusters: collected.cephClusters,
      physicalDisks: collected.physicalDisks,
      storageBackups: collected.storageBackups,
      guestSnapshots: collected.guestSnapshots,
      backupTasks: collected.backupTasks,
      pbs: collected.pbs,
      pbsBackups: collected.pbsBackups,
      performance: collected.performance,
      connectionHealth: collected.connectionHealth,
      connectionErrors: collected.connectionErrors,
      lastUpdate: collected.lastUpdate,
      // Set once: a source added later fills in while the tab already shows the others.
      backupsCollectedAt:
        prev.backupsCollectedAt || (collected.backupsCollected ? collected.lastUpdate : 0),
      stats: {
        startTime,
        uptime: Math.round((now - startTime) / 1000),
        pollingCycles: collected.pollingCycles,
        webSocketClients: deps.clientCount(),
        version: deps.version,
      },
    }
    const changes = await runSliced(diffStateSteps(prev, next, slots))
    if (!changes.delta && !changes.metrics) return publication
    publication = createPublication(next, publication.seq + 1, changes)
    for (const listener of listeners) listener(publication)
    return publication
  }

  return {
    current: () => publication,
    applyCollected(collected) {
      const done = queue.then(() => apply(collected))
      queue = done.catch(() => undefined)
      return done
    },
    guestSlot: (id) => slots.of.get(id),
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}

function createPublication(state: State, seq: number, changes: StateChanges | null): Publication {
  let delta: StateDelta | null | undefined
  return {
    state,
    seq,
    changes,
    get delta() {
      if (delta === undefined) delta = changes ? toJsonDelta(changes, state) : null
      return delta
    },
  }
}
