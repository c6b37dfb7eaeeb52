import { useCallback, useEffect, useRef, useState } from 'react'
import { HttpError } from '../../api/http.ts'
import { useLiveEvent } from '../../live/live-events.ts'
import { RETRY_MS } from './discovery.ts'
import { errorText, loadNodes, type NodeView } from './nodes-api.ts'

/** How often the list is re-read while a node is pending, and otherwise. */
export const PENDING_POLL_MS = 3_000
export const STATUS_POLL_MS = 30_000

/** Spec 001 §8: a 429 or a failed fetch (network, server error) is retried after 3 s. */
export function isRetryable(error: unknown): boolean {
  if (!(error instanceof HttpError)) return true
  return error.status === 429 || error.status >= 500
}

export interface NodeList {
  /** null until the first answer. */
  nodes: NodeView[] | null
  /** The last load's failure text; '' after a success. */
  error: string
  /** A retry is scheduled. */
  retrying: boolean
  reload: () => Promise<void>
  /** Puts a saved node into the list at once, before the reload answers. */
  upsert: (node: NodeView) => void
}

/**
 * The configured nodes (GET /api/config/nodes), loaded on mount and again whenever the socket
 * says the list changed (another browser, the setup script). Only the newest request's answer is
 * applied, so a slow poll cannot overwrite a fresher reload.
 */
export function useNodeList(): NodeList {
  const [nodes, setNodes] = useState<NodeView[] | null>(null)
  const [error, setError] = useState('')
  const [retrying, setRetrying] = useState(false)
  const latest = useRef(0)
  const retry = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  const alive = useRef(true)

  const reload = useCallback(async (): Promise<void> => {
    clearTimeout(retry.current)
    const seq = ++latest.current
    try {
      const list = await loadNodes()
      if (!alive.current || seq !== latest.current) return
      setNodes(list)
      setError('')
      setRetrying(false)
    } catch (err) {
      console.error('Failed to load nodes', err)
      if (!alive.current || seq !== latest.current) return
      setError(errorText(err, err instanceof Error ? err.message : 'Failed to load nodes'))
      const again = isRetryable(err)
      setRetrying(again)
      if (again) retry.current = setTimeout(() => void reload(), RETRY_MS)
    }
  }, [])

  useEffect(() => {
    alive.current = true
    void reload()
    return () => {
      alive.current = false
      clearTimeout(retry.current)
    }
  }, [reload])

  // Status comes from the poller: 'pending' until its first answer, so look again soon while any
  // node waits, and now and then otherwise (a node can go down while the tab is open).
  const loaded = nodes !== null
  const pending = nodes?.some((node) => node.status === 'pending') ?? false
  useEffect(() => {
    if (!loaded) return
    const timer = setInterval(() => void reload(), pending ? PENDING_POLL_MS : STATUS_POLL_MS)
    return () => clearInterval(timer)
  }, [loaded, pending, reload])

  // Spec 000 §7: nodes_changed, node_deleted and node_auto_registered all mean "read the list".
  // A deleted node leaves at once; the reload confirms.
  useLiveEvent(['nodes_changed', 'node_deleted', 'node_auto_registered'], (event) => {
    if (event.type === 'node_deleted' && event.data.id) {
      const gone = event.data.id
      setNodes((list) => list && list.filter((node) => node.id !== gone))
    }
    void reload()
  })

  const upsert = useCallback((node: NodeView) => {
    setNodes((list) => {
      const rest = (list ?? []).filter((item) => item.id !== node.id)
      const index = (list ?? []).findIndex((item) => item.id === node.id)
      if (index < 0) return [...rest, node]
      rest.splice(index, 0, node)
      return rest
    })
  }, [])

  return { nodes, error, retrying, reload, upsert }
}
