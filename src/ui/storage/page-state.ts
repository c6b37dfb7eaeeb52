// Which screen the storage tab shows (spec 000 §4 page reading, §8 storage texts).
import type { StorageViewModel } from '../../shared/views/storage-types.ts'
import type { ConnectionState } from '../hooks/connection-context.ts'

export type StoragePageState =
  | { kind: 'loading'; reconnecting: boolean }
  | { kind: 'lost'; reconnecting: boolean }
  | { kind: 'content'; model: StorageViewModel }

/** Reads the connection and the view model into one page state. */
export function storagePageState(
  connection: ConnectionState,
  model: StorageViewModel | null,
): StoragePageState {
  switch (connection.status) {
    case 'disconnected':
      return { kind: 'lost', reconnecting: false }
    case 'reconnecting':
      return connection.hadData
        ? { kind: 'lost', reconnecting: true }
        : { kind: 'loading', reconnecting: true }
    case 'connecting':
      return { kind: 'loading', reconnecting: false }
    case 'connected':
      // Storage comes from the slower collectors, read with the backups: wait for their first read.
      if (!connection.initialDataReceived || !connection.backupsCollected || !model) {
        return { kind: 'loading', reconnecting: false }
      }
      return { kind: 'content', model }
  }
}
