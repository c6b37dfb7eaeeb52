// The poller in a thread of its own (issue 27): at 100,000 guests, polling, parsing tens of MB of
// JSON, mapping and diffing each cycle kept the server's loop busy most of the time, and a health
// check waited behind it. Here the loop only receives each cycle's changes (in parts, see
// poller-thread-protocol.ts) and hands them to `onChanges`; the status getters read a mirror the
// thread sends with every cycle. A thread that dies is started again after RESTART_MS with the
// same endpoints, and `onRestart` tells the live state to expect a whole estate from scratch.
import type { Worker } from 'node:worker_threads'
import { AppError } from '../../shared/model/errors.ts'
import { startTsWorker } from '../ts-worker.ts'
import { DEFAULT_POLL_INTERVAL_MS } from './cadence.ts'
import type { HistoryClient, MonitoredEndpoint, Poller } from './poller.ts'
import type { PveClient } from './pve-client.ts'
import {
  ACK_EVERY,
  createCycleReceiver,
  type CollectedChanges,
  type EndpointMirror,
  type FromThread,
  type PollerThreadInit,
  type ThreadRequest,
} from './poller-thread-protocol.ts'
import type { DetailPolicy } from './pve-agent.ts'

const RESTART_MS = 1_000

export type { CollectedChanges } from './poller-thread-protocol.ts'

export interface ThreadedPollerOptions {
  intervalMs?: number
  guestDetails?: Partial<DetailPolicy>
  slowCollectors?: boolean
  onChanges(changes: CollectedChanges): void
  /** The thread was started again: the next changes start from an empty estate. */
  onRestart(): void
  log: {
    info(obj: object, msg: string): void
    warn(obj: object, msg: string): void
    error(obj: object, msg: string): void
  }
}

export interface ThreadedPoller extends Poller {
  /** Stop the thread for good (the server closing). */
  close(): Promise<void>
  /** End the thread as a crash would (tests): it is started again after RESTART_MS. */
  terminateThread(): Promise<void>
}

/** The poller of createPoller, run in a thread. */
export function createThreadedPoller(options: ThreadedPollerOptions): ThreadedPoller {
  const init: PollerThreadInit = {
    intervalMs: options.intervalMs ?? DEFAULT_POLL_INTERVAL_MS,
    slowCollectors: options.slowCollectors !== false,
    ...(options.guestDetails ? { guestDetails: options.guestDetails } : {}),
  }
  let endpoints: MonitoredEndpoint[] = []
  let mirror: Record<string, EndpointMirror> = {}
  let started = false
  let closed = false
  let seq = 0
  const waiting = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>()
  const receiver = createCycleReceiver()
  let thread: Worker
  let alive = false
  let restart: ReturnType<typeof setTimeout> | undefined

  let received = 0
  const receive = (message: FromThread) => {
    if (++received % ACK_EVERY === 0) send({ op: 'ack', count: ACK_EVERY })
    switch (message.kind) {
      case 'part':
        return receiver.part(message.json)
      case 'cycle': {
        mirror = message.status
        try {
          options.onChanges(receiver.cycle(message))
        } catch (err) {
          // The copy would miss this cycle for good: start over from a new thread's first one.
          options.log.error(
            { err },
            'receiving the collected changes failed; restarting the thread',
          )
          void thread.terminate()
        }
        return
      }
      case 'reply': {
        const w = waiting.get(message.id)
        waiting.delete(message.id)
        if (message.ok) w?.resolve(message.value)
        else w?.reject(AppError.fromJSON(message.error))
        return
      }
      case 'log':
        return options.log[message.level](message.obj, message.msg)
    }
  }

  const spawn = () => {
    const t = startTsWorker(new URL('./poller-thread-worker.ts', import.meta.url), { ...init })
    t.unref()
    t.on('message', receive)
    t.on('error', (err) => options.log.error({ err }, 'the collector thread failed'))
    t.on('exit', (code) => {
      if (thread !== t) return
      alive = false
      const failed = new Error('the collector thread exited')
      for (const w of waiting.values()) w.reject(failed)
      waiting.clear()
      if (closed) return
      options.log.error({ code }, 'the collector thread exited; starting it again')
      restart = setTimeout(() => {
        receiver.reset()
        received = 0
        mirror = {}
        options.onRestart()
        thread = spawn()
        send({ op: 'setEndpoints', endpoints })
        if (started) send({ op: 'start' })
      }, RESTART_MS)
    })
    alive = true
    return t
  }
  thread = spawn()

  const send = (request: ThreadRequest): number => {
    const id = ++seq
    thread.postMessage({ ...request, id })
    return id
  }
  const ask = <T>(request: ThreadRequest): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      if (closed || !alive) return reject(new Error('the collector thread is not running'))
      const id = send(request)
      waiting.set(id, { resolve: resolve as (v: unknown) => void, reject })
    })

  /** A client whose reads go through the thread's client of `instance`. */
  const clientOf = (instance: string, host: string): PveClient => ({
    host,
    get<T>(
      path: string,
      query?: Record<string, string | number>,
      signal?: AbortSignal,
      timeoutMs?: number,
    ): Promise<T> {
      const reason = () => (signal?.reason instanceof Error ? signal.reason : new Error('aborted'))
      if (signal?.aborted) return Promise.reject(reason())
      const answer = ask<T>({
        op: 'get',
        instance,
        path,
        ...(query ? { query } : {}),
        ...(timeoutMs !== undefined ? { timeoutMs } : {}),
      })
      if (!signal) return answer
      const id = seq
      return new Promise<T>((resolve, reject) => {
        const onAbort = () => {
          send({ op: 'abort', target: id })
          reject(reason())
        }
        signal.addEventListener('abort', onAbort, { once: true })
        answer.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort))
      })
    },
    close: async () => {},
  })

  return {
    start() {
      started = true
      send({ op: 'start' })
    },
    async stop() {
      started = false
      await ask({ op: 'stop' }).catch(() => undefined)
    },
    // Never rejects, as createPoller's: a thread being started again simply misses this one.
    pollNow: () => ask<void>({ op: 'pollNow' }).catch(() => undefined),
    setEndpoints(next) {
      endpoints = next
      send({ op: 'setEndpoints', endpoints })
    },
    endpointStatus: (id) => mirror[id]?.status ?? 'pending',
    endpointError: (id) => mirror[id]?.error,
    endpointPolls: (id) => mirror[id]?.polls,
    endpointInfo(id) {
      const known = mirror[id]?.info
      if (known) return known
      // Before the first cycle: what the configuration says, as createPoller answers then.
      const endpoint = endpoints.find((e) => e.id === id)
      if (!endpoint) return undefined
      const url = endpoint.host
      return { configuredUrl: url, activeUrl: url, isCluster: false, clusterName: '', members: [] }
    },
    historyClient(instance) {
      const endpoint = endpoints.find((e) => e.name === instance)
      if (!endpoint) return undefined
      const { status, error } = mirror[endpoint.id] ?? { status: 'pending' as const }
      const client = clientOf(instance, mirror[endpoint.id]?.info?.activeUrl ?? endpoint.host)
      const answer: HistoryClient = { client, type: endpoint.type, status }
      if (error) answer.error = error
      return answer
    },
    terminateThread: async () => void (await thread.terminate()),
    async close() {
      clearTimeout(restart)
      await ask({ op: 'stop' }).catch(() => undefined)
      closed = true
      await thread.terminate()
    },
  }
}
