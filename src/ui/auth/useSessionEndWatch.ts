// A session ended elsewhere (Settings → Security → Sessions, an admin, a password reset, a user
// disabled) closes this page's socket, and its reconnects are refused from then on. Rather than
// show "Connection lost" for ever, once the socket has been refused SESSION_CHECK_AFTER times in
// a row the page asks the server; when it says the session is gone the page reloads onto the
// sign-in screen (the auth gate decides at start, spec 000 §8). Any other cause keeps retrying.
import { useEffect } from 'react'
import { useConnection } from '../hooks/useConnection.ts'
import { pageNavigation } from '../lib/navigation.ts'
import { sessionLost } from '../wall/build-check.ts'

/** sessionStorage flag: the sign-in screen says why it is shown (read once, then removed). */
export const SESSION_ENDED_KEY = 'pulse.sessionEnded'

/** True once after a reload for an ended session (the flag is removed as it is read). */
export function takeSessionEnded(): boolean {
  try {
    const ended = sessionStorage.getItem(SESSION_ENDED_KEY) === '1'
    sessionStorage.removeItem(SESSION_ENDED_KEY)
    return ended
  } catch {
    return false
  }
}

/** Reload onto the sign-in screen, which will say the session has ended. */
export function reloadForEndedSession(): void {
  try {
    sessionStorage.setItem(SESSION_ENDED_KEY, '1')
  } catch {
    // Storage refused (private mode): the sign-in screen just does not say why.
  }
  pageNavigation.reload()
}

/** Failed attempts in a row before the session is asked about (one per attempt after that). */
export const SESSION_CHECK_AFTER = 2

/** Reload onto the sign-in screen when the socket is refused because the session has ended. */
export function useSessionEndWatch(): void {
  const { status, attempt } = useConnection()
  const down = status !== 'connected'
  useEffect(() => {
    if (!down || attempt < SESSION_CHECK_AFTER) return
    let live = true
    void sessionLost().then((lost) => {
      if (live && lost) reloadForEndedSession()
    })
    return () => {
      live = false
    }
  }, [down, attempt])
}
