// A minimal WebSocket client for load benches: it counts messages and bytes and keeps only the
// head and tail of each message, so 1,000 of them in one process cost a few kB each however large
// the server's frames are (the `ws` client would buffer every message whole until its last
// fragment: 1,000 clients x a 30 MB first frame). Format-agnostic: a text message's `type` and
// `seq` are read when present, anything else (binary frames, unknown types) is counted as opaque.
import { randomBytes } from 'node:crypto'
import net from 'node:net'

/** One message as received: arrival time (performance.now()), size, and what could be read. */
export interface ReceivedMessage {
  at: number
  bytes: number
  binary: boolean
  type: string | null
  seq: number | null
}

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

const HEAD_BYTES = 512
const TAIL_BYTES = 96
/** Messages up to this size are parsed whole; larger ones are read from their head and tail. */
const PARSE_WHOLE_BYTES = 16 * 1024

/** Reads `type` and `seq` of a text message without parsing a large one. */
export function peekMessage(
  head: string,
  tail: string,
  whole: string | null,
): { type: string | null; seq: number | null } {
  if (whole !== null) {
    try {
      const msg = JSON.parse(whole) as { type?: unknown; seq?: unknown }
      return {
        type: typeof msg.type === 'string' ? msg.type : null,
        seq: typeof msg.seq === 'number' ? msg.seq : null,
      }
    } catch {
      return { type: null, seq: null }
    }
  }
  const type = /^\s*\{\s*"type"\s*:\s*"([^"]{1,64})"/.exec(head)?.[1] ?? null
  // The top-level seq is written last (`{"type":…,"data":…,"seq":N}`) or, in other layouts, first.
  const seqText =
    /"seq"\s*:\s*(\d+)\s*\}\s*$/.exec(tail)?.[1] ?? /^\s*\{[^{]*?"seq"\s*:\s*(\d+)/.exec(head)?.[1]
  return { type, seq: seqText === undefined ? null : Number(seqText) }
}

/** Masks a client frame (RFC 6455 requires every client frame to be masked). */
function clientFrame(opcode: number, payload: Buffer): Buffer {
  const mask = randomBytes(4)
  const masked = Buffer.alloc(payload.length)
  for (let i = 0; i < payload.length; i++) masked[i] = payload[i]! ^ mask[i & 3]!
  // Control frames and our small messages stay under 126 bytes.
  return Buffer.concat([Buffer.from([0x80 | opcode, 0x80 | payload.length]), mask, masked])
}

/** Connects to `ws://127.0.0.1:{port}{path}` and records every message. */
export function connectCountingClient(port: number, path: string): CountingClient {
  const socket = net.connect({ host: '127.0.0.1', port })
  const messages: ReceivedMessage[] = []
  let total = 0
  let handshake: Buffer | null = Buffer.alloc(0)
  let pending: Buffer = Buffer.alloc(0)
  // The frame being read.
  let payloadLeft = 0
  let frameOpcode = 0
  let frameFin = false
  let control: Buffer[] = []
  // The message being assembled (only its head and tail).
  let msgBinary = false
  let msgBytes = 0
  let head: Buffer = Buffer.alloc(0)
  let tail: Buffer = Buffer.alloc(0)
  let whole: Buffer[] | null = []
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

  const endMessage = () => {
    let info: { type: string | null; seq: number | null } = { type: null, seq: null }
    if (!msgBinary) {
      const w = whole ? Buffer.concat(whole).toString('utf8') : null
      info = peekMessage(head.toString('utf8'), tail.toString('utf8'), w)
    }
    messages.push({ at: performance.now(), bytes: msgBytes, binary: msgBinary, ...info })
    total += msgBytes
    msgBytes = 0
    head = Buffer.alloc(0)
    tail = Buffer.alloc(0)
    whole = []
  }

  const takePayload = (chunk: Buffer) => {
    if (frameOpcode >= 0x8) {
      control.push(chunk)
      return
    }
    msgBytes += chunk.length
    if (head.length < HEAD_BYTES)
      head = Buffer.concat([head, chunk.subarray(0, HEAD_BYTES - head.length)])
    tail = Buffer.concat([tail, chunk.subarray(-TAIL_BYTES)]).subarray(-TAIL_BYTES)
    if (whole) {
      if (msgBytes <= PARSE_WHOLE_BYTES) whole.push(chunk)
      else whole = null
    }
  }

  const endFrame = () => {
    if (frameOpcode === 0x9) socket.write(clientFrame(0xa, Buffer.concat(control)))
    else if (frameOpcode === 0x8) {
      const body = Buffer.concat(control)
      client.closed = {
        at: performance.now(),
        code: body.length >= 2 ? body.readUInt16BE(0) : 1005,
      }
      socket.end(clientFrame(0x8, body.subarray(0, 2)))
    } else if (frameOpcode < 0x8 && frameFin) endMessage()
    control = []
  }

  /** Parses as many frame headers and payload bytes as `pending` holds. */
  const readFrames = () => {
    for (;;) {
      if (payloadLeft > 0) {
        if (pending.length === 0) return
        const take = Math.min(payloadLeft, pending.length)
        takePayload(pending.subarray(0, take))
        pending = pending.subarray(take)
        payloadLeft -= take
        if (payloadLeft === 0) endFrame()
        continue
      }
      if (pending.length < 2) return
      const b0 = pending[0]!
      const b1 = pending[1]!
      let length = b1 & 0x7f
      let offset = 2
      if (length === 126) {
        if (pending.length < 4) return
        length = pending.readUInt16BE(2)
        offset = 4
      } else if (length === 127) {
        if (pending.length < 10) return
        length = Number(pending.readBigUInt64BE(2))
        offset = 10
      }
      // Server frames are never masked (RFC 6455 5.1); a masked one would be a protocol error.
      frameFin = (b0 & 0x80) !== 0
      const opcode = b0 & 0x0f
      if (opcode === 0x1 || opcode === 0x2) msgBinary = opcode === 0x2
      frameOpcode = opcode
      pending = pending.subarray(offset)
      payloadLeft = length
      if (length === 0) endFrame()
    }
  }

  socket.setNoDelay(true)
  socket.on('connect', () => {
    const key = randomBytes(16).toString('base64')
    socket.write(
      `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\n` +
        `Connection: Upgrade\r\nSec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
    )
  })
  socket.on('data', (chunk: Buffer) => {
    if (handshake) {
      handshake = Buffer.concat([handshake, chunk])
      const end = handshake.indexOf('\r\n\r\n')
      if (end < 0) return
      const status = handshake.subarray(0, handshake.indexOf('\r\n')).toString()
      if (!/^HTTP\/1\.1 101/.test(status)) {
        openReject(new Error(`upgrade refused: ${status}`))
        socket.destroy()
        return
      }
      pending = handshake.subarray(end + 4)
      handshake = null
      openResolve()
    } else {
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk])
    }
    readFrames()
  })
  socket.on('error', (err) => openReject(err))
  socket.on('close', () => {
    client.closed ??= { at: performance.now(), code: 1006 }
    openReject(new Error('closed before the upgrade'))
  })
  return client
}
