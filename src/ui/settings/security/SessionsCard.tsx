import { LogOut, MonitorSmartphone, RefreshCw } from 'lucide-react'
import { useCallback, useEffect, useState } from 'react'
import type { SessionView } from '../../../shared/model/sessions.ts'
import { BUTTON } from '../../components/button-classes.ts'
import { Card } from '../../components/Card.tsx'
import { useConnection } from '../../hooks/useConnection.ts'
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx'
import { showToast } from '../../components/toast-store.ts'
import { noteAuditedAction } from './audit-refresh.ts'
import { auditTime } from './AuditLogCard.tsx'
import { endOtherSessions, endSession, listSessions } from './sessions-api.ts'
import { LoadStatus, useLoaded } from './use-loaded.tsx'

/** The list is read again this often while the card is open (last seen moves by the minute). */
const RELOAD_MS = 60_000

const message = (error: unknown) => (error instanceof Error ? error.message : String(error))

type Ending = { kind: 'one'; session: SessionView } | { kind: 'others'; count: number } | null

/**
 * Sessions (issue 29 item 5): where the user is signed in, with browser, address, last seen and
 * whether it holds a live connection now; End signs one out at once (its open dashboard too),
 * "Sign out other sessions" all but this one. An admin may switch to everyone's sessions.
 */
export function SessionsCard({ admin }: { admin: boolean }) {
  const [everyone, setEveryone] = useState(false)
  const [ending, setEnding] = useState<Ending>(null)
  const fetchSessions = useCallback(() => listSessions(admin && everyone), [admin, everyone])
  const { load, reload } = useLoaded(fetchSessions)
  useEffect(() => {
    const timer = setInterval(reload, RELOAD_MS)
    return () => clearInterval(timer)
  }, [reload])

  const sessions = load.kind === 'loaded' ? load.value.sessions : []
  const others = sessions.filter((s) => !s.current && (!everyone || isOwn(s, sessions))).length

  const end = async () => {
    if (!ending) return
    try {
      if (ending.kind === 'one') {
        await endSession(ending.session.id)
        showToast(`Session on ${deviceName(ending.session)} ended`, 'success')
      } else {
        const count = await endOtherSessions()
        showToast(`${count} other session${count === 1 ? '' : 's'} signed out`, 'success')
      }
      noteAuditedAction()
      setEnding(null)
      reload()
    } catch (error) {
      showToast(message(error), 'error')
    }
  }

  return (
    <Card
      title="Sessions"
      icon={<MonitorSmartphone className="size-4" aria-hidden />}
      description={
        everyone
          ? 'Everyone signed in with a password or single sign-on. Ending a session signs that browser out at once.'
          : 'Where you are signed in. Ending a session signs that browser out at once, its open dashboard included.'
      }
      actions={
        <>
          {admin && (
            <div role="group" aria-label="Whose sessions" className="flex">
              {[false, true].map((all) => (
                <button
                  key={String(all)}
                  type="button"
                  aria-pressed={everyone === all}
                  onClick={() => setEveryone(all)}
                  className={`${BUTTON.secondary} ${all ? 'rounded-l-none' : 'rounded-r-none'} ${
                    everyone === all ? 'bg-gray-100 dark:bg-gray-800' : ''
                  }`}
                >
                  {all ? 'Everyone' : 'Mine'}
                </button>
              ))}
            </div>
          )}
          <button
            type="button"
            className={BUTTON.secondary}
            onClick={reload}
            aria-label="Refresh sessions"
          >
            <RefreshCw className="size-4" aria-hidden />
          </button>
          {others > 0 && (
            <button
              type="button"
              className={BUTTON.secondary}
              onClick={() => setEnding({ kind: 'others', count: others })}
            >
              <LogOut className="size-4" aria-hidden />
              Sign out other sessions
            </button>
          )}
        </>
      }
    >
      <LoadStatus load={load} what="sessions" />
      {load.kind === 'loaded' &&
        (sessions.length === 0 ? (
          <p className="text-sm text-gray-600 dark:text-gray-400">
            No sessions: signing in through a proxy or with an API token opens none.
          </p>
        ) : (
          <ul aria-label="Sessions" className="divide-y divide-gray-100 dark:divide-gray-800">
            {sessions.map((session) => (
              <SessionRow
                key={session.id}
                session={session}
                showUser={everyone}
                onEnd={() => setEnding({ kind: 'one', session })}
              />
            ))}
          </ul>
        ))}
      {load.kind === 'loaded' && load.value.truncated && (
        <p className="mt-2 text-xs text-gray-600 dark:text-gray-400">
          Only the {sessions.length} most recently seen are listed.
        </p>
      )}
      {ending && (
        <ConfirmDialog
          title={
            ending.kind === 'one'
              ? `End ${everyone ? `${ending.session.username}'s` : 'the'} session on ${deviceName(ending.session)}?`
              : `Sign out ${ending.count} other session${ending.count === 1 ? '' : 's'}?`
          }
          describedBy="end-session-text"
          confirmLabel={ending.kind === 'one' ? 'End session' : 'Sign out others'}
          busyLabel="Ending..."
          tone="danger"
          icon={<LogOut className="size-4" aria-hidden />}
          onConfirm={end}
          onClose={() => setEnding(null)}
        >
          <p id="end-session-text" className="text-sm text-gray-700 dark:text-gray-300">
            {ending.kind === 'one'
              ? `The browser${ending.session.address ? ` at ${ending.session.address}` : ''} is signed out at once and must sign in again.`
              : 'Every other browser where you are signed in is signed out at once. This one stays signed in.'}
          </p>
        </ConfirmDialog>
      )}
    </Card>
  )
}

/** In everyone's list, whether a session is the caller's (same user as the current one). */
function isOwn(session: SessionView, all: readonly SessionView[]): boolean {
  const me = all.find((s) => s.current)?.username.toLowerCase()
  return me !== undefined && session.username.toLowerCase() === me
}

function deviceName(session: SessionView): string {
  return session.device || 'an unknown browser'
}

function SessionRow({
  session,
  showUser,
  onEnd,
}: {
  session: SessionView
  showUser: boolean
  onEnd: () => void
}) {
  // This page's own connection counts at once (the list may have been read before it opened).
  const here = useConnection().status === 'connected'
  const connected = session.liveConnections > 0 || (session.current && here)
  return (
    <li
      data-session={session.id}
      data-current={session.current || undefined}
      className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2 text-sm"
    >
      {showUser && (
        <span className="font-medium text-gray-900 dark:text-gray-100">{session.username}</span>
      )}
      <span
        className="min-w-0 font-medium break-words text-gray-900 dark:text-gray-100"
        title={session.userAgent || undefined}
      >
        {session.device || 'Unknown browser'}
      </span>
      {session.current && (
        <span className="rounded bg-blue-100 px-1.5 py-0.5 text-xs text-blue-800 dark:bg-blue-950 dark:text-blue-200">
          This session
        </span>
      )}
      {session.method === 'oidc' && (
        <span className="rounded bg-gray-100 px-1.5 py-0.5 text-xs text-gray-700 dark:bg-gray-800 dark:text-gray-300">
          single sign-on
        </span>
      )}
      <span className="flex flex-wrap gap-x-3 text-xs text-gray-600 tabular-nums dark:text-gray-400">
        {session.address && <span>{session.address}</span>}
        <span>
          {connected ? (
            <span className="text-green-700 dark:text-green-400">Connected now</span>
          ) : (
            <>
              Last seen <time dateTime={session.lastSeenAt}>{auditTime(session.lastSeenAt)}</time>
            </>
          )}
        </span>
        <span>
          Signed in <time dateTime={session.createdAt}>{auditTime(session.createdAt)}</time>
        </span>
      </span>
      {!session.current && (
        <button
          type="button"
          onClick={onEnd}
          aria-label={`End ${showUser ? `${session.username}'s ` : ''}session on ${deviceName(session)}`}
          className={`${BUTTON.secondary} ml-auto`}
        >
          <LogOut className="size-4" aria-hidden />
          End
        </button>
      )}
    </li>
  )
}
