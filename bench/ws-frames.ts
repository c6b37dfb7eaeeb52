// A streaming reader of server-to-client WebSocket frames (RFC 6455) for load benches: it counts
// messages and bytes and keeps only the head and tail of each message, so it costs a few kB however
// large the frames are. Format-agnostic: a text message's `type` and `seq` are read when present,
// anything else (binary frames, unknown types) is counted as opaque.

/** One message as received: arrival time (performance.now()), size, and what could be read. */
export interface ReceivedMessage {
  at: number
  bytes: number
  binary: boolean
  type: string | null
  seq: number | null
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

export interface FrameReaderEvents {
  message(message: ReceivedMessage): void
  /** A control frame (0x8 close, 0x9 ping, 0xA pong) with its whole payload. */
  control?(opcode: number, payload: Buffer): void
}

/** Returns a function to feed with the bytes of the frame stream, in order. */
export function createFrameReader(events: FrameReaderEvents): (chunk: Buffer) => void {
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

  const endMessage = () => {
    let info: { type: string | null; seq: number | null } = { type: null, seq: null }
    if (!msgBinary) {
      const w = whole ? Buffer.concat(whole).toString('utf8') : null
      info = peekMessage(head.toString('utf8'), tail.toString('utf8'), w)
    }
    events.message({ at: performance.now(), bytes: msgBytes, binary: msgBinary, ...info })
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
    if (frameOpcode >= 0x8) events.control?.(frameOpcode, Buffer.concat(control))
    else if (frameFin) endMessage()
    control = []
  }

  return (chunk) => {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk])
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
      let length = pending[1]! & 0x7f
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
      // Server frames are never masked (RFC 6455 5.1).
      frameFin = (b0 & 0x80) !== 0
      frameOpcode = b0 & 0x0f
      if (frameOpcode === 0x1 || frameOpcode === 0x2) msgBinary = frameOpcode === 0x2
      pending = pending.subarray(offset)
      payloadLeft = length
      if (length === 0) endFrame()
    }
  }
}
