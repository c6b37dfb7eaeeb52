// Loading the alert config for a tab, and handing each new working copy to the worker's views.
import { useEffect } from 'react'
import { snapshot, useSnapshot } from 'valtio'
import type { AlertConfig } from '../../shared/model/alerts.ts'
import { useWorker } from '../worker-context.ts'
import { alertConfigState, ensureAlertConfig } from './config-store.ts'

/** Load the config once per page (the working copy is kept across tabs). */
export function useAlertConfigLoad(): { ready: boolean; loadError: string | null } {
  const { working, loadError } = useSnapshot(alertConfigState)
  useEffect(() => {
    void ensureAlertConfig()
  }, [])
  return { ready: working !== null, loadError }
}

/**
 * Send the working config to the worker whenever it changes (once per change, not per request:
 * the search box stays fast with thousands of overrides).
 */
export function useAlertConfigToWorker(): void {
  const api = useWorker()
  const { version } = useSnapshot(alertConfigState)
  useEffect(() => {
    const working = alertConfigState.working
    if (!working) return
    // A frozen snapshot: the worker (or structured clone) reads it, nothing writes it.
    void api.setAlertConfig(snapshot(working) as AlertConfig, version)
  }, [api, version])
}
