// The second line of a page's loading state: what the wait is for, following the connection
// (spec 000 §8 texts). Connected but still loading is the estate's first load, not the socket.
import type { ConnectionStatus } from '../../worker/api-types.ts'

/** 'Connecting to monitoring service', 'Reconnecting to monitoring service…' or 'Loading estate...'. */
export function loadingText(status: ConnectionStatus): string {
  if (status === 'reconnecting') return 'Reconnecting to monitoring service…'
  if (status === 'connected') return 'Loading estate...'
  return 'Connecting to monitoring service'
}
