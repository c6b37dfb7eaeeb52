// The view subscriptions of one worker API, of every kind: one memoized view per subscription,
// pushed at once on subscribe and update, recomputed on every data flush and pushed only when its
// result changed. Runs inside the worker. Imports only src/shared and src/worker.
import { AppError } from '../shared/model/errors.ts'
import type { ViewKind, ViewKinds, ViewModel, ViewRequest } from './api-types.ts'
import type { StateStore } from './store.ts'

/** A memoized view: equal inputs give the identical result object. */
export interface MemoView<Input, Request, Result> {
  compute(input: Input, request: Request): Result
}

/** What every view kind reads: the store and the clock. */
export interface ViewSources {
  store: StateStore
  /** Epoch ms (what 'Today' is for the backups view). */
  now: () => number
}

/** One subscription of some kind, with its request and model types closed over. */
export interface OpenView {
  /** Take a new request and push at once; false (nothing done) for a request of another kind. */
  update(request: ViewRequest): boolean
  /** Recompute after a data change; pushes only when the result changed. */
  refresh(): void
  /** Stop timers and requests of its own (kinds that fetch); it is never pushed again. */
  close?(): void
}

/** How a view kind opens a subscription: its first model is pushed before `open` returns. */
export interface ViewKindEntry<Request, Model> {
  open(
    sources: ViewSources,
    request: Request,
    push: (model: Model) => void,
    nextVersion: () => number,
  ): OpenView
}

/** One entry per view kind (see view-kinds.ts); the mapped type makes a missing kind an error. */
export type ViewRegistry = {
  readonly [K in ViewKind]: ViewKindEntry<ViewRequest<K>, ViewModel<K>>
}

/**
 * A view kind computing `createView()` views over `readInput(sources)`. `readInput` must hand out
 * arrays that keep their identity until their data changes (straight from the store), which is
 * what the views memoize on.
 */
export function defineViewKind<
  K extends ViewKind,
  Input,
  Request extends { kind: K },
  Result extends object,
>(
  kind: K,
  readInput: (sources: ViewSources) => Input,
  createView: () => MemoView<Input, Request, Result>,
): ViewKindEntry<Request, Result & { version: number }> {
  // The kinds are distinct, so a request of this kind is this kind's request type.
  const accepts = (request: { kind: string }): request is Request => request.kind === kind
  return {
    open(sources, first, push, nextVersion) {
      const view = createView()
      let request = first
      let last: Result | null = null
      const compute = () => {
        const result = view.compute(readInput(sources), request)
        // The view returns the same object when nothing it reads changed: nothing to send.
        if (result === last) return
        last = result
        push({ ...result, version: nextVersion() })
      }
      compute()
      return {
        update(next) {
          if (!accepts(next)) return false
          request = next
          compute()
          return true
        },
        refresh: compute,
      }
    },
  }
}

/** The subscriptions of one worker API. Ids come from the API's counter, shared with watchers. */
export interface ViewSubscriptions {
  /** Open a subscription and push its first model at once; throws for an unknown kind. */
  add<K extends ViewKind>(
    id: number,
    request: ViewRequest<K> & { kind: K },
    onModel: (model: ViewModel<K>) => void,
  ): void
  /** Change a subscription's request and push at once; unknown ids are ignored. */
  update(id: number, request: ViewRequest): void
  /** Drop a subscription; returns its callback, or undefined when the id is not a view's. */
  remove(id: number): unknown
  /** Recompute every subscription after a data change; unchanged results are not sent. */
  flush(): void
}

/**
 * Create the subscriptions over `registry`. `deliver` calls a subscriber's callback (the API
 * passes its own guarded call, so a closed page's rejected proxy never reaches the worker).
 */
export function createViewSubscriptions(
  registry: ViewRegistry,
  sources: ViewSources,
  deliver: <T>(onModel: (model: T) => void, model: T) => void,
): ViewSubscriptions {
  const subs = new Map<number, { view: OpenView; kind: ViewKind; onModel: unknown }>()
  let version = 0
  const nextVersion = () => ++version

  return {
    add<K extends ViewKind>(
      id: number,
      request: ViewRequest<K> & { kind: K },
      onModel: (model: ViewModel<K>) => void,
    ) {
      // A request from outside the types (another build of the UI, a typo in a test): refuse it.
      const kind: K = request.kind
      if (!isViewKind(registry, kind)) {
        throw new AppError('FIELD_INVALID', {
          field: 'kind',
          problem: `unknown view kind '${String(kind)}' (known: ${Object.keys(registry).join(', ')})`,
        })
      }
      const entry: ViewKindEntry<ViewRequest<K>, ViewModel<K>> = registry[kind]
      const view = entry.open(sources, request, (model) => deliver(onModel, model), nextVersion)
      subs.set(id, { view, kind, onModel })
    },
    update(id, request) {
      const sub = subs.get(id)
      if (!sub) return
      // Immediate, not batched: filter changes and scrolling must answer within the frame.
      if (!sub.view.update(request)) {
        throw new AppError('FIELD_INVALID', {
          field: 'kind',
          problem: `subscription ${id} is a '${sub.kind}' view, not '${String(request.kind)}'`,
        })
      }
    },
    remove(id) {
      const sub = subs.get(id)
      subs.delete(id)
      sub?.view.close?.()
      return sub?.onModel
    },
    flush() {
      for (const sub of subs.values()) sub.view.refresh()
    },
  }
}

function isViewKind(registry: ViewRegistry, kind: unknown): kind is keyof ViewKinds {
  return typeof kind === 'string' && Object.hasOwn(registry, kind)
}
