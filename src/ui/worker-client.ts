// Starts the data worker and opens the live connection. The only place the UI creates the worker.
import { wrap } from 'comlink'
import type { WorkerApi } from '../worker/api-types.ts'
import type { WorkerPort } from './worker-port.ts'

/** The /ws URL on the page's own host, ws:// or wss:// to match the page. */
export function socketUrl(location: Pick<Location, 'protocol' | 'host'>): string {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:'
  return `${scheme}//${location.host}/ws`
}

/** Creates the worker, wraps it with Comlink and asks it to connect (delta mode). */
export function createWorkerClient(): WorkerPort {
  const worker = new Worker(new URL('../worker/worker.ts', import.meta.url), { type: 'module' })
  const api: WorkerPort = wrap<WorkerApi>(worker)
  void api.connect({ url: socketUrl(window.location), deltas: true })
  return api
}
