import { useContext } from 'react'
import { ConnectionContext, type ConnectionState } from './connection-context.ts'

/** The live connection snapshot (from the worker's watchConnection) and whether data ever came. */
export function useConnection(): ConnectionState {
  return useContext(ConnectionContext)
}
