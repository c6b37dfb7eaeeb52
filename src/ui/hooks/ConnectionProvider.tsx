import { proxy } from 'comlink'
import { useEffect, useState, type ReactNode } from 'react'
import type { ConnectionSnapshot } from '../../worker/api-types.ts'
import { showToast } from '../components/toast-store.ts'
import { useLiveEventChannel } from '../live/useLiveEventChannel.ts'
import { socketUrl } from '../worker-client.ts'
import { useWorker } from '../worker-context.ts'
import {
  ConnectionContext,
  INITIAL_CONNECTION,
  type ConnectionState,
} from './connection-context.ts'

/** Spec 000 §8: a pending alert ack the server did not confirm within 15 s (error toast, 10 s). */
export const ACK_TIMEOUT_MESSAGE =
  'Server did not confirm the alert acknowledgment in time. Re-syncing from latest data.'

/**
 * Opens the worker's live socket (delta mode) while mounted and watches the connection once for
 * the whole tree (one callback crosses the boundary). It mounts inside the auth gate, so the
 * /ws upgrade carries the session cookie; unmounting (logout) closes the socket.
 */
export function ConnectionProvider({ children }: { children: ReactNode }) {
  const api = useWorker()
  const [state, setState] = useState<ConnectionState>(INITIAL_CONNECTION)

  useEffect(() => {
    void api.connect({ url: socketUrl(window.location), deltas: true })
    return () => {
      void api.disconnect()
    }
  }, [api])

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

  useEffect(() => {
    // Here, not on the Alerts page: an ack may time out after the user moved to another tab.
    const onTimeout = () => showToast(ACK_TIMEOUT_MESSAGE, 'error')
    const id = Promise.resolve(api.watchAlertAckTimeouts(proxy(onTimeout)))
    return () => {
      void id.then((watcher) => api.unsubscribe(watcher))
    }
  }, [api])

  useLiveEventChannel(api)

  return <ConnectionContext.Provider value={state}>{children}</ConnectionContext.Provider>
}
