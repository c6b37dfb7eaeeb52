// Which screen the dashboard shows (spec 000 §2.2 page states, §4 page reading, §8 texts).
import type { GuestViewModel } from '../../shared/views/guest-view-types.ts'
import type { ConnectionState } from '../hooks/connection-context.ts'

export type DashboardPageState =
  | { kind: 'loading'; reconnecting: boolean }
  | { kind: 'lost'; reconnecting: boolean }
  | { kind: 'no-nodes' }
  | { kind: 'no-guests'; search: string }
  | { kind: 'content' }

/** Reads the connection and the view model into one page state. */
export function dashboardPageState(
  connection: ConnectionState,
  model: GuestViewModel | null,
  search: string,
): DashboardPageState {
  switch (connection.status) {
    case 'disconnected':
      return { kind: 'lost', reconnecting: false }
    case 'reconnecting':
      // Data that was on screen is gone: say so. Before any data, it is still loading.
      return connection.hadData
        ? { kind: 'lost', reconnecting: true }
        : { kind: 'loading', reconnecting: true }
    case 'connecting':
      return { kind: 'loading', reconnecting: false }
    case 'connected':
      // The server serves an empty state before its first poll: that is loading, not empty.
      if (!connection.initialDataReceived || !connection.firstPollDone) {
        return { kind: 'loading', reconnecting: false }
      }
      if (connection.nodeCount === 0) return { kind: 'no-nodes' }
      if (!model) return { kind: 'loading', reconnecting: false }
      if (model.totals.matched === 0) {
        // Guests still arriving: the ones that match may be in the next chunk.
        if (connection.loading) return { kind: 'loading', reconnecting: false }
        return { kind: 'no-guests', search: search.trim() }
      }
      return { kind: 'content' }
  }
}
