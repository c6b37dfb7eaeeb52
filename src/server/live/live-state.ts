// The published live state: one immutable snapshot at a time, numbered, with the delta from the
// previous one computed once for every socket client.
import { diffState } from '../../shared/model/delta.ts'
import type { StateDelta } from '../../shared/model/messages.ts'
import { createEmptyState, type State } from '../../shared/model/state.ts'
import type { CollectedState } from '../collect/poller.ts'

export interface Publication {
  state: State
  seq: number
  /** Delta from seq - 1; null for the very first snapshot. */
  delta: StateDelta | null
}

export interface LiveState {
  current(): Publication
  /** Merge a poll result into the state and publish it if anything changed. */
  applyCollected(collected: CollectedState): Publication
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
  let publication: Publication = {
    state: createEmptyState(startTime, deps.version),
    seq: 0,
    delta: null,
  }
  const listeners = new Set<(p: Publication) => void>()

  return {
    current: () => publication,
    applyCollected(collected) {
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
      const delta = diffState(prev, next)
      if (!delta) return publication
      publication = { state: next, seq: publication.seq + 1, delta }
      for (const listener of listeners) listener(publication)
      return publication
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}
