// A minimal WebSocket client for load benches: 1,000 of them in one process cost a few kB each
// however large the server's frames are (the `ws` client would buffer every message whole until
// its last fragment: 1,000 clients x a 30 MB first frame). Messages are read by ws-frames.ts.
import { randomBytes } from 'node:crypto'
import net from 'node:net'
import { createFrameReader, type ReceivedMessage } from './ws-frames.ts'

export type { ReceivedMessage } from './ws-frames.ts'

export interface CountingClient {
  readonly messages: ReceivedMessage[]
  /** Resolves once the server accepted the upgrade (rejects on a refused handshake). */
  readonly opened: Promise<void>
  /** Set when the connection ended: the time and the close code (1006 when none was sent). */
  closed: { at: number; code: number } | null
  /** Stop reading from the socket (the kernel buffers fill, then the server's queue grows). */
  pause(): void
  resume(): void
  /** Bytes of every message received so far. */
  bytes(): number
  close(): void
}

/** Masks a client frame (RFC 6455 requires every client frame to be masked). */
function clientFrame(opcode: number, payload: Buffer): Buffer {
  const mask = randomBytes(4)
  const masked = Buffer.alloc(payload.length)
  for (let i = 0; i < payload.length; i++) masked[i] = payload[i]! ^ mask[i & 3]!
  // Control frames stay under 126 bytes.
  return Buffer.concat([Buffer.from([0x80 | opcode, 0x80 | payload.length]), mask, masked])
}

/** Connects to `ws://127.0.0.1:{port}{path}` and records every message. */
export function connectCountingClient(
  port: number,
  path: string,
  onMessage?: (message: ReceivedMessage) => void,
): CountingClient {
  const socket = net.connect({ host: '127.0.0.1', port })
  const messages: ReceivedMessage[] = []
  let total = 0
  let handshake: Buffer | null = Buffer.alloc(0)
  let openResolve!: () => void
  let openReject!: (err: Error) => void
  const opened = new Promise<void>((resolve, reject) => {
    openResolve = resolve
    openReject = reject
  })
  opened.catch(() => {})

  const client: CountingClient = {
    messages,
    opened,
    closed: null,
    pause: () => socket.pause(),
    resume: () => socket.resume(),
    bytes: () => total,
    close() {
      if (!socket.destroyed) socket.end(clientFrame(0x8, Buffer.from([0x03, 0xe8])))
      setTimeout(() => socket.destroy(), 1000).unref()
    },
  }

  const read = createFrameReader({
    message(m) {
      messages.push(m)
      total += m.bytes
      onMessage?.(m)
    },
    control(opcode, payload) {
      // Answer protocol pings, or the hub drops the client as dead.
      if (opcode === 0x9) socket.write(clientFrame(0xa, payload))
      else if (opcode === 0x8) {
        client.closed = {
          at: performance.now(),
          code: payload.length >= 2 ? payload.readUInt16BE(0) : 1005,
        }
        socket.end(clientFrame(0x8, payload.subarray(0, 2)))
      }
    },
  })

  socket.setNoDelay(true)
  socket.on('connect', () => {
    const key = randomBytes(16).toString('base64')
    socket.write(
      `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\n` +
        `Connection: Upgrade\r\nSec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
    )
  })
  socket.on('data', (chunk: Buffer) => {
    if (!handshake) return read(chunk)
    handshake = Buffer.concat([handshake, chunk])
    const end = handshake.indexOf('\r\n\r\n')
    if (end < 0) return
    const status = handshake.subarray(0, handshake.indexOf('\r\n')).toString()
    if (!/^HTTP\/1\.1 101/.test(status)) {
      openReject(new Error(`upgrade refused: ${status}`))
      socket.destroy()
      return
    }
    const rest = handshake.subarray(end + 4)
    handshake = null
    openResolve()
    if (rest.length > 0) read(rest)
  })
  socket.on('error', (err) => openReject(err))
  socket.on('close', () => {
    client.closed ??= { at: performance.now(), code: 1006 }
    openReject(new Error('closed before the upgrade'))
  })
  return client
}
