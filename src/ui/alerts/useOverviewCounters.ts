import { useEffect, useRef, useState } from 'react'
import type { AlertConfig, AlertHistorySummary } from '../../shared/model/alerts.ts'
import { apiJson } from '../api/http.ts'

/** The 'Last 24 Hours' counter is refreshed at most this often (it costs a history query). */
export const SUMMARY_REFRESH_MS = 10_000

// Guest ids end in '-<vmid>' (spec 000 §3 guest identity key; Proxmox vmids are 100 and up).
const GUEST_ID = /-\d{3,9}$/

/**
 * Override keys that are guests. The config keys overrides by resource id only, so a key counts
 * as a guest's when it ends in a vmid and is not a PBS key (`pbs-<name>`): node ids end in the
 * node's name and storage ids in the storage's name.
 */
export function countGuestOverrides(overrides: Record<string, unknown> | undefined): number {
  let count = 0
  for (const key of Object.keys(overrides ?? {})) {
    if (!key.startsWith('pbs-') && GUEST_ID.test(key)) count++
  }
  return count
}

/**
 * The two counters the server answers (null until known): the alerts started in the last 24
 * hours, re-read when `activeKey` changes but at most once per SUMMARY_REFRESH_MS, and the guest
 * overrides of the saved config, read once.
 */
export function useOverviewCounters(activeKey: string | null): {
  last24h: number | null
  guestOverrides: number | null
} {
  const [last24h, setLast24h] = useState<number | null>(null)
  const [guestOverrides, setGuestOverrides] = useState<number | null>(null)
  const lastFetch = useRef(-Infinity)

  useEffect(() => {
    let live = true
    apiJson<AlertConfig>('/api/alerts/config').then(
      (config) => live && setGuestOverrides(countGuestOverrides(config?.overrides)),
      (error: unknown) => console.warn('GET /api/alerts/config failed', error),
    )
    return () => {
      live = false
    }
  }, [])

  // An answer is kept unless the page went away: a change of `activeKey` while a read is in
  // flight must not drop it (on a busy estate the key changes every poll, and nothing would land).
  const mounted = useRef(true)
  useEffect(() => {
    mounted.current = true
    return () => {
      mounted.current = false
    }
  }, [])

  useEffect(() => {
    if (activeKey === null) return
    const read = () => {
      lastFetch.current = Date.now()
      apiJson<AlertHistorySummary>('/api/alerts/history/summary').then(
        (summary) =>
          mounted.current && typeof summary?.last24h === 'number' && setLast24h(summary.last24h),
        (error: unknown) => console.warn('GET /api/alerts/history/summary failed', error),
      )
    }
    // Trailing: a change inside the window is read when the window ends, not dropped.
    const wait = lastFetch.current + SUMMARY_REFRESH_MS - Date.now()
    if (wait <= 0) {
      read()
      return
    }
    const timer = setTimeout(read, wait)
    return () => clearTimeout(timer)
  }, [activeKey])

  return { last24h, guestOverrides }
}
