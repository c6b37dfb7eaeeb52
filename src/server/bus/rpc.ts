// Core NATS request/reply with chunking both ways. Plain request() allows one reply message, so
// the requester listens on its own inbox and the responder answers with as many chunks as needed.
// A request larger than one chunk sends part 1 to the (queue-grouped) subject; the responder that
// got it replies with a private inbox for the remaining parts, so all parts reach the same member.
import {
  createInbox,
  headers as createHeaders,
  type Msg,
  type NatsConnection,
} from '@nats-io/transport-node'
import { setImmediate as nextTurn } from 'node:timers/promises'
import type { RpcHandler } from './bus.ts'
import { ChunkJoiner, readPart, splitChunks, splitPieces } from './chunks.ts'

/** A responder's private inbox for the rest of a multi-part request. */
const CONTINUE_HEADER = 'Pulse-Continue'
/** Set on an answer when the handler threw: its message, for the requester's error. */
const ERROR_HEADER = 'Pulse-Error'
/** Only one member of a queue group gets each request (several collectors may serve). */
const QUEUE = 'pulse'

export interface RpcDeps {
  nc: NatsConnection
  chunk: () => number
  log: { warn(obj: object, msg: string): void }
}

function send(deps: RpcDeps, subject: string, payload: Uint8Array, extra = {}) {
  for (const part of splitChunks(payload, deps.chunk(), extra)) {
    deps.nc.publish(subject, part.data, { headers: part.headers })
  }
}

/** Chunks written between two turns of the event loop when answering (one: a chunk is up to 1 MiB). */
const ANSWER_CHUNKS_PER_TURN = 1

/**
 * Send an answer of any size: a 100,000-guest snapshot is about 50 chunks, and publishing them
 * at once held the loop for hundreds of ms, so a few go per turn. The parts stay in order (one
 * connection, one sender), which is all the requester's joiner needs.
 */
async function sendAnswer(
  deps: RpcDeps,
  subject: string,
  payload: Uint8Array | readonly Uint8Array[],
): Promise<void> {
  const pieces = payload instanceof Uint8Array ? [payload] : payload
  let i = 0
  for (const part of splitPieces(pieces, deps.chunk())) {
    if (i++ % ANSWER_CHUNKS_PER_TURN === 0 && i > 1) await nextTurn()
    deps.nc.publish(subject, part.data, { headers: part.headers })
  }
}

/** Answer requests on `subject`. */
export function serveRpc(
  deps: RpcDeps,
  subject: string,
  handler: RpcHandler,
): { stop(): void; ready: Promise<void> } {
  const answer = (reply: string, request: Uint8Array) => {
    // Through a promise so a handler that throws synchronously is answered like one that rejects.
    Promise.resolve(request)
      .then(handler)
      .then(
        (result) => sendAnswer(deps, reply, result),
        (err: unknown) => {
          const message = err instanceof Error ? err.message : String(err)
          send(deps, reply, new Uint8Array(0), { [ERROR_HEADER]: message.replace(/[\r\n]+/g, ' ') })
        },
      )
  }
  const receiveRest = (first: Msg) => {
    const joiner = new ChunkJoiner()
    const inbox = createInbox()
    const reply = first.reply!
    // A requester that vanished mid-upload must not leave the inbox open forever.
    const timer = setTimeout(() => rest.unsubscribe(), 60_000)
    const rest = deps.nc.subscribe(inbox, {
      callback: (err, msg) => {
        const part = err ? null : readPart(msg.headers)
        const whole = part ? joiner.add(part, msg.data) : null
        if (!whole) return
        clearTimeout(timer)
        rest.unsubscribe()
        answer(reply, whole)
      },
    })
    joiner.add(readPart(first.headers)!, first.data)
    const headers = createHeaders()
    headers.set(CONTINUE_HEADER, inbox)
    deps.nc.publish(reply, new Uint8Array(0), { headers })
  }
  const sub = deps.nc.subscribe(subject, {
    queue: QUEUE,
    callback: (err, msg) => {
      if (err || !msg.reply) return
      const part = readPart(msg.headers)
      if (!part || part.count === 1) answer(msg.reply, msg.data)
      else if (part.index === 1) receiveRest(msg)
    },
  })
  return { stop: () => sub.unsubscribe(), ready: deps.nc.flush() }
}

/** Send a request and join its (possibly chunked) answer. */
export function requestRpc(
  deps: RpcDeps,
  subject: string,
  payload: Uint8Array,
  timeoutMs: number,
): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const inbox = createInbox()
    const joiner = new ChunkJoiner()
    const parts = splitChunks(payload, deps.chunk())
    let settled = false
    const finish = (error: Error | null, value?: Uint8Array) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      sub.unsubscribe()
      if (error) reject(error)
      else resolve(value!)
    }
    const timer = setTimeout(
      () => finish(new Error(`No collector answered ${subject} within ${timeoutMs} ms`)),
      timeoutMs,
    )
    const sub = deps.nc.subscribe(inbox, {
      callback: (err, msg) => {
        if (err) return finish(err)
        // The server's "no responders" status (503) comes to the reply inbox.
        if (msg.headers?.hasError && msg.headers.code === 503) {
          return finish(new Error(`No collector serves ${subject} (no responders)`))
        }
        const next = msg.headers?.get(CONTINUE_HEADER)
        if (next) {
          for (const rest of parts.slice(1)) {
            deps.nc.publish(next, rest.data, { headers: rest.headers })
          }
          return
        }
        const part = readPart(msg.headers)
        const whole = part ? joiner.add(part, msg.data) : null
        if (!whole) return
        const failed = msg.headers?.get(ERROR_HEADER)
        finish(failed ? new Error(`${subject} failed on the collector: ${failed}`) : null, whole)
      },
    })
    const first = parts[0]!
    deps.nc.publish(subject, first.data, { headers: first.headers, reply: inbox })
  })
}
