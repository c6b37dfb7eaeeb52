// Opens the worker's event channel for the whole tree and handles the events that belong to no
// one screen: the theme another browser chose, and the auto-registration toast.
import { proxy } from 'comlink'
import { useEffect } from 'react'
import type { NodeType } from '../../shared/model/node-config.ts'
import { showToast } from '../components/toast-store.ts'
import type { WorkerPort } from '../worker-port.ts'
import { dispatchLiveEvent, onLiveEvent } from './live-events.ts'
import { followTheme, loadServerTheme } from './theme-sync.ts'

/** Spec 000 §8: the auto-registration toast lasts 8 s. */
export const AUTO_REGISTERED_TOAST_MS = 8_000

const PRODUCT: Record<NodeType, string> = { pve: 'Proxmox VE', pbs: 'Proxmox Backup Server' }

/** Spec 000 §8's auto-registration toast text. */
export function autoRegisteredMessage(type: NodeType, name: string): string {
  return `${PRODUCT[type]} node "${name}" was successfully auto-registered and is now being monitored!`
}

/** Subscribes to the worker's events while mounted (inside the auth gate: the socket is open). */
export function useLiveEventChannel(api: WorkerPort): void {
  useEffect(() => {
    const id = Promise.resolve(api.watchEvents(proxy(dispatchLiveEvent)))
    return () => {
      void id.then((watcher) => api.unsubscribe(watcher))
    }
  }, [api])

  useEffect(() => {
    void loadServerTheme()
    const stopTheme = onLiveEvent(['settingsUpdate'], (event) => followTheme(event.data.theme))
    const stopToast = onLiveEvent(['node_auto_registered'], ({ data }) =>
      showToast(autoRegisteredMessage(data.type, data.name), 'success', AUTO_REGISTERED_TOAST_MS),
    )
    return () => {
      stopTheme()
      stopToast()
    }
  }, [])
}
