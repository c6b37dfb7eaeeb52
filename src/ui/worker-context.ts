import { createContext, useContext } from 'react'
import type { WorkerPort } from './worker-port.ts'

/** The worker API for the tree: the real Comlink proxy, or a fake in component tests. */
export const WorkerContext = createContext<WorkerPort | null>(null)

/** The worker API; throws when rendered outside a WorkerContext provider. */
export function useWorker(): WorkerPort {
  const api = useContext(WorkerContext)
  if (!api) throw new Error('useWorker needs a WorkerContext provider')
  return api
}
