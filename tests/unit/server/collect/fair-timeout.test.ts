import net from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { fairTimeout } from '../../../../src/server/collect/fair-timeout.ts'
import { blockLoop } from './block-loop.ts'

/** A fair timeout whose expiry is recorded in `events` and awaitable. */
function recorded(ms: number, events: string[]): Promise<void> {
  return new Promise<void>((resolve) =>
    fairTimeout(() => {
      events.push('expired')
      resolve()
    }, ms),
  )
}

const cleanups: (() => void)[] = []
afterEach(() => cleanups.splice(0).forEach((f) => f()))

describe('fairTimeout', () => {
  it('expires when the loop was free', async () => {
    const events: string[] = []
    await recorded(30, events)
    expect(events).toEqual(['expired'])
  })

  it('lets the loop read an answer that arrived while it was blocked before expiring', async () => {
    const events: string[] = []
    // A peer on loopback answers at once; right after it has written, this process is busy for
    // longer than the deadline, so the answer waits in the socket when the deadline is due.
    const server = net.createServer((socket) => {
      socket.end('answer')
      setImmediate(() => blockLoop(400))
    })
    cleanups.push(() => server.close())
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as net.AddressInfo
    const expired = recorded(100, events)
    const client = net.connect(port, '127.0.0.1')
    cleanups.push(() => client.destroy())
    client.on('data', () => events.push('answer read'))
    await expired
    // A plain setTimeout expires first: the loop runs due timers before it reads sockets.
    expect(events).toEqual(['answer read', 'expired'])
  })

  it('stretches a deadline at most by its own length, however often the loop blocks', async () => {
    const events: string[] = []
    const expired = recorded(20, events)
    // Late by about 100 ms at every turn: an unbounded extension would never expire.
    const busy = setInterval(() => blockLoop(100), 1)
    cleanups.push(() => clearInterval(busy))
    await expired
    expect(events).toEqual(['expired'])
  })
})
