// Whether the state held is real data or the empty state a server serves before its first poll.
// Runs inside the worker. Imports only src/shared and src/worker.
import type { StateStore } from './store.ts'

/** What the connection snapshot says about the data behind the views. */
export interface DataReadiness {
  firstPollDone: boolean
  backupsCollected: boolean
  /**
   * Sources whose backups are not all read yet (the server's backupsPending): their guests may
   * show older or no backups until then. The store's own array, so an unchanged one is the same.
   */
  backupsPending: readonly string[]
}

const NONE: readonly string[] = []

/**
 * Reads the readiness markers of the state. A server of the reference family sends neither
 * marker: its first full state then counts as polled and collected, as it always did.
 */
export function readDataReadiness(store: StateStore, initialDataReceived: boolean): DataReadiness {
  if (!initialDataReceived) {
    return { firstPollDone: false, backupsCollected: false, backupsPending: NONE }
  }
  const lastUpdate = store.getScalar('lastUpdate')
  const firstPollDone = lastUpdate === undefined || store.getLastUpdate() > 0
  const collectedAt = store.getScalar('backupsCollectedAt')
  // The server's marker: storage and backups read once. Whether this client holds the backups
  // (delta mode 2 sends them on demand) is the Backups view's `loaded`.
  const backupsCollected =
    firstPollDone &&
    (collectedAt === undefined || (typeof collectedAt === 'number' && collectedAt > 0))
  const pending = store.getScalar('backupsPending')
  const backupsPending =
    Array.isArray(pending) && pending.length > 0 && pending.every((p) => typeof p === 'string')
      ? (pending as string[])
      : NONE
  return { firstPollDone, backupsCollected, backupsPending }
}
