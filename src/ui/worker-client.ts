// Starts the data worker. The only place the UI creates the worker; ConnectionProvider opens the
// live connection once the auth gate lets the app through.
import { wrap } from 'comlink'
import type { WorkerApi } from '../worker/api-types.ts'
import type { WorkerPort } from './worker-port.ts'

/** The /ws URL on the page's own host, ws:// or wss:// to match the page. */
export function socketUrl(location: Pick<Location, 'protocol' | 'host'>): string {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:'
  return `${scheme}//${location.host}/ws`
}

/** Creates the worker and wraps it with Comlink; it connects when ConnectionProvider mounts. */
export function createWorkerClient(): WorkerPort {
  const worker = new Worker(new URL('../worker/worker.ts', import.meta.url), { type: 'module' })
  return wrap<WorkerApi>(worker)
}
