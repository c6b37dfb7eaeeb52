// The socket registry (issue 29 items 4 and 5): which sockets a revocation closes, with which
// code, and what a revocation read from the bus may be. Real `ws` sockets over loopback.
import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import WebSocket, { WebSocketServer } from 'ws'
import {
  createSocketRegistry,
  parseRevocation,
  parseSocketOwner,
  type SocketOwner,
} from '../../../../src/server/auth/socket-registry.ts'

let server: WebSocketServer | null = null
afterEach(async () => {
  server?.close()
  server = null
})

/** A registry with one server-side socket per owner; each entry's promise is its close code. */
async function tracked(owners: SocketOwner[]) {
  server = new WebSocketServer({ host: '127.0.0.1', port: 0 })
  await once(server, 'listening')
  const registry = createSocketRegistry()
  const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`
  const closes: Promise<number>[] = []
  for (const owner of owners) {
    const accepted = once(server, 'connection')
    const client = new WebSocket(url)
    closes.push(new Promise((resolve) => client.once('close', (code) => resolve(code))))
    const [socket] = (await accepted) as [WebSocket]
    registry.track(socket, owner)
  }
  return { registry, closes }
}

describe('the socket registry', () => {
  it('closes exactly the sockets a revocation covers, with their codes', async () => {
    const { registry, closes } = await tracked([
      { tokenId: 't1' },
      { tokenId: 't2' },
      { localUser: 'Alice', sessionIdHash: 'a1' },
      { localUser: 'bob', sessionIdHash: 'b1' },
      { sessionIdHash: 'o1' },
    ])
    const heard: string[] = []
    registry.onRevoke((r) => heard.push(r.kind))
    expect(registry.sessionSockets()).toEqual(
      new Map([
        ['a1', 1],
        ['b1', 1],
        ['o1', 1],
      ]),
    )
    expect(registry.revoke({ kind: 'tokens-except', keep: ['t2'], reason: 'gone' })).toBe(1)
    expect(await closes[0]).toBe(1008)
    expect(registry.revoke({ kind: 'user', username: 'alice', reason: 'Account disabled' })).toBe(1)
    expect(await closes[2]).toBe(4001)
    // Every session but b1's: only o1 is left open to close (a1 went with its user).
    expect(registry.revoke({ kind: 'sessions', except: 'b1', reason: 'imported' })).toBe(1)
    expect(await closes[4]).toBe(4001)
    expect(registry.revoke({ kind: 'token', tokenId: 't2', reason: 'API token revoked' })).toBe(1)
    expect(await closes[1]).toBe(1008)
    expect(registry.revoke({ kind: 'session', sessionIdHash: 'b1', reason: 'ended' })).toBe(1)
    expect(await closes[3]).toBe(4001)
    expect(registry.sessionSockets().size).toBe(0)
    expect(heard).toEqual(['tokens-except', 'user', 'sessions', 'token', 'session'])
  })
})

describe('revocations and owners from the bus', () => {
  it('reads the known kinds and refuses anything else', () => {
    expect(parseRevocation({ kind: 'token', tokenId: 'x', reason: 'r' })).toEqual({
      kind: 'token',
      tokenId: 'x',
      reason: 'r',
    })
    expect(parseRevocation({ kind: 'sessions' })).toEqual({
      kind: 'sessions',
      reason: 'Credentials revoked',
    })
    expect(parseRevocation({ kind: 'tokens-except', keep: ['a', 3], reason: 'r' })).toEqual({
      kind: 'tokens-except',
      keep: ['a'],
      reason: 'r',
    })
    for (const junk of [
      null,
      'token',
      {},
      { kind: 'token' },
      { kind: 'user', username: '' },
      {
        kind: 'everything',
      },
    ]) {
      expect(parseRevocation(junk)).toBeNull()
    }
    expect(
      parseRevocation({ kind: 'session', sessionIdHash: 'h', reason: 'x'.repeat(500) }),
    ).toMatchObject({ reason: 'x'.repeat(120) })
  })

  it('reads an owner, keeping only its string fields', () => {
    expect(parseSocketOwner({ tokenId: 't', localUser: 5, sessionIdHash: 'h', extra: 1 })).toEqual({
      tokenId: 't',
      sessionIdHash: 'h',
    })
    expect(parseSocketOwner(undefined)).toEqual({})
  })
})
