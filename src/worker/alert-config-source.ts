// The working alert config the UI hands the worker (WorkerApi.setAlertConfig), kept per store so
// the Thresholds views read it like any other input. Runs inside the worker. Imports only
// src/shared and src/worker.
import type { AlertConfig } from '../shared/model/alerts.ts'
import type { VersionedAlertConfig } from '../shared/views/alert-thresholds-types.ts'
import type { StateStore } from './store.ts'

const NONE: VersionedAlertConfig = Object.freeze({ config: null, version: 0 })
const configs = new WeakMap<StateStore, VersionedAlertConfig>()

/**
 * Hold `config` for the views of `store`. A new object each time: its identity is what the
 * views' memoization sees change. An older version than the one held is ignored.
 */
export function setAlertConfigSource(
  store: StateStore,
  config: AlertConfig,
  version: number,
): boolean {
  const held = configs.get(store)
  if (held && held.version > version) return false
  configs.set(store, { config, version })
  return true
}

/** The config held for `store`; `{ config: null, version: 0 }` before the UI sent one. */
export function readAlertConfigSource(store: StateStore): VersionedAlertConfig {
  return configs.get(store) ?? NONE
}
