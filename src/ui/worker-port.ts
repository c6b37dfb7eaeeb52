// The UI's view of the worker: the WorkerApi, with every call allowed to be async (Comlink makes
// it so; a test fake may answer synchronously).
import type { WorkerApi } from '../worker/api-types.ts'

type Awaitable<T> = T | Promise<T>

/** WorkerApi as seen across the Comlink boundary. */
export type WorkerPort = {
  [K in keyof WorkerApi]: (...args: Parameters<WorkerApi[K]>) => Awaitable<ReturnType<WorkerApi[K]>>
}
