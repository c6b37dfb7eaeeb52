// What keeps a wall screen right for days (issue 28 item 7). The worker already reconnects for
// ever (capped backoff, spec 000 §9); on top of that, while the wall view is on:
// - a server that now serves another build or reports another version (an upgrade, seen by
//   useServerChange) reloads the page, where any other page shows a banner instead;
// - once an hour it asks the server about the session: an HTTP request slides the session's
//   expiry (the socket's upgrade does not), so a signed-in wall stays signed in, and a session
//   that ended anyway (revoked, password changed) takes the wall to the sign-in screen.
// (A socket refused because the session ended takes any page to sign-in: useSessionEndWatch.)
import { useEffect } from 'react'
import { pageNavigation } from '../lib/navigation.ts'
import { reloadForEndedSession } from '../auth/useSessionEndWatch.ts'
import { sessionLost } from './build-check.ts'

/** How often a wall asks about its session (sessions slide by 7 days, refreshed hourly). */
export const WALL_SESSION_CHECK_MS = 3_600_000

/**
 * Reloads the wall when the server changed (`serverChanged`, from useServerChange) or the
 * session ended; `active`: the wall view is on.
 */
export function useWallWatch(active: boolean, serverChanged: boolean): void {
  useEffect(() => {
    if (active && serverChanged) pageNavigation.reload()
  }, [active, serverChanged])

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
