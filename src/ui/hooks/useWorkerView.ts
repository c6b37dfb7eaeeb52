import { proxy } from 'comlink'
import { useEffect, useRef, useState } from 'react'
import type { WorkerPort } from '../worker-port.ts'
import { useWorker } from '../worker-context.ts'

/** How one view kind is subscribed to and updated through the worker's API. */
export interface ViewChannel<Request, Model> {
  subscribe(
    api: WorkerPort,
    request: Request,
    onModel: (model: Model) => void,
  ): number | Promise<number>
  /** May return the call's promise: it settles once the worker has answered this request. */
  update(api: WorkerPort, id: number, request: Request): void | Promise<unknown>
}

/** A view's latest model and the request it answers. */
export interface WorkerViewState<Model> {
  model: Model | null
  /**
   * JSON of the latest request the worker has answered (null before the first): while it differs
   * from the request shown in the controls, the model on screen is the previous one.
   */
  answered: string | null
}

/**
 * Subscribes to a view in the worker and returns its latest model (null until the first). A
 * changed request goes to the same subscription; models with a version older than the one shown
 * are dropped. `channel` must be a module-level constant.
 */
export function useWorkerView<Request, Model extends { version: number }>(
  channel: ViewChannel<Request, Model>,
  request: Request,
): Model | null {
  return useWorkerViewState(channel, request).model
}

/**
 * useWorkerView, plus which request the model answers. The worker computes an update before it
 * returns, and its callback's message is posted before the return's: once the update's promise
 * settles, the model for that request (if it changed) has been received.
 */
export function useWorkerViewState<Request, Model extends { version: number }>(
  channel: ViewChannel<Request, Model>,
  request: Request,
): WorkerViewState<Model> {
  const api = useWorker()
  const [model, setModel] = useState<Model | null>(null)
  const [answered, setAnswered] = useState<string | null>(null)
  const latest = useRef(request)
  const subscription = useRef<{ id: number | null; sent: string } | null>(null)
  const key = JSON.stringify(request)

  useEffect(() => {
    latest.current = request
  })

  useEffect(() => {
    let live = true
    let version = -1
    const sub = { id: null as number | null, sent: JSON.stringify(latest.current) }
    subscription.current = sub
    const onModel = (next: Model) => {
      if (!live || next.version < version) return
      version = next.version
      setModel(next)
    }
    const first = sub.sent
    void Promise.resolve(channel.subscribe(api, latest.current, proxy(onModel))).then((id) => {
      if (!live) {
        void api.unsubscribe(id)
        return
      }
      sub.id = id
      setAnswered((current) => current ?? first)
      // The request may have changed while the subscription was on its way.
      const now = JSON.stringify(latest.current)
      if (now !== sub.sent) {
        sub.sent = now
        void Promise.resolve(channel.update(api, id, latest.current)).then(() => {
          if (live) setAnswered(now)
        })
      }
    })
    return () => {
      live = false
      if (sub.id !== null) void api.unsubscribe(sub.id)
      subscription.current = null
    }
  }, [api, channel])

  useEffect(() => {
    const sub = subscription.current
    // Before the id arrives, the subscribe callback sends whatever the latest request is.
    if (!sub || sub.id === null || sub.sent === key) return
    sub.sent = key
    // Updates settle in the order they were sent: the last one to settle is the latest request.
    void Promise.resolve(channel.update(api, sub.id, JSON.parse(key) as Request)).then(() => {
      if (subscription.current === sub) setAnswered(key)
    })
  }, [api, channel, key])

  return { model, answered }
}
