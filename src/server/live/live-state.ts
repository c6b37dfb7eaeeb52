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
import type { CollectedChanges } from '../collect/poller-thread.ts'
import { createReplicaState, type ReplicaState } from '../bus/replica-state.ts'
import { runSliced } from './run-sliced.ts'
import { mergeThreadChanges, threadKnownKeys } from './thread-changes.ts'

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
  /**
   * The same from the collector thread (poller-thread.ts): its changes are applied to a copy of
   * the collected state instead of diffing whole states; only what `derive` and `decorate` set
   * is diffed here. Resolves to the publication and the collected state (for the history).
   */
  applyCollectedChanges(
    changes: CollectedChanges,
  ): Promise<{ publication: Publication; collected: CollectedState }>
  /**
   * The collector thread was started again: its next changes start from an empty estate, and
   * they are published as a whole new state (every client loads it again). Queued like a poll.
   */
  restartCollected(): void
  /**
   * Publish the current state again through `decorate` (poll false), without a poll: a change
   * of derived data (an acknowledgment) reaches the clients at once. Queued like a poll.
   */
  republish(): Promise<Publication>
  /**
   * Publish a whole state received from elsewhere (a web node's replica of the collector's), as
   * the next publication: diffed against the current one like a poll, so this process's clients
   * get their own gap-free sequence. `decorate` is not run (the collector already derived alerts);
   * only `stats.webSocketClients` is replaced by this process's own count. Queued like a poll.
   */
  replaceState(next: State): Promise<Publication>
  /** The metrics-frame slot of a guest in the current state, undefined when it has none. */
  guestSlot(id: string): number | undefined
  subscribe(listener: (publication: Publication) => void): () => void
}

export interface LiveStateDeps {
  now: () => number
  version: string
  clientCount: () => number
  /**
   * Fills the derived collections (activeAlerts, recentlyResolved) of a state about to be
   * published, in place; `poll` is true for a poll result, false for a republish.
   */
  decorate?: (next: State, now: number, poll: boolean) => void
  /**
   * Sets collections computed from the collected ones (guestBackups) on a state about to be
   * published, before `decorate` (the alert engine reads them). Synchronous: a costly computation
   * runs elsewhere and hands its newest result here (backup-health/wiring.ts).
   */
  derive?: (next: State) => void
}

/** Create the live state holder. */
export function createLiveState(deps: LiveStateDeps): LiveState {
  const startTime = deps.now()
  let publication = createPublication(createEmptyState(startTime, deps.version), 0, null)
  const listeners = new Set<(p: Publication) => void>()
  const slots = createGuestSlots()
  let queue: Promise<unknown> = Promise.resolve()
  // The collector thread's side: a copy of the collected state its changes are applied to. It
  // starts as the first publication's state, so their arrays are the same ones.
  let replica: ReplicaState | null = null
  let restarted = false
  const replicaOf = () =>
    (replica ??= createReplicaState(publication.state, { vms: [], containers: [] }))

  const build = (prev: State, collected: CollectedState, now: number): State => ({
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
    backupJobs: collected.backupJobs,
    backupCoverage: collected.backupCoverage,
    pbsJobs: collected.pbsJobs,
    performance: collected.performance,
    connectionHealth: collected.connectionHealth,
    connectionErrors: collected.connectionErrors,
    lastUpdate: collected.lastUpdate,
    // Set once: a source added later fills in while the tab already shows the others.
    backupsCollectedAt:
      prev.backupsCollectedAt || (collected.backupsCollected ? collected.lastUpdate : 0),
    backupsPending: collected.backupsPending,
    stats: {
      startTime,
      uptime: Math.round((now - startTime) / 1000),
      pollingCycles: collected.pollingCycles,
      webSocketClients: deps.clientCount(),
      version: deps.version,
    },
  })

  const apply = async (collected: CollectedState): Promise<Publication> => {
    const prev = publication.state
    const now = deps.now()
    const next = build(prev, collected, now)
    deps.derive?.(next)
    deps.decorate?.(next, now, true)
    return publish(prev, next)
  }

  const applyChanges = async (received: CollectedChanges) => {
    const copy = replicaOf()
    const before = copy.current()
    const applied = await runSliced(copy.applySteps(received))
    const collected: CollectedState = {
      ...applied.state,
      ...received.extras,
      backupsPending: applied.state.backupsPending ?? [],
    }
    const prev = publication.state
    const now = deps.now()
    const next = build(prev, collected, now)
    deps.derive?.(next)
    deps.decorate?.(next, now, true)
    const known = threadKnownKeys(prev, before, next, applied.state)
    if (restarted || !known.has('vms') || !known.has('containers')) {
      // A new thread's slots and rows: no delta leads there from what clients have.
      restarted = false
      publication = createPublication(next, publication.seq + 2, null)
      for (const listener of listeners) listener(publication)
      return { publication, collected }
    }
    const own = await runSliced(diffStateSteps(prev, next, createGuestSlots(), known))
    const changes = mergeThreadChanges(own, applied.changes, known)
    if (!changes.delta && !changes.metrics) return { publication, collected }
    publication = createPublication(next, publication.seq + 1, changes)
    for (const listener of listeners) listener(publication)
    return { publication, collected }
  }

  const publish = async (prev: State, next: State): Promise<Publication> => {
    const changes = await runSliced(diffStateSteps(prev, next, slots))
    if (!changes.delta && !changes.metrics) return publication
    publication = createPublication(next, publication.seq + 1, changes)
    for (const listener of listeners) listener(publication)
    return publication
  }

  const enqueue = <T>(work: () => Promise<T>): Promise<T> => {
    const done = queue.then(work)
    queue = done.catch(() => undefined)
    return done
  }

  return {
    current: () => publication,
    applyCollected: (collected) => enqueue(() => apply(collected)),
    applyCollectedChanges: (changes) => enqueue(() => applyChanges(changes)),
    restartCollected() {
      void enqueue(async () => {
        replica = createReplicaState(createEmptyState(deps.now(), deps.version), {
          vms: [],
          containers: [],
        })
        restarted = true
        return publication
      })
    },
    republish: () =>
      enqueue(() => {
        const prev = publication.state
        const next = { ...prev }
        deps.derive?.(next)
        deps.decorate?.(next, deps.now(), false)
        return publish(prev, next)
      }),
    replaceState: (received) =>
      enqueue(() => {
        const next: State = {
          ...received,
          stats: { ...received.stats, webSocketClients: deps.clientCount() },
        }
        return publish(publication.state, next)
      }),
    guestSlot: (id) => (replica ? replica.slot(id) : slots.of.get(id)),
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}

/** A publication of `state` as number `seq`; its mode 1 delta is built from `changes` on first use. */
export function createPublication(
  state: State,
  seq: number,
  changes: StateChanges | null,
): Publication {
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
