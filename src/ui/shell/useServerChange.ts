// Has the server changed under this page? After each reconnect the page asks which build the
// server serves now (build-check.ts), and the version the socket reports is compared with the
// first one seen. Sticky: once true it stays true until the page reloads. The wall view reloads
// itself on it (useWallWatch); any other page shows a banner with Reload (NewBuildBanner), so
// nobody loses what they were typing to a reload they did not ask for.
import { useEffect, useRef, useState } from 'react'
import { useConnection } from '../hooks/useConnection.ts'
import { servesNewBuild } from '../wall/build-check.ts'

/** True once the server serves another build or reports another version than at the start. */
export function useServerChange(): boolean {
  const { status, serverVersion } = useConnection()
  const connectedBefore = useRef(false)
  const firstVersion = useRef('')
  const [changed, setChanged] = useState(false)

  useEffect(() => {
    if (status !== 'connected') return
    const reconnected = connectedBefore.current
    connectedBefore.current = true
    if (!reconnected || changed) return
    let live = true
    void servesNewBuild().then((yes) => {
      if (live && yes) setChanged(true)
    })
    return () => {
      live = false
    }
  }, [status, changed])

  useEffect(() => {
    if (!serverVersion) return
    if (!firstVersion.current) firstVersion.current = serverVersion
    else if (serverVersion !== firstVersion.current) setChanged(true)
  }, [serverVersion])

  return changed
}
