import { useEffect, useState } from 'react'

/** The server's version from GET /api/version, '' until known or when the call fails. */
export function useApiVersion(): string {
  const [version, setVersion] = useState('')
  useEffect(() => {
    let live = true
    fetch('/api/version')
      .then((res) => (res.ok ? (res.json() as Promise<{ version?: unknown }>) : null))
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

/** True when GET /api/health answers with `X-Demo-Mode: true`. */
export function useDemoMode(): boolean {
  const [demo, setDemo] = useState(false)
  useEffect(() => {
    let live = true
    fetch('/api/health')
      .then((res) => {
        if (live) setDemo(res.headers.get('X-Demo-Mode')?.toLowerCase() === 'true')
      })
      .catch(() => {
        // No banner when the health call fails.
      })
    return () => {
      live = false
    }
  }, [])
  return demo
}
