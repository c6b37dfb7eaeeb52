// A scripted stand-in for the browser WebSocket: Node has no browser socket to hand the worker's
// lifecycle, and the unit tier must drive open/close/messages deterministically. The real socket
// is exercised in tests/browser/worker against a real `ws` server.
import { vi } from 'vitest'
import type { SocketDeps, SocketLike } from '../../../src/worker/socket.ts'

export class FakeSocket implements SocketLike {
  readyState = 0
  onopen: SocketLike['onopen'] = null
  onclose: SocketLike['onclose'] = null
  onmessage: SocketLike['onmessage'] = null
  onerror: SocketLike['onerror'] = null
  sent: unknown[] = []
  closedWith: { code?: number; reason?: string } | null = null

  constructor(readonly url: string) {}

  send(data: string): void {
    this.sent.push(JSON.parse(data))
  }

  close(code?: number, reason?: string): void {
    this.closedWith = { code, reason }
    this.readyState = 3
  }

  /** Server side: accept the connection. */
  open(): void {
    this.readyState = 1
    this.onopen?.({})
  }

  /** Server side: send a frame (objects are serialised). */
  receive(frame: unknown): void {
    this.onmessage?.({ data: typeof frame === 'string' ? frame : JSON.stringify(frame) })
  }

  /** Server side: close the connection. */
  drop(code = 1006, reason = ''): void {
    this.readyState = 3
    this.onclose?.({ code, reason })
  }
}

/** Socket deps over vitest's fake timers; `sockets` lists every socket created. */
export function createFakeDeps(): {
  deps: SocketDeps
  sockets: FakeSocket[]
  warn: ReturnType<typeof vi.fn>
} {
  const sockets: FakeSocket[] = []
  const warn = vi.fn()
  const deps: SocketDeps = {
    createSocket: (url) => {
      const socket = new FakeSocket(url)
      sockets.push(socket)
      return socket
    },
    setTimeout: (run, ms) => setTimeout(run, ms),
    clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
    setInterval: (run, ms) => setInterval(run, ms),
    clearInterval: (handle) => clearInterval(handle as ReturnType<typeof setInterval>),
    now: () => Date.now(),
    warn,
  }
  return { deps, sockets, warn }
}
