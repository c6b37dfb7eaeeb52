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
  update(api: WorkerPort, id: number, request: Request): void
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
  const api = useWorker()
  const [model, setModel] = useState<Model | null>(null)
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
    void Promise.resolve(channel.subscribe(api, latest.current, proxy(onModel))).then((id) => {
      if (!live) {
        void api.unsubscribe(id)
        return
      }
      sub.id = id
      // The request may have changed while the subscription was on its way.
      const now = JSON.stringify(latest.current)
      if (now !== sub.sent) {
        sub.sent = now
        channel.update(api, id, latest.current)
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
    channel.update(api, sub.id, JSON.parse(key) as Request)
  }, [api, channel, key])

  return model
}
