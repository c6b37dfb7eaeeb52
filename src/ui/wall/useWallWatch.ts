// What keeps a wall screen right for days (issue 28 item 7). The worker already reconnects for
// ever (capped backoff, spec 000 §9); on top of that, while the wall view is on:
// - after a reconnect, a server that now serves another build (an upgrade) reloads the page;
// - a server version that changes under a connected page reloads it too;
// (a socket refused because the session ended takes any page to sign-in: useSessionEndWatch);
// - once an hour it asks the server about the session: an HTTP request slides the session's
//   expiry (the socket's upgrade does not), so a signed-in wall stays signed in, and a session
//   that ended anyway (revoked, password changed) takes the wall to the sign-in screen.
import { useEffect, useRef } from 'react'
import { useConnection } from '../hooks/useConnection.ts'
import { pageNavigation } from '../lib/navigation.ts'
import { reloadForEndedSession } from '../auth/useSessionEndWatch.ts'
import { servesNewBuild, sessionLost } from './build-check.ts'

/** How often a wall asks about its session (sessions slide by 7 days, refreshed hourly). */
export const WALL_SESSION_CHECK_MS = 3_600_000

/** Reloads the wall when the server changed or the session ended; `active`: the wall view is on. */
export function useWallWatch(active: boolean): void {
  const { status, serverVersion } = useConnection()
  const connectedBefore = useRef(false)
  const firstVersion = useRef('')

  useEffect(() => {
    if (status !== 'connected') return
    const reconnected = connectedBefore.current
    connectedBefore.current = true
    if (!active || !reconnected) return
    let live = true
    void servesNewBuild().then((changed) => {
      if (live && changed) pageNavigation.reload()
    })
    return () => {
      live = false
    }
  }, [status, active])

  useEffect(() => {
    if (!serverVersion) return
    if (!firstVersion.current) firstVersion.current = serverVersion
    else if (active && serverVersion !== firstVersion.current) pageNavigation.reload()
  }, [serverVersion, active])

  useEffect(() => {
    if (!active) return
    let live = true
    const timer = setInterval(() => {
      void sessionLost().then((lost) => {
        if (live && lost) reloadForEndedSession()
      })
    }, WALL_SESSION_CHECK_MS)
    return () => {
      live = false
      clearInterval(timer)
    }
  }, [active])
}
