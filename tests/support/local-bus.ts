// An in-process Bus for tests of the request/reply paths (serve/request only). It stands in for
// NATS until the phase-3 multi-node test runs every role over a real nats-server; the stream and
// lease methods throw here. Payloads are copied both ways so no side shares memory with the
// other, as over a real connection.
import type { Bus, Lease, LiveMessage, RpcHandler } from '../../src/server/bus/bus.ts'

export interface LocalBus extends Bus {
  /** Requests sent per subject (answered or not), for tests that prove one never left. */
  sent(subject: string): number
}

function notHere(what: string): never {
  throw new Error(`${what}: not in the local bus (tests/support/local-bus.ts)`)
}

/** A bus living in this process; several "nodes" share one instance. */
export function createLocalBus(): LocalBus {
  // Like NATS queue groups: several servers of one subject take turns.
  const handlers = new Map<string, RpcHandler[]>()
  const counts = new Map<string, number>()
  let turn = 0
  let closed = false

  return {
    sent: (subject) => counts.get(subject) ?? 0,
    publishLive: (_message: LiveMessage) => notHere('publishLive'),
    consumeLive: () => notHere('consumeLive'),
    lastLiveSeq: () => notHere('lastLiveSeq'),
    lease: (): Lease => notHere('lease'),
    connected: () => !closed,
    serve(subject, handler) {
      const list = handlers.get(subject) ?? []
      list.push(handler)
      handlers.set(subject, list)
      return {
        ready: Promise.resolve(),
        stop() {
          const current = handlers.get(subject) ?? []
          handlers.set(
            subject,
            current.filter((h) => h !== handler),
          )
        },
      }
    },
    request(subject, payload, timeoutMs) {
      counts.set(subject, (counts.get(subject) ?? 0) + 1)
      const list = handlers.get(subject) ?? []
      if (closed || list.length === 0) {
        return Promise.reject(new Error(`no responders for ${subject}`))
      }
      const handler = list[turn++ % list.length]!
      return new Promise<Uint8Array>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`request on ${subject} timed out after ${timeoutMs} ms`)),
          timeoutMs,
        )
        handler(Uint8Array.from(payload)).then(
          (answer) => {
            clearTimeout(timer)
            resolve(answer instanceof Uint8Array ? Uint8Array.from(answer) : Buffer.concat(answer))
          },
          (err: unknown) => {
            clearTimeout(timer)
            reject(err instanceof Error ? err : new Error(String(err)))
          },
        )
      })
    },
    async close() {
      closed = true
      handlers.clear()
    },
  }
}
