// The alert service wired into the app: persistence across a restart on the same SQLite file,
// config saves that are not alert events, the socket messages every dialect gets, and the
// transition events the notifications issue will consume.
import type { AddressInfo } from 'node:net'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import type { App } from '../../../../src/server/app.ts'
import type { Transition } from '../../../../src/server/alerts/engine-types.ts'
import type { Alert } from '../../../../src/shared/model/alerts.ts'
import { startAlertApp, type AlertAppEnv } from '../support/alert-apps.ts'
import { cpuPoll, createClock, poll } from './alert-fixture.ts'

let env: AlertAppEnv
let app: App
const clock = createClock()

beforeEach(async () => {
  env = await startAlertApp(clock)
  app = env.app
})
afterEach(() => env.close())

const active = async (target = app) =>
  (await target.http.inject({ method: 'GET', url: '/api/alerts/active' })).json() as Alert[]

describe('persistence', () => {
  it('keeps config, active alerts with their acknowledgment and history across a restart', async () => {
    await poll(app, clock, cpuPoll({ 101: 0.95, 102: 0.9 }, 1))
    const [first] = await active()
    await app.http.inject({
      method: 'POST',
      url: `/api/alerts/${first!.id}/acknowledge`,
      payload: { user: 'ops' },
    })
    const before = await active()
    const config = app.alerts.config()

    app = await env.restart()
    expect(app.alerts.config()).toEqual(config)
    // Before any poll: the restored alerts, acknowledgment included.
    expect(await active()).toEqual(before)
    const history = await app.http.inject({ method: 'GET', url: '/api/alerts/history' })
    expect(history.headers['x-total-count']).toBe('2')
    // The first poll after the restart continues the same alerts.
    await poll(app, clock, cpuPoll({ 101: 0.95, 102: 0.9 }, 2))
    const after = await active()
    const ack = after.find((a) => a.id === first!.id)!
    expect(ack).toMatchObject({ acknowledged: true, ackUser: 'ops', startTime: first!.startTime })
    const again = await app.http.inject({ method: 'GET', url: '/api/alerts/history' })
    expect(again.headers['x-total-count']).toBe('2')
  })
})

describe('config save', () => {
  it('does not reset an unchanged alert: same id, start time and acknowledgment', async () => {
    const seen: Transition[] = []
    app.alerts.onTransition((t) => seen.push(t))
    await poll(app, clock, cpuPoll({ 101: 0.95 }, 1))
    const [alert] = await active()
    await app.http.inject({ method: 'POST', url: `/api/alerts/${alert!.id}/acknowledge` })
    clock.t += 5_000
    const config = app.alerts.config()
    const changed = {
      ...config,
      guestDefaults: { ...config.guestDefaults, memory: { trigger: 70, clear: 65 } },
    }
    const res = await app.http.inject({
      method: 'PUT',
      url: '/api/alerts/config',
      payload: changed,
    })
    expect(res.statusCode).toBe(200)
    const [kept] = await active()
    expect(kept).toMatchObject({
      id: alert!.id,
      startTime: alert!.startTime,
      acknowledged: true,
      // authentication is disabled here: the guard names the caller 'anonymous' (issue 24 #32)
      ackUser: 'anonymous',
    })
    expect(seen.map((t) => t.kind)).toEqual(['fired'])
  })
})

/** A socket on the listening app that records every message it gets. */
async function connect(
  query: string,
): Promise<{ messages: Array<{ type: string; data: unknown }>; ws: WebSocket }> {
  const { port } = app.http.server.address() as AddressInfo
  const ws = new WebSocket(`ws://127.0.0.1:${port}/ws${query}`)
  const messages: Array<{ type: string; data: unknown }> = []
  ws.on('message', (data, binary) => {
    if (!binary) messages.push(JSON.parse(String(data)) as { type: string; data: unknown })
  })
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject))
  return { messages, ws }
}

async function waitFor(check: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((r) => setTimeout(r, 10))
  expect(check()).toBe(true)
}

describe('socket messages and transitions', () => {
  it('sends alert and alertResolved to every dialect and emits fired, then resolved', async () => {
    const seen: Transition[] = []
    app.alerts.onTransition((t) => seen.push(t))
    await app.http.listen({ port: 0, host: '127.0.0.1' })
    const clients = await Promise.all(['', '?deltas=1', '?deltas=2'].map(connect))
    await waitFor(() => clients.every((c) => c.messages.some((m) => m.type === 'welcome')))

    await poll(app, clock, cpuPoll({ 101: 0.95 }, 1))
    const alertOf = (c: (typeof clients)[number]) => c.messages.find((m) => m.type === 'alert')
    await waitFor(() => clients.every((c) => alertOf(c)))
    const id = (alertOf(clients[0]!)!.data as Alert).id
    expect(id).toContain('lab-pve1-101')

    await poll(app, clock, cpuPoll({ 101: 0.1 }, 2))
    const resolvedOf = (c: (typeof clients)[number]) =>
      c.messages.find((m) => m.type === 'alertResolved')
    await waitFor(() => clients.every((c) => resolvedOf(c)))
    for (const c of clients) {
      expect(resolvedOf(c)!.data).toEqual({
        alertId: id,
        resolvedTime: new Date(clock.t).toISOString(),
      })
    }
    expect(seen.map((t) => [t.kind, t.alert.id])).toEqual([
      ['fired', id],
      ['resolved', id],
    ])
    expect(app.live.current().state.recentlyResolved.map((a) => a.id)).toContain(id)
    for (const c of clients) c.ws.close()
  })

  it('republishes the live state at once after an acknowledgment, without a poll', async () => {
    await poll(app, clock, cpuPoll({ 101: 0.95 }, 1))
    const seq = app.live.current().seq
    const [alert] = await active()
    await app.http.inject({ method: 'POST', url: `/api/alerts/${alert!.id}/acknowledge` })
    await waitFor(() => app.live.current().seq > seq)
    const published = app.live.current()
    expect(published.state.activeAlerts[0]).toMatchObject({ id: alert!.id, acknowledged: true })
    expect(published.delta?.upsert?.activeAlerts?.[0]).toMatchObject({ acknowledged: true })
  })
})
