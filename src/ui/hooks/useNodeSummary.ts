import { proxy } from 'comlink'
import { useEffect, useRef, useState } from 'react'
import type { NodeSummaryModel, NodeSummaryRequest } from '../../shared/views/node-summary-types.ts'
import { useWorker } from '../worker-context.ts'

/**
 * Subscribes to a node summary in the worker and returns its latest model (null until the first).
 * A changed request (tab, sort) goes to the same subscription; models older than the one shown
 * are dropped.
 */
export function useNodeSummary(request: NodeSummaryRequest): NodeSummaryModel | null {
  const api = useWorker()
  const [model, setModel] = useState<NodeSummaryModel | null>(null)
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
    const onModel = (next: NodeSummaryModel) => {
      if (!live || next.version < version) return
      version = next.version
      setModel(next)
    }
    void Promise.resolve(api.subscribeNodeSummary(latest.current, proxy(onModel))).then((id) => {
      if (!live) {
        void api.unsubscribe(id)
        return
      }
      sub.id = id
      // The request may have changed while the subscription was on its way.
      const now = JSON.stringify(latest.current)
      if (now !== sub.sent) {
        sub.sent = now
        void api.updateNodeSummary(id, latest.current)
      }
    })
    return () => {
      live = false
      if (sub.id !== null) void api.unsubscribe(sub.id)
      subscription.current = null
    }
  }, [api])

  useEffect(() => {
    const sub = subscription.current
    // Before the id arrives, the subscribe callback sends whatever the latest request is.
    if (!sub || sub.id === null || sub.sent === key) return
    sub.sent = key
    void api.updateNodeSummary(sub.id, JSON.parse(key) as NodeSummaryRequest)
  }, [api, key])

  return model
}
