// The UI's view of the worker: the WorkerApi, with every call allowed to be async (Comlink makes
// it so; a test fake may answer synchronously). Boundary file: imports only the worker's API type.
import type { ViewKind, ViewModel, ViewRequest, WorkerApi } from '../worker/api-types.ts'

type Awaitable<T> = T | Promise<T>

/** WorkerApi as seen across the Comlink boundary; `subscribe` keeps its per-kind typing. */
export type WorkerPort = {
  [K in Exclude<keyof WorkerApi, 'subscribe'>]: (
    ...args: Parameters<WorkerApi[K]>
  ) => Awaitable<ReturnType<WorkerApi[K]>>
} & {
  subscribe<K extends ViewKind>(
    request: ViewRequest<K> & { kind: K },
    onModel: (model: ViewModel<K>) => void,
  ): Awaitable<number>
}
