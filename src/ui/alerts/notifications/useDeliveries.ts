import { useCallback, useEffect, useRef, useState } from 'react'
import type { DeliveryRecord } from '../../../shared/model/notifications.ts'
import type { StatusFilter } from './delivery-labels.ts'
import { errorText, loadDeliveries } from './notifications-api.ts'

/** How often the log is re-read while the page is visible. */
export const DELIVERY_REFRESH_MS = 10_000

/** The newest deliveries shown. */
export const DELIVERY_LIMIT = 100

export interface Deliveries {
  /** null until the first answer. */
  records: DeliveryRecord[] | null
  total: number
  error: string
  loading: boolean
  refresh: () => void
}

/**
 * The delivery log (GET /deliveries?limit=100[&status]), re-read every 10 s while the page is
 * visible and at once when it becomes visible again. Only the newest request's answer is
 * applied, so a slow poll never overwrites a fresher filter.
 */
export function useDeliveries(status: StatusFilter): Deliveries {
  const [state, setState] = useState<Omit<Deliveries, 'refresh'>>({
    records: null,
    total: 0,
    error: '',
    loading: true,
  })
  const current = useRef<AbortController | null>(null)

  const refresh = useCallback(() => {
    current.current?.abort()
    const controller = new AbortController()
    current.current = controller
    setState((old) => ({ ...old, loading: true }))
    loadDeliveries(status, DELIVERY_LIMIT, controller.signal).then(
      (page) => {
        if (controller.signal.aborted) return
        setState({ records: page.records, total: page.total, error: '', loading: false })
      },
      (error: unknown) => {
        if (controller.signal.aborted) return
        setState((old) => ({
          ...old,
          error: errorText(error, 'Failed to load the delivery log'),
          loading: false,
        }))
      },
    )
  }, [status])

  useEffect(() => {
    refresh()
    let timer: ReturnType<typeof setInterval> | undefined
    const start = () => {
      clearInterval(timer)
      timer = setInterval(refresh, DELIVERY_REFRESH_MS)
    }
    const onVisibility = () => {
      if (document.visibilityState === 'visible') {
        refresh()
        start()
      } else clearInterval(timer)
    }
    if (document.visibilityState === 'visible') start()
    document.addEventListener('visibilitychange', onVisibility)
    return () => {
      clearInterval(timer)
      document.removeEventListener('visibilitychange', onVisibility)
      current.current?.abort()
    }
  }, [refresh])

  return { ...state, refresh }
}
