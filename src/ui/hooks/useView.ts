import { proxy } from 'comlink'
import { useEffect, useRef, useState } from 'react'
import type { ViewKind, ViewModel, ViewRequest } from '../../worker/api-types.ts'
import { useWorker } from '../worker-context.ts'

/** A view's latest model and the request it answers. */
export interface ViewState<Model> {
  model: Model | null
  /**
   * JSON of the latest request the worker has answered (null before the first): while it differs
   * from the request shown in the controls, the model on screen is the previous one.
   */
  answered: string | null
}

/**
 * The view of `request` (any kind: guests, node summary, storage, backups), live from the worker;
 * null until the first model. A changed request goes to the same subscription; models older than
 * the one shown are dropped; unmounting (or a request of another kind) unsubscribes, which
 * releases the callback's proxy in the worker.
 */
export function useView<K extends ViewKind>(
  request: ViewRequest<K> & { kind: K },
): ViewModel<K> | null {
  return useViewState<K>(request).model
}

/**
 * useView, plus which request the model answers. The worker computes an update before it
 * returns, and its callback's message is posted before the return's: once the update's promise
 * settles, the model for that request (if it changed) has been received.
 */
export function useViewState<K extends ViewKind>(
  request: ViewRequest<K> & { kind: K },
): ViewState<ViewModel<K>> {
  const api = useWorker()
  const [model, setModel] = useState<ViewModel<K> | null>(null)
  const [answered, setAnswered] = useState<string | null>(null)
  const latest = useRef(request)
  const subscription = useRef<{ id: number | null; sent: string } | null>(null)
  const key = JSON.stringify(request)
  const kind: K = request.kind

  useEffect(() => {
    latest.current = request
  })

  useEffect(() => {
    let live = true
    let version = -1
    const sub = { id: null as number | null, sent: JSON.stringify(latest.current) }
    subscription.current = sub
    const onModel = (next: ViewModel<K>) => {
      if (!live || next.version < version) return
      version = next.version
      setModel(next)
    }
    const first = sub.sent
    void Promise.resolve(api.subscribe(latest.current, proxy(onModel))).then((id) => {
      if (!live) {
        void api.unsubscribe(id)
        return
      }
      sub.id = id
      setAnswered(first)
      // The request may have changed while the subscription was on its way.
      const now = JSON.stringify(latest.current)
      if (now !== sub.sent) {
        sub.sent = now
        void Promise.resolve(api.update(id, latest.current)).then(() => {
          if (live) setAnswered(now)
        })
      }
    })
    return () => {
      live = false
      if (sub.id !== null) void api.unsubscribe(sub.id)
      subscription.current = null
    }
    // A request of another kind is another subscription, not an update.
  }, [api, kind])

  useEffect(() => {
    const sub = subscription.current
    // Before the id arrives, the subscribe callback sends whatever the latest request is.
    if (!sub || sub.id === null || sub.sent === key) return
    sub.sent = key
    // Updates settle in the order they were sent: the last one to settle is the latest request.
    void Promise.resolve(api.update(sub.id, latest.current)).then(() => {
      if (subscription.current === sub) setAnswered(key)
    })
  }, [api, key])

  // Until the new kind's first model arrives, the previous kind's is not this view's.
  return { model: model?.kind === kind ? model : null, answered }
}
