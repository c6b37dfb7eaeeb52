import { useEffect, useState } from 'react'
import { apiFetch, apiJson } from '../api/http.ts'

/** The server's version from GET /api/version, '' until known or when the call fails. */
export function useApiVersion(): string {
  const [version, setVersion] = useState('')
  useEffect(() => {
    let live = true
    apiJson<{ version?: unknown }>('/api/version')
      .then((body) => {
        if (live && typeof body?.version === 'string') setVersion(body.version)
      })
      .catch(() => {
        // The footer just shows no version; the connection pill reports the outage.
      })
    return () => {
      live = false
    }
  }, [])
  return version
}

/**
 * True when GET /api/health answers with `X-Demo-Mode: true`; null until the answer (or the
 * failure, which counts as false) arrives, so banners that depend on it do not flash.
 */
export function useDemoMode(): boolean | null {
  const [demo, setDemo] = useState<boolean | null>(null)
  useEffect(() => {
    let live = true
    apiFetch('/api/health')
      .then((res) => {
        if (live) setDemo(res.headers.get('X-Demo-Mode')?.toLowerCase() === 'true')
      })
      .catch(() => {
        // No demo banner when the health call fails.
        if (live) setDemo(false)
      })
    return () => {
      live = false
    }
  }, [])
  return demo
}
