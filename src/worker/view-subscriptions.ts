// View subscriptions of one kind (node summary, storage, backups): one memoized view per
// subscription, recomputed on every data flush and pushed only when its result changed. Runs
// inside the worker. Imports only src/shared and src/worker.

/** A memoized view: equal inputs give the identical result object. */
export interface MemoView<Input, Request, Result> {
  compute(input: Input, request: Request): Result
}

/** The subscriptions of one kind in one worker API. Ids come from the API's shared counter. */
export interface ViewSubscriptions<Request, Model> {
  /** Add a subscription and push its first model at once. */
  add(id: number, request: Request, onModel: (model: Model) => void): void
  /** Change the request of a subscription and push at once; unknown ids are ignored. */
  update(id: number, request: Request): void
  /** Drop a subscription; false when the id is not one of these. */
  remove(id: number): boolean
  /** Recompute every subscription after a data change; unchanged results are not sent. */
  flush(): void
}

/**
 * Create subscriptions that compute `createView()` views over `readInput()`. `readInput` must
 * hand out arrays that keep their identity until their data changes (straight from the store),
 * which is what the views memoize on. `deliver` calls a subscriber's callback (the API passes its
 * own guarded call, so a closed page's rejected proxy never reaches the worker).
 */
export function createViewSubscriptions<Input, Request, Result extends object>(
  readInput: () => Input,
  createView: () => MemoView<Input, Request, Result>,
  deliver: (
    onModel: (model: Result & { version: number }) => void,
    model: Result & { version: number },
  ) => void,
): ViewSubscriptions<Request, Result & { version: number }> {
  interface Subscription {
    request: Request
    view: MemoView<Input, Request, Result>
    onModel: (model: Result & { version: number }) => void
    last: Result | null
  }
  const subs = new Map<number, Subscription>()
  let version = 0

  const push = (sub: Subscription, input: Input) => {
    const result = sub.view.compute(input, sub.request)
    // The view returns the same object when nothing it reads changed: nothing to send.
    if (result === sub.last) return
    sub.last = result
    deliver(sub.onModel, { ...result, version: ++version })
  }

  return {
    add(id, request, onModel) {
      const sub: Subscription = { request, view: createView(), onModel, last: null }
      subs.set(id, sub)
      push(sub, readInput())
    },
    update(id, request) {
      const sub = subs.get(id)
      if (!sub) return
      sub.request = request
      // Immediate, not batched: filter changes and scrolling must answer within the frame.
      push(sub, readInput())
    },
    remove: (id) => subs.delete(id),
    flush() {
      if (subs.size === 0) return
      const input = readInput()
      for (const sub of subs.values()) push(sub, input)
    },
  }
}
