// The sessions card's calls (issue 29 item 5): the caller's own sessions or, for an admin,
// everyone's; end one; end all of the caller's others. Each throws an Error with the server's text.
import type { SessionsAnswer } from '../../../shared/model/sessions.ts'
import { apiJson } from '../../api/http.ts'

/** The server's text (HttpError's message), else `fallback`. */
function failure(error: unknown, fallback: string): Error {
  return new Error(error instanceof Error && error.message ? error.message : fallback)
}

/** GET /api/security/sessions (own) or /all (everyone's), most recently seen first. */
export async function listSessions(everyone: boolean): Promise<SessionsAnswer> {
  try {
    const answer = await apiJson<Partial<SessionsAnswer>>(
      everyone ? '/api/security/sessions/all' : '/api/security/sessions',
    )
    return {
      sessions: Array.isArray(answer?.sessions) ? answer.sessions : [],
      truncated: answer?.truncated === true,
    }
  } catch (error) {
    throw failure(error, 'Failed to load the sessions')
  }
}

/** DELETE /api/security/sessions/{id}: that browser is signed out at once. */
export async function endSession(id: string): Promise<void> {
  try {
    await apiJson(`/api/security/sessions/${encodeURIComponent(id)}`, { method: 'DELETE' })
  } catch (error) {
    throw failure(error, 'Failed to end the session')
  }
}

/** DELETE /api/security/sessions: every session of the caller but this one; how many ended. */
export async function endOtherSessions(): Promise<number> {
  try {
    const answer = await apiJson<{ ended?: number }>('/api/security/sessions', {
      method: 'DELETE',
    })
    return typeof answer?.ended === 'number' ? answer.ended : 0
  } catch (error) {
    throw failure(error, 'Failed to sign out the other sessions')
  }
}
