// The real app with a test destination (loopback receiver, test channel; the real webhook
// channel is another part's): alert transitions reach the outbox before anything is sent, the
// sender delivers them, and the delivery log routes answer over HTTP. Escalations are planned
// once per level.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { App } from '../../../../src/server/app.ts'
import type { DeliveryRecord } from '../../../../src/shared/model/notifications.ts'
import { cpuPoll, poll } from '../alerts/alert-fixture.ts'
import { startNotifyApp, type NotifyAppEnv } from '../support/alert-apps.ts'

let env: NotifyAppEnv
let app: App
let receiver: NotifyAppEnv['receiver']
let clock: NotifyAppEnv['clock']

beforeEach(async () => {
  env = await startNotifyApp()
  ;({ app, receiver, clock } = env)
})
afterEach(() => env.close())

async function deliveries(query = ''): Promise<{ rows: DeliveryRecord[]; total: string }> {
  const res = await app.http.inject({ url: `/api/notifications/deliveries${query}` })
  expect(res.statusCode).toBe(200)
  return { rows: res.json(), total: String(res.headers['x-total-count']) }
}

describe('dispatcher and delivery log', () => {
  it('writes fired and resolved to the outbox, then delivers them', async () => {
    await poll(app, clock, cpuPoll({ 101: 0.95 }, 1))
    await poll(app, clock, cpuPoll({ 101: 0.1 }, 2))
    // Written, not sent: the sender has not run.
    const written = await deliveries()
    expect(written.rows.map((r) => [r.eventKinds[0], r.status])).toEqual([
      ['resolved', 'pending'],
      ['fired', 'pending'],
    ])
    expect(receiver.received).toEqual([])

    // One send in flight per destination: the fired first, the resolved on the next tick.
    await app.notify.outbox.drain()
    await app.notify.outbox.drain()
    expect(receiver.received.map((r) => r.batch.events.map((e) => e.kind))).toEqual([
      ['fired'],
      ['resolved'],
    ])
    const sent = await deliveries('?status=sent&limit=1')
    expect(sent.total).toBe('2')
    expect(sent.rows).toEqual([
      expect.objectContaining({
        status: 'sent',
        attempts: 1,
        destination: expect.objectContaining({ id: 'a' }),
      }),
    ])
    expect((await deliveries('?destination=other')).total).toBe('0')

    const history = await app.http.inject({ url: '/api/notifications/webhook-history' })
    expect(history.json()).toEqual([
      expect.objectContaining({
        webhookName: 'hook a',
        service: 'generic',
        statusCode: 200,
        success: true,
        retryAttempts: 0,
        webhookUrl: '',
      }),
      expect.objectContaining({ alertId: written.rows[1]!.alertIds[0], success: true }),
    ])
  })

  it('answers 400 naming the field for a bad filter', async () => {
    const res = await app.http.inject({ url: '/api/notifications/deliveries?status=lost' })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({
      code: 'FIELD_INVALID',
      error: expect.stringMatching(/^status: /),
    })
    const limit = await app.http.inject({ url: '/api/notifications/deliveries?limit=0' })
    expect(limit.json()).toMatchObject({ error: expect.stringMatching(/^limit: /) })
  })

  it('plans each escalation level once per occurrence', async () => {
    const config = (await app.http.inject({ url: '/api/alerts/config' })).json()
    config.schedule.escalation = { enabled: true, levels: [{ after: 5, notify: 'all' }] }
    const saved = await app.http.inject({
      method: 'PUT',
      url: '/api/alerts/config',
      payload: config,
    })
    expect(saved.statusCode).toBe(200)
    await poll(app, clock, cpuPoll({ 101: 0.95 }, 1))
    app.notify.dispatcher.checkEscalations()
    expect((await deliveries()).total).toBe('1')
    clock.t += 6 * 60_000
    app.notify.dispatcher.checkEscalations()
    app.notify.dispatcher.checkEscalations()
    const { rows } = await deliveries()
    expect(rows.map((r) => r.eventKinds[0])).toEqual(['escalation', 'fired'])
    expect(rows[0]!.title).toMatch(/^Escalation \(level 1\): /)
  })
})
