import { createContext } from 'react'
import type { ConnectionSnapshot } from '../../worker/api-types.ts'

/** The worker's connection snapshot plus what only the page knows: whether data ever arrived. */
export interface ConnectionState extends ConnectionSnapshot {
  /** Initial data was received at least once since the page loaded. */
  hadData: boolean
}

/** What the UI assumes before the worker's first snapshot arrives. */
export const INITIAL_CONNECTION: ConnectionState = {
  status: 'connecting',
  initialDataReceived: false,
  attempt: 0,
  lastUpdate: 0,
  firstPollDone: false,
  backupsCollected: false,
  backupsPending: [],
  nextRetryAt: null,
  nodeCount: 0,
  guestCount: 0,
  loading: false,
  guestsExpected: 0,
  serverVersion: '',
  hadData: false,
}

export const ConnectionContext = createContext<ConnectionState>(INITIAL_CONNECTION)
