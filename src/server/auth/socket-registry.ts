// Open sockets by the credentials that opened them (issue 29 items 4 and 5), so that revoking a
// token, ending a session, or disabling, deleting or re-roling a local user closes the sockets
// those credentials hold at once. One registry per process that holds sockets: the single process,
// or each web node of a split deployment, which learns the collector's revocations over the bus
// (roles/web.ts); `onRevoke` listeners forward them there.
import type { WebSocket } from 'ws'
import type { RequestAuth } from './guard.ts'

/** The bus event (live stream, never sent to a browser) that carries a revocation to web nodes. */
export const REVOCATION_EVENT = 'pulse.auth.revoked'

/** Close code of a socket whose token was revoked (policy violation). */
export const TOKEN_REVOKED_CLOSE = 1008
/** Close code of a socket whose user or session changed: disabled, deleted, new role, ended. */
export const USER_CHANGED_CLOSE_CODE = 4001

/** The credentials a socket was let in with (what the guard found). */
export interface SocketOwner {
  /** The API token's id (token callers). */
  tokenId?: string | undefined
  /** A local user's name (password sessions and Basic): closed when the user changes. */
  localUser?: string | undefined
  /** The session's id digest (cookie callers, local or single sign-on). */
  sessionIdHash?: string | undefined
}

/** The credentials a caller the guard let in holds. */
export function socketOwner(auth: RequestAuth | null): SocketOwner {
  if (!auth) return {}
  const local =
    auth.method === 'basic' || (auth.method === 'session' && auth.sessionMethod === 'password')
  return {
    ...(auth.tokenId === undefined ? {} : { tokenId: auth.tokenId }),
    ...(local ? { localUser: auth.username } : {}),
    ...(auth.method === 'session' && auth.sessionIdHash !== undefined
      ? { sessionIdHash: auth.sessionIdHash }
      : {}),
  }
}

/** A socket owner from the bus (a web node's admission answer); {} for anything else. */
export function parseSocketOwner(value: unknown): SocketOwner {
  if (typeof value !== 'object' || value === null) return {}
  const r = value as Record<string, unknown>
  const owner: SocketOwner = {}
  if (typeof r.tokenId === 'string') owner.tokenId = r.tokenId
  if (typeof r.localUser === 'string') owner.localUser = r.localUser
  if (typeof r.sessionIdHash === 'string') owner.sessionIdHash = r.sessionIdHash
  return owner
}

/** What was revoked; `reason` becomes the close reason the browser sees. */
export type Revocation =
  | { kind: 'token'; tokenId: string; reason: string }
  /** Every token but these (a configuration import replaced the tokens). */
  | { kind: 'tokens-except'; keep: string[]; reason: string }
  | { kind: 'user'; username: string; reason: string }
  | { kind: 'session'; sessionIdHash: string; reason: string }
  /** Every session at once but `except` (credentials rotated, configuration imported). */
  | { kind: 'sessions'; except?: string; reason: string }

export interface SocketRegistry {
  /** Remember `socket`'s owner until it closes. */
  track(socket: WebSocket, owner: SocketOwner): void
  /** Close the sockets `revocation` covers and tell the listeners; returns how many closed here. */
  revoke(revocation: Revocation): number
  /** How many sockets each session holds here, by id digest. */
  sessionSockets(): ReadonlyMap<string, number>
  /** Hear every revocation (the collector forwards them to web nodes). */
  onRevoke(listener: (revocation: Revocation) => void): () => void
}

/** Parse a revocation from the bus; null for anything else. */
export function parseRevocation(value: unknown): Revocation | null {
  if (typeof value !== 'object' || value === null) return null
  const r = value as Record<string, unknown>
  const reason = typeof r.reason === 'string' ? r.reason.slice(0, 120) : 'Credentials revoked'
  const text = (key: string) => (typeof r[key] === 'string' && r[key] !== '' ? r[key] : null)
  switch (r.kind) {
    case 'token': {
      const tokenId = text('tokenId')
      return tokenId === null ? null : { kind: 'token', tokenId, reason }
    }
    case 'tokens-except': {
      const keep = Array.isArray(r.keep) ? r.keep.filter((id) => typeof id === 'string') : null
      return keep === null ? null : { kind: 'tokens-except', keep, reason }
    }
    case 'user': {
      const username = text('username')
      return username === null ? null : { kind: 'user', username, reason }
    }
    case 'session': {
      const sessionIdHash = text('sessionIdHash')
      return sessionIdHash === null ? null : { kind: 'session', sessionIdHash, reason }
    }
    case 'sessions': {
      const except = text('except')
      return except === null ? { kind: 'sessions', reason } : { kind: 'sessions', except, reason }
    }
    default:
      return null
  }
}

/** Create an empty registry. */
export function createSocketRegistry(): SocketRegistry {
  const byToken = new Map<string, Set<WebSocket>>()
  const byUser = new Map<string, Set<WebSocket>>()
  const bySession = new Map<string, Set<WebSocket>>()
  const listeners = new Set<(revocation: Revocation) => void>()
  const userKey = (username: string) => username.toLowerCase()

  const add = (index: Map<string, Set<WebSocket>>, key: string, socket: WebSocket) => {
    let open = index.get(key)
    if (!open) index.set(key, (open = new Set()))
    open.add(socket)
    socket.once('close', () => {
      const current = index.get(key)
      current?.delete(socket)
      if (current?.size === 0) index.delete(key)
    })
  }
  const closeAll = (sockets: Iterable<WebSocket>, code: number, reason: string) => {
    let closed = 0
    for (const socket of [...sockets]) {
      // One closed for another credential is on its way out already.
      if (socket.readyState !== socket.OPEN && socket.readyState !== socket.CONNECTING) continue
      socket.close(code, reason)
      closed++
    }
    return closed
  }
  const closeKey = (
    index: Map<string, Set<WebSocket>>,
    key: string,
    code: number,
    reason: string,
  ) => {
    const open = index.get(key)
    index.delete(key)
    return open ? closeAll(open, code, reason) : 0
  }

  return {
    track(socket, owner) {
      if (owner.tokenId !== undefined) add(byToken, owner.tokenId, socket)
      if (owner.localUser !== undefined) add(byUser, userKey(owner.localUser), socket)
      if (owner.sessionIdHash !== undefined) add(bySession, owner.sessionIdHash, socket)
    },
    revoke(revocation) {
      let closed = 0
      switch (revocation.kind) {
        case 'token':
          closed = closeKey(byToken, revocation.tokenId, TOKEN_REVOKED_CLOSE, revocation.reason)
          break
        case 'tokens-except': {
          const keep = new Set(revocation.keep)
          for (const id of [...byToken.keys()]) {
            if (!keep.has(id))
              closed += closeKey(byToken, id, TOKEN_REVOKED_CLOSE, revocation.reason)
          }
          break
        }
        case 'user':
          closed = closeKey(
            byUser,
            userKey(revocation.username),
            USER_CHANGED_CLOSE_CODE,
            revocation.reason,
          )
          break
        case 'session':
          closed = closeKey(
            bySession,
            revocation.sessionIdHash,
            USER_CHANGED_CLOSE_CODE,
            revocation.reason,
          )
          break
        case 'sessions':
          for (const hash of [...bySession.keys()]) {
            if (hash === revocation.except) continue
            closed += closeKey(bySession, hash, USER_CHANGED_CLOSE_CODE, revocation.reason)
          }
          break
      }
      for (const listener of listeners) listener(revocation)
      return closed
    },
    sessionSockets() {
      const counts = new Map<string, number>()
      for (const [hash, open] of bySession) counts.set(hash, open.size)
      return counts
    },
    onRevoke(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}
