// Splitting payloads larger than the NATS server's max_payload into numbered chunks, and joining
// them again. Used both for the JetStream live stream and for request/reply: a 100,000-guest
// snapshot is tens of MB, the default max_payload 1 MiB.
import { headers as createHeaders, nuid, type MsgHdrs } from '@nats-io/transport-node'

/** The message a chunk belongs to (unique per message). */
export const ID_HEADER = 'Pulse-Id'
/** "i/n": this is part i (1-based) of n. */
export const PART_HEADER = 'Pulse-Part'

/** Room left for headers (ids, parts, live metadata) inside max_payload. */
const HEADER_ROOM = 1024

/** The largest body one chunk may carry under the server's `maxPayload`. */
export function chunkSize(maxPayload: number): number {
  return maxPayload > 4 * HEADER_ROOM ? maxPayload - HEADER_ROOM : Math.floor(maxPayload / 2)
}

export interface Chunk {
  headers: MsgHdrs
  data: Uint8Array
}

/**
 * Split `payload` into chunks of at most `size` bytes, each carrying the message id, its part
 * number and `extra` headers. An empty payload is one empty chunk. Chunks are views, not copies.
 */
export function splitChunks(
  payload: Uint8Array,
  size: number,
  extra: Record<string, string> = {},
): Chunk[] {
  const id = nuid.next()
  const count = Math.max(1, Math.ceil(payload.length / size))
  const out: Chunk[] = []
  for (let i = 0; i < count; i++) {
    const headers = createHeaders()
    headers.set(ID_HEADER, id)
    headers.set(PART_HEADER, `${i + 1}/${count}`)
    for (const [key, value] of Object.entries(extra)) headers.set(key, value)
    out.push({
      headers,
      data: payload.subarray(i * size, Math.min(payload.length, (i + 1) * size)),
    })
  }
  return out
}

/**
 * splitChunks over the concatenation of `pieces`, without building it: each chunk is copied
 * together when it is taken, so a caller can send one per turn of the event loop.
 */
export function* splitPieces(
  pieces: readonly Uint8Array[],
  size: number,
): Generator<Chunk, void, void> {
  const total = pieces.reduce((sum, piece) => sum + piece.length, 0)
  const id = nuid.next()
  const count = Math.max(1, Math.ceil(total / size))
  let piece = 0
  let offset = 0
  for (let i = 0; i < count; i++) {
    const data = new Uint8Array(Math.min(size, total - i * size))
    let filled = 0
    while (filled < data.length) {
      const from = pieces[piece]!
      const take = Math.min(from.length - offset, data.length - filled)
      data.set(from.subarray(offset, offset + take), filled)
      filled += take
      offset += take
      if (offset === from.length) {
        piece++
        offset = 0
      }
    }
    const headers = createHeaders()
    headers.set(ID_HEADER, id)
    headers.set(PART_HEADER, `${i + 1}/${count}`)
    yield { headers, data }
  }
}

export interface ChunkPart {
  id: string
  index: number
  count: number
}

/** The id and part of a chunk, or null when the message was not sent by splitChunks. */
export function readPart(headers: MsgHdrs | undefined): ChunkPart | null {
  const id = headers?.get(ID_HEADER)
  const match = /^(\d+)\/(\d+)$/.exec(headers?.get(PART_HEADER) ?? '')
  if (!id || !match) return null
  const index = Number(match[1])
  const count = Number(match[2])
  if (index < 1 || index > count) return null
  return { id, index, count }
}

/**
 * Joins the chunks of one message at a time, arriving in order. A chunk that does not continue
 * the message being joined (a lost or discarded chunk, a stream read that starts mid-message)
 * drops the partial message; a new part 1 starts over. Never joins the wrong parts together.
 */
export class ChunkJoiner {
  private id = ''
  private next = 0
  private parts: Uint8Array[] = []
  private size = 0

  /** Feed one chunk; returns the whole payload when this chunk completes a message. */
  add(part: ChunkPart, data: Uint8Array): Uint8Array | null {
    if (part.index === 1) {
      this.id = part.id
      this.parts = []
      this.size = 0
    } else if (part.id !== this.id || part.index !== this.next) {
      this.reset()
      return null
    }
    if (part.count === 1) {
      this.reset()
      return data
    }
    this.parts.push(data)
    this.size += data.length
    this.next = part.index + 1
    if (part.index < part.count) return null
    const whole = new Uint8Array(this.size)
    let offset = 0
    for (const piece of this.parts) {
      whole.set(piece, offset)
      offset += piece.length
    }
    this.reset()
    return whole
  }

  private reset(): void {
    this.id = ''
    this.next = 0
    this.parts = []
    this.size = 0
  }
}
