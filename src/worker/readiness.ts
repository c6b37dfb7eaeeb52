// Whether the state held is real data or the empty state a server serves before its first poll.
// Runs inside the worker. Imports only src/shared and src/worker.
import type { StateStore } from './store.ts'

/** What the connection snapshot says about the data behind the views. */
export interface DataReadiness {
  firstPollDone: boolean
  backupsCollected: boolean
}

/**
 * Reads the readiness markers of the state. A server of the reference family sends neither
 * marker: its first full state then counts as polled and collected, as it always did.
 */
export function readDataReadiness(store: StateStore, initialDataReceived: boolean): DataReadiness {
  if (!initialDataReceived) return { firstPollDone: false, backupsCollected: false }
  const lastUpdate = store.getScalar('lastUpdate')
  const firstPollDone = lastUpdate === undefined || store.getLastUpdate() > 0
  const collectedAt = store.getScalar('backupsCollectedAt')
  // The server's marker: storage and backups read once. Whether this client holds the backups
  // (delta mode 2 sends them on demand) is the Backups view's `loaded`.
  const backupsCollected =
    firstPollDone &&
    (collectedAt === undefined || (typeof collectedAt === 'number' && collectedAt > 0))
  return { firstPollDone, backupsCollected }
}
