import { useCallback, useEffect, useRef, useState } from 'react'
import { showToast } from '../../components/toast-store.ts'
import { useLiveEvent } from '../../live/live-events.ts'
import { DISCOVERY_REFRESH_MS } from './discovery.ts'
import { applyDiscoveryEvent } from './discovery-events.ts'
import {
  loadDiscovery,
  loadDiscoverySettings,
  setDiscoveryEnabled,
  startDiscovery,
  type DiscoverySettings,
  type DiscoveryStatus,
} from './nodes-api.ts'

/** Spec 001 §9: settings toasts last 2 s. */
const SHORT_TOAST_MS = 2_000

export interface Discovery {
  status: DiscoveryStatus | null
  settings: DiscoverySettings | null
  /** The toggle's request is running. */
  saving: boolean
  /** GET /api/discover now. */
  refresh: () => Promise<void>
  /** POST /api/discover; `source` picks the toast ('refresh': before, 'scan': after). */
  scan: (source: 'refresh' | 'scan' | 'quiet') => Promise<void>
  /** Turns discovery on or off; the switch goes back when the server refuses. */
  toggle: (enabled: boolean) => Promise<void>
}

/**
 * Discovery for a nodes tab (spec 001 §4 Discovery): the settings and the last results, kept
 * current by the socket's discovery events and refreshed every 30 s while shown.
 */
export function useDiscovery(): Discovery {
  const [status, setStatus] = useState<DiscoveryStatus | null>(null)
  const [settings, setSettings] = useState<DiscoverySettings | null>(null)
  const [saving, setSaving] = useState(false)
  const alive = useRef(true)
  const latest = useRef(0)

  const refresh = useCallback(async () => {
    const seq = ++latest.current
    try {
      const next = await loadDiscovery()
      if (alive.current && seq === latest.current) setStatus(next)
    } catch (error) {
      console.error('Failed to load discovery results', error)
    }
  }, [])

  useEffect(() => {
    alive.current = true
    void refresh()
    loadDiscoverySettings()
      .then((loaded) => alive.current && setSettings(loaded))
      .catch((error: unknown) => console.error('Failed to load discovery settings', error))
    return () => {
      alive.current = false
    }
  }, [refresh])

  useEffect(() => {
    const timer = setInterval(() => void refresh(), DISCOVERY_REFRESH_MS)
    return () => clearInterval(timer)
  }, [refresh])

  useLiveEvent(['discovery_started', 'discovery_update', 'discovery_complete'], (event) => {
    // Newer than any answer still on its way.
    latest.current++
    setStatus((prev) => applyDiscoveryEvent(prev, event))
  })

  const scan = useCallback(
    async (source: 'refresh' | 'scan' | 'quiet') => {
      if (source === 'refresh') showToast('Refreshing discovery...', 'info', SHORT_TOAST_MS)
      // Scanning shows at once; the answer (or the next poll) says what the server is doing.
      latest.current++
      setStatus((prev) =>
        prev ? { ...prev, scanning: true, lastScanStartedAt: Date.now() } : prev,
      )
      const before = latest.current
      try {
        const started = await startDiscovery(settings?.discoverySubnet ?? '')
        if (!alive.current) return
        // A short scan's events can overtake this answer (scanning: true): they are newer.
        if (started && latest.current === before) setStatus(started)
        latest.current++
        if (source === 'scan') showToast('Discovery scan started', 'success', SHORT_TOAST_MS)
      } catch (error) {
        showToast(
          error instanceof Error ? error.message : 'Failed to start discovery scan',
          'error',
        )
        if (alive.current) setStatus((prev) => (prev ? { ...prev, scanning: false } : prev))
      }
    },
    [settings],
  )

  const toggle = useCallback(
    async (enabled: boolean) => {
      const previous = settings
      setSaving(true)
      setSettings((prev) => ({
        discoverySubnet: prev?.discoverySubnet ?? '',
        enabledOverridden: prev?.enabledOverridden ?? false,
        discoveryEnabled: enabled,
      }))
      try {
        const saved = await setDiscoveryEnabled(enabled)
        if (!alive.current) return
        setSettings((prev) => saved ?? { ...prev!, discoveryEnabled: enabled })
      } catch (error) {
        if (alive.current) setSettings(previous)
        showToast(
          error instanceof Error ? error.message : 'Failed to update discovery setting',
          'error',
        )
        return
      } finally {
        if (alive.current) setSaving(false)
      }
      if (enabled) {
        showToast('Discovery enabled — scanning network...', 'success', SHORT_TOAST_MS)
        await scan('quiet')
      } else {
        showToast('Discovery disabled', 'info', SHORT_TOAST_MS)
        setStatus((prev) => (prev ? { ...prev, scanning: false } : prev))
      }
    },
    [settings, scan],
  )

  return { status, settings, saving, refresh, scan, toggle }
}
