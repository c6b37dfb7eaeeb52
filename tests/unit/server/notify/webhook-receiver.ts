// A real HTTP receiver on 127.0.0.1 for the webhook tests: records every request and answers with
// what the test's responder says (200 "ok" by default).
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, beforeEach } from 'vitest'
import type { Alert, ResolvedAlert } from '../../../../src/shared/model/alerts.ts'
import type { NotificationBatch, Webhook } from '../../../../src/shared/model/notifications.ts'

export interface Received {
  method: string
  /** Path and query. */
  url: string
  headers: http.IncomingHttpHeaders
  body: string
}

export interface Answer {
  status?: number
  body?: string
  headers?: Record<string, string>
}

export interface Receiver {
  base: string
  requests: Received[]
  /** Decide the answer per request (default 200 "ok"); null leaves it unanswered. */
  respond: (req: Received) => Answer | null
  close(): Promise<void>
}

/** A port nothing listens on (a receiver that is down). */
export async function closedPort(): Promise<number> {
  const server = http.createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

/** Listen on 127.0.0.1 at `port` (0: any free one). */
export async function startReceiver(port = 0): Promise<Receiver> {
  const receiver: Receiver = {
    base: '',
    requests: [],
    respond: () => ({ status: 200, body: 'ok' }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const got: Received = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      }
      receiver.requests.push(got)
      const answer = receiver.respond(got)
      if (answer === null) return
      res.writeHead(answer.status ?? 200, answer.headers ?? {})
      res.end(answer.body ?? '')
    })
  })
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  receiver.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return receiver
}

/**
 * A receiver for the tests of the calling describe block: started before them, emptied and
 * answering 200 "ok" before each, closed after them. Its port differs from any other receiver's,
 * so it is another origin.
 */
export function useReceiver(): () => Receiver {
  let receiver: Receiver | undefined
  beforeAll(async () => {
    receiver = await startReceiver()
  })
  afterAll(async () => {
    await receiver?.close()
  })
  beforeEach(() => {
    receiver!.requests.length = 0
    receiver!.respond = () => ({ status: 200, body: 'ok' })
  })
  return () => receiver!
}

/** The awkward resource name: quotes, a backslash, a newline, Markdown and Liquid characters. */
export const NASTY_NAME = 'vm "web"\\01\nline_two *{{ x }}*'

export function makeAlert(overrides: Partial<Alert> = {}): Alert {
  return {
    id: 'lab-pve1-101-cpu',
    type: 'cpu',
    level: 'critical',
    resourceId: 'lab-pve1-101',
    resourceName: NASTY_NAME,
    node: 'pve1',
    instance: 'lab',
    message: 'VM CPU at 95.3% (threshold 80%)',
    value: 95.3,
    threshold: 80,
    peak: 96,
    startTime: '2025-01-01T10:00:00.000Z',
    lastSeen: '2025-01-01T10:12:00.000Z',
    acknowledged: false,
    metadata: { resourceType: 'VM', unit: '%' },
    ...overrides,
  }
}

export function resolvedAlert(overrides: Partial<Alert> = {}): ResolvedAlert {
  return {
    ...makeAlert(overrides),
    resolvedTime: '2025-01-01T10:20:00.000Z',
    endReason: 'resolved',
  }
}

export const fired = (alert: Alert = makeAlert(), key = 'k-fired'): NotificationBatch => ({
  key,
  events: [{ kind: 'fired', alert, at: Date.parse(alert.startTime) }],
  createdAt: Date.parse(alert.startTime),
})

export const resolved = (alert = resolvedAlert(), key = 'k-resolved'): NotificationBatch => ({
  key,
  events: [{ kind: 'resolved', alert, at: Date.parse(alert.resolvedTime) }],
  createdAt: Date.parse(alert.resolvedTime),
})

export function makeWebhook(overrides: Partial<Webhook> = {}): Webhook {
  return {
    id: 'wh1',
    name: 'hook',
    url: 'http://127.0.0.1:9/hook',
    method: 'POST',
    headers: {},
    enabled: true,
    service: 'generic',
    template: '',
    customFields: {},
    secretFields: [],
    ...overrides,
  }
}
