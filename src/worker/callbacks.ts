// Calling and releasing the UI's callbacks, which arrive as Comlink proxies (or plain functions
// in tests). Runs inside the worker. Imports only src/shared and src/worker.
import { releaseProxy } from 'comlink'

/** Where callback failures are reported. */
export type Warn = (message: string, error: unknown) => void

/**
 * Call `callback` with `value`. Comlink proxies return promises; a closed page rejects them, which
 * must not reach the worker: failures are warned about, never thrown.
 */
export function invokeCallback<T>(callback: (value: T) => void, value: T, warn: Warn): void {
  try {
    const result: unknown = callback(value)
    if (result instanceof Promise) {
      result.catch((error: unknown) => warn('[worker] callback failed', error))
    }
  } catch (error) {
    warn('[worker] callback failed', error)
  }
}

/**
 * Release the Comlink proxy of a callback, so the page closes its end of the port and can collect
 * the function. Plain functions have no release hook and are left alone; a proxy released twice
 * (or whose page is gone) is warned about, never thrown.
 */
export function releaseCallback(callback: unknown, warn: Warn): void {
  if (typeof callback !== 'function') return
  try {
    // Through `get`, not `in`: a Comlink proxy answers only its get trap.
    const release: unknown = Reflect.get(callback, releaseProxy)
    if (typeof release === 'function') release.call(callback)
  } catch (error) {
    warn('[worker] releasing a callback failed', error)
  }
}
