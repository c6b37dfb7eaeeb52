// Acceptance 3 of issue 15 end to end: a generic webhook configured through the real HTTP API and
// delivered by the real undici channel. With the receiver down, alerts fire; the server is killed
// with SIGKILL, restarted, and the receiver comes up: every notification arrives, and none twice
// under a different Idempotency-Key. A real server process on a real SQLite file.
import { fork, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import type { DeliveryRecord, Webhook } from '../../../../src/shared/model/notifications.ts'
import { makeTempDir } from '../temp-dir.ts'
import { closedPort, startReceiver, type Receiver } from './webhook-receiver.ts'

const CHILD = fileURLToPath(new URL('./notify-webhook-child.ts', import.meta.url))
const children: ChildProcess[] = []
const temp = makeTempDir()
let receiver: Receiver | undefined
afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL')
  await receiver?.close()
  temp.cleanup()
})

async function start(): Promise<{ child: ChildProcess; base: string }> {
  const child = fork(CHILD, [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, PULSE_DATA_DIR: temp.dir },
  })
  children.push(child)
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (m: { port: number }) => resolve(m.port))
    child.once('exit', (code) => reject(new Error(`child exited with ${code}`)))
  })
  return { child, base: `http://127.0.0.1:${port}` }
}

const killed = (child: ChildProcess) =>
  new Promise<NodeJS.Signals | null>((resolve) => {
    child.once('exit', (_code, signal) => resolve(signal))
    child.kill('SIGKILL')
  })

const raised = (child: ChildProcess, count: number) =>
  new Promise<void>((resolve) => {
    child.once('message', () => resolve())
    child.send({ type: 'raise', count })
  })

async function deliveries(base: string): Promise<DeliveryRecord[]> {
  return (await (await fetch(`${base}/api/notifications/deliveries`)).json()) as DeliveryRecord[]
}

/** Poll the delivery log until `predicate` holds (the sender runs on its own timer). */
async function waitFor(base: string, predicate: (rows: DeliveryRecord[]) => boolean) {
  for (;;) {
    const rows = await deliveries(base)
    if (predicate(rows)) return rows
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/** The alert ids a generic payload carries: one alert, or a group's list. */
function alertIds(body: string): string[] {
  const payload = JSON.parse(body) as { alert?: { id: string }; alerts?: Array<{ id: string }> }
  return payload.alerts ? payload.alerts.map((a) => a.id) : [payload.alert!.id]
}

const ALERTS = 5

describe('kill -9 with webhook notifications in the outbox', () => {
  it('delivers every one through the real channel after a restart, one key each', async () => {
    const port = await closedPort()
    const first = await start()
    const created = await fetch(`${first.base}/api/notifications/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Crash receiver',
        url: `http://127.0.0.1:${port}/hook`,
        service: 'generic',
        method: 'POST',
        headers: { 'X-Test': 'crash' },
        enabled: true,
        template: '',
        customFields: {},
        secretFields: [],
      }),
    })
    expect(created.status).toBe(200)
    const webhook = (await created.json()) as Webhook

    await raised(first.child, ALERTS)
    // Accepted and attempted by the real channel against the receiver that is down.
    const before = await waitFor(
      first.base,
      (rows) => rows.length === ALERTS && rows.every((r) => r.attempts >= 1),
    )
    for (const row of before) {
      expect(row.destination).toMatchObject({ kind: 'webhook', id: webhook.id })
      // Failed, or waiting for the destination's rate limit (10 a minute): five messages and
      // their retries reach it about when the last one is first attempted.
      if (row.status === 'pending') expect(row.reason).toBe('rate-limit')
      else expect(row.status).toBe('failed')
      expect(row.lastError).toMatch(/^Webhook request failed: .*ECONNREFUSED/)
    }
    expect(await killed(first.child)).toBe('SIGKILL')

    receiver = await startReceiver(port)
    const second = await start()
    const after = await waitFor(second.base, (rows) => rows.every((r) => r.status === 'sent'))
    expect(after).toHaveLength(ALERTS)

    const expected = new Set(before.map((r) => r.alertIds[0]))
    const keysPerAlert = new Map<string, Set<string>>()
    for (const request of receiver.requests) {
      expect(request.url).toBe('/hook')
      expect(request.headers['x-test']).toBe('crash')
      const key = request.headers['idempotency-key']
      expect(typeof key).toBe('string')
      for (const id of alertIds(request.body))
        keysPerAlert.set(id, (keysPerAlert.get(id) ?? new Set()).add(String(key)))
    }
    // Every alert arrived, and under one key only, however often it was sent.
    expect(new Set(keysPerAlert.keys())).toEqual(expected)
    for (const keys of keysPerAlert.values()) expect(keys.size).toBe(1)
  }, 120_000)
})
