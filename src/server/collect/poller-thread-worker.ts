// The collector thread (poller-thread.ts starts it): the poller runs here, with its clients,
// parsing and mapping, and each cycle's result is diffed against the last one here too; the loop
// gets only the changes (poller-thread-protocol.ts). History reads go through this thread's
// clients (op 'get'), so they keep sharing each endpoint's connection limit.
import { getPriority, setPriority } from 'node:os'
import { parentPort, workerData } from 'node:worker_threads'
import { AppError } from '../../shared/model/errors.ts'
import { createPoller, type MonitoredEndpoint } from './poller.ts'
import {
  createCycleEncoder,
  SEND_WINDOW,
  type EndpointMirror,
  sendable,
  type Outgoing,
  type PollerThreadInit,
  type ToThread,
} from './poller-thread-protocol.ts'

const port = parentPort!

// The loop answers the browsers and the API at once; a poll can wait a little. When the machine
// is short of cores (the 100k demo on 2: the simulator, this thread and the loop), this thread
// yields to the loop: on Linux a thread has a nice value of its own, and setPriority(0, …) sets the
// calling thread's. Elsewhere it would lower the whole process, so it is done on Linux only.
// Relative to the priority the server was started with (19 is the lowest); raising niceness needs
// no privileges, and a refusal leaves the thread at the process's priority.
const COLLECTOR_NICE = 10
if (process.platform === 'linux') {
  try {
    setPriority(0, Math.min(19, getPriority(0) + COLLECTOR_NICE))
  } catch {
    // Not permitted here: the thread runs at the process's priority.
  }
}
const init = workerData as PollerThreadInit

// Every message waits for the loop's acknowledgments (SEND_WINDOW), in order: a reply never
// overtakes the cycle it follows.
const outbox: Array<{ message: Outgoing; transfer?: ArrayBuffer[] }> = []
let credit = SEND_WINDOW
const pump = () => {
  while (credit > 0 && outbox.length > 0) {
    const { message, transfer } = outbox.shift()!
    credit--
    port.postMessage(sendable(message), transfer)
  }
}
const post = (message: Outgoing, transfer?: ArrayBuffer[]) => {
  outbox.push(transfer ? { message, transfer } : { message })
  pump()
}

/** A log object the loop can receive: errors as their message (a structured clone drops the rest). */
function plain(obj: object): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(obj)) {
    out[key] = value instanceof Error ? `${value.name}: ${value.message}` : value
  }
  return out
}

let endpoints: MonitoredEndpoint[] = []
const encoder = createCycleEncoder()

const poller = createPoller({
  intervalMs: init.intervalMs,
  ...(init.guestDetails ? { guestDetails: init.guestDetails } : {}),
  slowCollectors: init.slowCollectors,
  log: {
    warn: (obj, msg) => post({ kind: 'log', level: 'warn', obj: plain(obj), msg }),
    info: (obj, msg) => post({ kind: 'log', level: 'info', obj: plain(obj), msg }),
  },
  onState: (collected) => {
    const { messages, transfer } = encoder.encode(collected, mirror())
    for (const message of messages) post(message, message.kind === 'cycle' ? transfer : undefined)
  },
})

function mirror(): Record<string, EndpointMirror> {
  const out: Record<string, EndpointMirror> = {}
  for (const { id } of endpoints) {
    const error = poller.endpointError(id)
    const info = poller.endpointInfo(id)
    const polls = poller.endpointPolls(id)
    out[id] = {
      status: poller.endpointStatus(id),
      ...(error !== undefined ? { error } : {}),
      ...(info ? { info } : {}),
      ...(polls ? { polls } : {}),
    }
  }
  return out
}

const calls = new Map<number, AbortController>()

async function handle(request: ToThread): Promise<unknown> {
  switch (request.op) {
    case 'start':
      return poller.start()
    case 'stop':
      return poller.stop()
    case 'pollNow':
      return poller.pollNow()
    case 'setEndpoints':
      endpoints = request.endpoints
      return poller.setEndpoints(endpoints)
    case 'ack':
      return undefined
    case 'abort':
      return calls.get(request.target)?.abort()
    case 'get': {
      const endpoint = poller.historyClient(request.instance)
      if (!endpoint) throw new AppError('NOT_FOUND', { path: request.instance })
      const controller = new AbortController()
      calls.set(request.id, controller)
      try {
        return await endpoint.client.get(
          request.path,
          request.query,
          controller.signal,
          request.timeoutMs,
        )
      } finally {
        calls.delete(request.id)
      }
    }
  }
}

port.on('message', (request: ToThread) => {
  if (request.op === 'ack') {
    credit += request.count
    return pump()
  }
  handle(request).then(
    (value) => post({ kind: 'reply', id: request.id, ok: true, value }),
    (err: unknown) => {
      const error =
        err instanceof AppError
          ? err.toJSON()
          : { code: 'INTERNAL', message: err instanceof Error ? err.message : String(err) }
      post({ kind: 'reply', id: request.id, ok: false, error })
    },
  )
})
