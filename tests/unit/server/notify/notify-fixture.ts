// Fixtures of the outbox tests: alerts and events, planned rows, a loopback HTTP receiver that
// records what arrives (and can be down or answer 500), and a tiny test Channel that POSTs a
// batch as JSON with its key in an `Idempotency-Key` header. The real webhook channel is another
// part's (src/server/notify/webhook/); it sends the same header.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Alert } from '../../../../src/shared/model/alerts.ts'
import type {
  NotificationBatch,
  NotificationEvent,
  Webhook,
} from '../../../../src/shared/model/notifications.ts'
import type {
  Channel,
  PlannedDelivery,
  PolicyDestination,
  ResolvedDestination,
} from '../../../../src/server/notify/types.ts'

export const T0 = 1_700_000_000_000

export function makeAlert(n: number, over: Partial<Alert> = {}): Alert {
  return {
    id: `lab-pve1-${100 + n}-cpu`,
    type: 'cpu',
    level: 'warning',
    resourceId: `lab-pve1-${100 + n}`,
    resourceName: `vm-${100 + n}`,
    node: `pve${n % 3}`,
    instance: 'lab',
    message: `VM cpu at 9${n % 10}%`,
    value: 90,
    threshold: 80,
    peak: 90,
    startTime: new Date(T0).toISOString(),
    lastSeen: new Date(T0).toISOString(),
    acknowledged: false,
    ...over,
  }
}

export function fired(n: number, at = T0): NotificationEvent {
  return { kind: 'fired', alert: makeAlert(n), at }
}

export const hook = (id: string): PolicyDestination => ({ kind: 'webhook', id, name: `hook ${id}` })

export function planned(
  event: NotificationEvent,
  destination: PolicyDestination,
  over: Partial<PlannedDelivery> = {},
): PlannedDelivery {
  return {
    destination,
    event,
    idempotencyKey: `${event.alert.id}|${event.kind}|${event.level ?? ''}|${event.alert.startTime}|${destination.id}`,
    groupKey: 'all',
    dueAt: event.at,
    status: 'pending',
    ...over,
  }
}

/** A resolved webhook destination pointing at `url`. */
export function webhookTo(id: string, url: string, enabled = true): ResolvedDestination {
  const webhook: Webhook = {
    id,
    name: `hook ${id}`,
    url,
    method: 'POST',
    headers: {},
    enabled,
    service: 'generic',
    template: '',
    customFields: {},
    secretFields: [],
  }
  return { kind: 'webhook', id, name: webhook.name, webhook }
}

/** Test-only channel: POST the batch as JSON; the real webhook channel is another part's. */
export const testChannel: Channel = {
  async send(batch: NotificationBatch, destination: ResolvedDestination) {
    if (destination.kind !== 'webhook')
      return { ok: false, error: 'not a webhook', retryable: false }
    try {
      const res = await fetch(destination.webhook.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': batch.key },
        body: JSON.stringify(batch),
      })
      const text = await res.text()
      if (res.ok) return { ok: true, info: `HTTP ${res.status}` }
      return { ok: false, error: `HTTP ${res.status}: ${text.slice(0, 200)}`, retryable: true }
    } catch (err) {
      return { ok: false, error: (err as Error).message, retryable: true }
    }
  },
}

export interface Received {
  key: string
  batch: NotificationBatch
}

/**
 * A loopback receiver. `answer` decides the status of each request (200 by default); every
 * request is recorded, whatever the answer. `listen(port?)` can bring it up on a fixed port.
 */
export function createReceiver() {
  const received: Received[] = []
  const waiters: Array<() => void> = []
  let answer: (n: number) => number = () => 200
  const server = http.createServer((req, res) => {
    let body = ''
    req.on('data', (chunk: Buffer) => (body += chunk.toString()))
    req.on('end', () => {
      received.push({
        key: String(req.headers['idempotency-key']),
        batch: JSON.parse(body) as NotificationBatch,
      })
      res.statusCode = answer(received.length)
      res.end(res.statusCode === 200 ? 'ok' : 'broken')
      for (const w of waiters.splice(0)) w()
    })
  })
  return {
    received,
    setAnswer(fn: (n: number) => number) {
      answer = fn
    },
    async listen(port = 0): Promise<string> {
      await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    /** Resolves once `predicate` holds over what was received. */
    until(predicate: (r: Received[]) => boolean): Promise<void> {
      return new Promise((resolve) => {
        const check = () => (predicate(received) ? resolve() : waiters.push(check))
        check()
      })
    },
  }
}
