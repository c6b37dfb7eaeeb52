import { proxy } from 'comlink'
import { useEffect, useState, type ReactNode } from 'react'
import type { ConnectionSnapshot } from '../../worker/api-types.ts'
import { useWorker } from '../worker-context.ts'
import {
  ConnectionContext,
  INITIAL_CONNECTION,
  type ConnectionState,
} from './connection-context.ts'

/** Watches the worker's connection once for the whole tree (one callback crosses the boundary). */
export function ConnectionProvider({ children }: { children: ReactNode }) {
  const api = useWorker()
  const [state, setState] = useState<ConnectionState>(INITIAL_CONNECTION)

  useEffect(() => {
    let live = true
    const onChange = (snapshot: ConnectionSnapshot) => {
      if (!live) return
      setState((prev) => ({
        ...snapshot,
        hadData: prev.hadData || snapshot.initialDataReceived,
      }))
    }
    const id = Promise.resolve(api.watchConnection(proxy(onChange)))
    return () => {
      live = false
      // Watchers and views share one id space in the worker, so `unsubscribe` ends either.
      void id.then((watcher) => api.unsubscribe(watcher))
    }
  }, [api])

  return <ConnectionContext.Provider value={state}>{children}</ConnectionContext.Provider>
}
