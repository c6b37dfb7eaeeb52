import { useCallback, useEffect, useRef, useState } from 'react'
import { apiJson } from '../api/http.ts'
import { showToast } from '../components/toast-store.ts'
import { useWorker } from '../worker-context.ts'

/** Spec 001 §9: the acknowledge button is re-enabled this long after a click. */
export const ACK_BUTTON_HOLD_MS = 1_500

/**
 * A button's phase after a click: 'sending' reads 'Processing...' until the server answers
 * (milliseconds); 'held' shows the new state at once but stays disabled until ACK_BUTTON_HOLD_MS.
 */
export type AckPhase = 'sending' | 'held'

/**
 * The Acknowledge / Unacknowledge action (spec 001 §4 Alert, spec 000 §4 optimistic): the worker
 * shows the change at once, the server is told, and a failure reverts it. `busy` holds the phase
 * of each clicked button; it lives here, not in the row, so a row scrolled out of the virtual
 * window and back keeps its state.
 */
export function useAlertAck(): {
  busy: ReadonlyMap<string, AckPhase>
  toggle: (alertId: string, acknowledged: boolean) => void
} {
  const api = useWorker()
  const [busy, setBusy] = useState<ReadonlyMap<string, AckPhase>>(() => new Map())
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
      setBusy((prev) => new Map(prev).set(alertId, 'sending'))
      const timer = setTimeout(() => {
        timers.current.delete(timer)
        setBusy((prev) => {
          const next = new Map(prev)
          next.delete(alertId)
          return next
        })
      }, ACK_BUTTON_HOLD_MS)
      // The answer ends 'Processing...': the button shows the new state, still disabled.
      const answered = () =>
        setBusy((prev) =>
          prev.get(alertId) === 'sending' ? new Map(prev).set(alertId, 'held') : prev,
        )
      timers.current.add(timer)
      void api.setAlertAck(alertId, want)
      const path = `/api/alerts/${encodeURIComponent(alertId)}/${want ? 'acknowledge' : 'unacknowledge'}`
      apiJson(path, want ? { method: 'POST', body: {} } : { method: 'POST' }).then(
        () => {
          answered()
          showToast(want ? 'Alert acknowledged' : 'Alert restored', 'success')
        },
        (error: unknown) => {
          answered()
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
