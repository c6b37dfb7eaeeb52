import { useCallback, useEffect, useRef, useState } from 'react'
import { apiJson } from '../api/http.ts'
import { showToast } from '../components/toast-store.ts'
import { useWorker } from '../worker-context.ts'

/** Spec 001 §9: the acknowledge button is re-enabled this long after a click. */
export const ACK_BUTTON_HOLD_MS = 1_500

/**
 * The Acknowledge / Unacknowledge action (spec 001 §4 Alert, spec 000 §4 optimistic): the worker
 * shows the change at once, the server is told, and a failure reverts it. `busy` holds the ids
 * whose button reads 'Processing...'; it lives here, not in the row, so a row scrolled out of
 * the virtual window and back keeps its state.
 */
export function useAlertAck(): {
  busy: ReadonlySet<string>
  toggle: (alertId: string, acknowledged: boolean) => void
} {
  const api = useWorker()
  const [busy, setBusy] = useState<ReadonlySet<string>>(() => new Set())
  const timers = useRef(new Set<ReturnType<typeof setTimeout>>())

  useEffect(() => {
    const pending = timers.current
    return () => {
      for (const timer of pending) clearTimeout(timer)
    }
  }, [])

  const toggle = useCallback(
    (alertId: string, acknowledged: boolean) => {
      const want = !acknowledged
      setBusy((prev) => new Set(prev).add(alertId))
      const timer = setTimeout(() => {
        timers.current.delete(timer)
        setBusy((prev) => {
          const next = new Set(prev)
          next.delete(alertId)
          return next
        })
      }, ACK_BUTTON_HOLD_MS)
      timers.current.add(timer)
      void api.setAlertAck(alertId, want)
      const path = `/api/alerts/${encodeURIComponent(alertId)}/${want ? 'acknowledge' : 'unacknowledge'}`
      apiJson(path, want ? { method: 'POST', body: {} } : { method: 'POST' }).then(
        () => showToast(want ? 'Alert acknowledged' : 'Alert restored', 'success'),
        (error: unknown) => {
          console.warn(`POST ${path} failed`, error)
          void api.dropAlertAck(alertId)
          showToast(want ? 'Failed to acknowledge alert' : 'Failed to restore alert', 'error')
        },
      )
    },
    [api],
  )
  return { busy, toggle }
}
