// PagerDuty through the real channel to a real receiver on 127.0.0.1: a trigger and its resolve
// carry the same dedup_key (single and grouped messages alike, since a group goes out as one event
// per alert), the next occurrence opens a new incident, and a retry sends the identical requests.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { NotificationBatch } from '../../../../src/shared/model/notifications.ts'
import {
  createWebhookChannel,
  type WebhookChannel,
} from '../../../../src/server/notify/webhook/channel.ts'
import {
  fired,
  makeAlert,
  makeWebhook,
  resolved,
  resolvedAlert,
  startReceiver,
  type Received,
  type Receiver,
} from './webhook-receiver.ts'

type Json = any // eslint-disable-line @typescript-eslint/no-explicit-any

let receiver: Receiver
let channel: WebhookChannel
let now = Date.parse('2025-01-01T10:30:00.000Z')

beforeAll(async () => {
  receiver = await startReceiver()
  channel = createWebhookChannel({ allowLoopback: true, now: () => now, ratePerMinute: 1000 })
})
afterAll(async () => {
  await channel.close()
  await receiver.close()
})
beforeEach(() => {
  receiver.requests.length = 0
  receiver.respond = () => ({ status: 202, body: '{"status":"success"}' })
})

const PD = makeWebhook({
  service: 'pagerduty',
  url: '',
  customFields: { routing_key: 'rk-123' },
})

async function send(batch: NotificationBatch): Promise<{ body: Json; key: string }[]> {
  const webhook = { ...PD, url: `${receiver.base}/v2/enqueue` }
  const result = await channel.send(batch, { kind: 'webhook', id: 'pd', name: 'PD', webhook })
  expect(result).toEqual({ ok: true, info: 'HTTP 202' })
  const got = receiver.requests.splice(0).map((r: Received) => ({
    body: JSON.parse(r.body) as Json,
    key: String(r.headers['idempotency-key']),
  }))
  for (const { body } of got) expect(body.routing_key).toBe('rk-123')
  return got
}

const vm = (vmid: number, startTime = '2025-01-01T10:00:00.000Z') => ({
  id: `lab-pve1-${vmid}-cpu`,
  resourceName: `vm-${vmid}`,
  startTime,
})

function group(
  key: string,
  kind: 'fired' | 'resolved',
  vmids: number[],
  summary?: NotificationBatch['summary'],
): NotificationBatch {
  const at = Date.parse(kind === 'fired' ? '2025-01-01T10:05:00.000Z' : '2025-01-01T10:20:00.000Z')
  return {
    key,
    events: vmids.map((vmid) =>
      kind === 'fired'
        ? { kind, alert: makeAlert(vm(vmid)), at }
        : { kind, alert: resolvedAlert(vm(vmid)), at },
    ),
    createdAt: at,
    ...(summary ? { summary } : {}),
  }
}

describe('PagerDuty dedup_key', () => {
  it('gives a trigger and its resolve the same key, the next occurrence another', async () => {
    const [trigger] = await send(fired(makeAlert(), 'k-fire'))
    const [resolve] = await send(resolved(resolvedAlert(), 'k-resolve'))
    expect(trigger!.body.event_action).toBe('trigger')
    expect(resolve!.body.event_action).toBe('resolve')
    expect(resolve!.body.dedup_key).toBe(trigger!.body.dedup_key)
    // The message's own key stays the Idempotency-Key: the two are different messages.
    expect([trigger!.key, resolve!.key]).toEqual(['k-fire', 'k-resolve'])

    const escalated: NotificationBatch = {
      key: 'k-esc',
      events: [{ kind: 'escalated', alert: makeAlert(), at: now }],
      createdAt: now,
    }
    const [esc] = await send(escalated)
    expect(esc!.body).toMatchObject({ event_action: 'trigger', dedup_key: trigger!.body.dedup_key })

    const again = makeAlert({ startTime: '2025-01-01T11:00:00.000Z' })
    const [next] = await send(fired(again, 'k-fire-2'))
    expect(next!.body.dedup_key).not.toBe(trigger!.body.dedup_key)
  })

  it('sends a group as one event per alert, each resolved by its own later resolve', async () => {
    const triggers = await send(group('k-group', 'fired', [101, 102, 103]))
    expect(triggers.map((t) => t.body.event_action)).toEqual(['trigger', 'trigger', 'trigger'])
    expect(triggers.map((t) => t.body.payload.custom_details.alert_id)).toEqual([
      'lab-pve1-101-cpu',
      'lab-pve1-102-cpu',
      'lab-pve1-103-cpu',
    ])
    expect(new Set(triggers.map((t) => t.body.dedup_key)).size).toBe(3)
    expect(new Set(triggers.map((t) => t.key)).size).toBe(3)

    // Resolved in another grouping (two together, one alone): every incident closes.
    const resolves = [
      ...(await send(group('k-res-a', 'resolved', [103, 101]))),
      ...(await send(resolved(resolvedAlert(vm(102)), 'k-res-b'))),
    ]
    expect(resolves.map((r) => r.body.event_action)).toEqual(['resolve', 'resolve', 'resolve'])
    expect(resolves.map((r) => r.body.dedup_key).sort()).toEqual(
      triggers.map((t) => t.body.dedup_key).sort(),
    )
  })

  it('sends a storm summary as one incident, not one per alert', async () => {
    const storm = group('k-storm', 'fired', [201, 202], {
      reason: 'storm',
      text: '2 alerts on pve1: 2 cpu',
      count: 2,
    })
    const triggers = await send(storm)
    expect(triggers).toHaveLength(1)
    expect(triggers[0]!.body).toMatchObject({ event_action: 'trigger', dedup_key: 'k-storm' })
    expect(JSON.stringify(triggers[0]!.body.payload)).toContain('2 alerts on pve1: 2 cpu')
  })

  it('sends a held quiet-hours summary one event per alert, so each incident resolves', async () => {
    const held = group('k-quiet', 'fired', [211, 212], {
      reason: 'quiet-hours',
      text: '2 alerts on pve1: 2 cpu',
      count: 2,
    })
    const triggers = await send(held)
    const [resolve] = await send(resolved(resolvedAlert(vm(212)), 'k-res'))
    expect(triggers).toHaveLength(2)
    expect(triggers[1]!.body.dedup_key).toBe(resolve!.body.dedup_key)
  })

  it('keeps a trigger and a resolve in one group apart', async () => {
    const mixed: NotificationBatch = {
      key: 'k-mixed',
      events: [...group('x', 'fired', [301]).events, ...group('y', 'resolved', [302]).events],
      createdAt: now,
    }
    const got = await send(mixed)
    expect(got.map((g) => [g.body.event_action, g.body.payload.custom_details.alert_id])).toEqual([
      ['trigger', 'lab-pve1-301-cpu'],
      ['resolve', 'lab-pve1-302-cpu'],
    ])
  })

  it('sends the identical requests again on a retry, later', async () => {
    const batch = group('k-retry', 'fired', [401, 402, 403])
    const webhook = { ...PD, url: `${receiver.base}/v2/enqueue` }
    const destination = { kind: 'webhook' as const, id: 'pd', name: 'PD', webhook }
    // The second event fails: the message failed, another attempt is due.
    receiver.respond = (req) =>
      req.body.includes('lab-pve1-402-cpu') ? { status: 500, body: 'busy' } : { status: 202 }
    const failed = await channel.send(batch, destination)
    expect(failed).toMatchObject({ ok: false, retryable: true })
    const first = receiver.requests.splice(0)
    expect(first).toHaveLength(2)

    now += 10 * 60_000
    receiver.respond = () => ({ status: 202 })
    expect(await channel.send(batch, destination)).toEqual({ ok: true, info: 'HTTP 202' })
    const second = receiver.requests.splice(0)
    expect(second).toHaveLength(3)
    const wire = (r: Received) => [r.body, r.headers['idempotency-key']]
    expect(second.slice(0, 2).map(wire)).toEqual(first.map(wire))
  })
})
