// Silences through the real app (issue 28 item 1): the routes and their 400s, an alert covered by
// a node silence shown as silenced and not sent while a fresh alert of another node is, the silence
// ended early and the still-firing alert notified once, a restart on the same SQLite file, the
// audit log. A loopback receiver stands in for the webhook; the clock is the test's.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { App } from '../../../../src/server/app.ts'
import type { CollectedState } from '../../../../src/server/collect/poller.ts'
import type { Alert } from '../../../../src/shared/model/alerts.ts'
import type { DeliveryRecord } from '../../../../src/shared/model/notifications.ts'
import type { SilenceView } from '../../../../src/shared/model/silences.ts'
import { cpuPoll, poll } from '../alerts/alert-fixture.ts'
import { startNotifyApp, type NotifyAppEnv } from '../support/alert-apps.ts'

const HOUR = 3_600_000
let env: NotifyAppEnv
let app: App
let receiver: NotifyAppEnv['receiver']
let clock: NotifyAppEnv['clock']

beforeEach(async () => {
  env = await startNotifyApp()
  ;({ app, receiver, clock } = env)
})
afterEach(() => env.close())

/** A poll with hot VMs on pve1 (vmids of `pve1`) and on pve2 (of `pve2`). */
function twoNodes(pve1: number[], pve2: number[], tick: number): CollectedState {
  const base = cpuPoll(Object.fromEntries(pve1.map((v) => [v, 0.95])), tick)
  const other = cpuPoll(Object.fromEntries(pve2.map((v) => [v, 0.95])), tick).vms.map((g) => ({
    ...g,
    id: `lab-pve2-${g.vmid}`,
    node: 'pve2',
  }))
  return { ...base, vms: [...base.vms, ...other] }
}

const post = (payload: unknown) =>
  app.http.inject({ method: 'POST', url: '/api/alerts/silences', payload: payload as object })

async function deliveries(): Promise<DeliveryRecord[]> {
  return (await app.http.inject({ url: '/api/notifications/deliveries' })).json()
}

const published = (): Alert[] => app.live.current().state.activeAlerts as Alert[]
const sentKeys = () => receiver.received.map((r) => r.batch.events.map((e) => e.alert.id)).flat()

async function sendAll() {
  await app.notify.dispatcher.settled()
  for (let i = 0; i < 5; i++) await app.notify.outbox.drain()
}

describe('silence routes', () => {
  it.each([
    [{}, 'target'],
    [{ target: { kind: 'planet', id: 'x' }, durationMinutes: 60 }, 'target.kind'],
    [{ target: { kind: 'node', instance: 'lab' }, durationMinutes: 60 }, 'target.node'],
    [{ target: { kind: 'guest', id: '' }, durationMinutes: 60 }, 'target.id'],
    [{ target: { kind: 'search', query: '   ' }, durationMinutes: 60 }, 'target.query'],
    [{ target: { kind: 'alert', alertId: 'a b' }, durationMinutes: 60 }, 'target.alertId'],
    [{ target: { kind: 'tag', tag: 'db' } }, 'endsAt'],
    [{ target: { kind: 'tag', tag: 'db' }, durationMinutes: 0 }, 'durationMinutes'],
    [{ target: { kind: 'tag', tag: 'db' }, durationMinutes: 60, endsAt: 1 }, 'durationMinutes'],
    [{ target: { kind: 'tag', tag: 'db' }, endsAt: 'yesterday' }, 'endsAt'],
    [{ target: { kind: 'tag', tag: 'db' }, endsAt: 1000 }, 'endsAt'],
    [{ target: { kind: 'tag', tag: 'db' }, durationMinutes: 60, comment: 7 }, 'comment'],
    [{ target: { kind: 'tag', tag: 'db' }, durationMinutes: 60, extra: 1 }, 'body'],
    [
      {
        target: { kind: 'tag', tag: 'db' },
        window: { days: { monday: true }, start: '01:00', end: '02:00', timezone: 'UTC' },
      },
      'window.days.tuesday',
    ],
    [
      {
        target: { kind: 'tag', tag: 'db' },
        window: {
          days: weekdays(false),
          start: '01:00',
          end: '02:00',
          timezone: 'UTC',
        },
      },
      'window.days',
    ],
    [
      {
        target: { kind: 'tag', tag: 'db' },
        window: { days: weekdays(true), start: '25:00', end: '02:00', timezone: 'UTC' },
      },
      'window.start',
    ],
    [
      {
        target: { kind: 'tag', tag: 'db' },
        window: { days: weekdays(true), start: '01:00', end: '01:00', timezone: 'UTC' },
      },
      'window.end',
    ],
    [
      {
        target: { kind: 'tag', tag: 'db' },
        window: { days: weekdays(true), start: '01:00', end: '02:00', timezone: 'Mars/Base' },
      },
      'window.timezone',
    ],
  ])('refuses %j naming %s, and stores nothing', async (payload, field) => {
    const res = await post(payload)
    expect(res.statusCode).toBe(400)
    expect(res.json().message).toMatch(new RegExp(`^${field.replace('.', '\\.')}\\b`))
    const list = await app.http.inject({ url: '/api/alerts/silences' })
    expect(list.json()).toEqual([])
  })

  it('creates, lists by state, ends early once, and answers 404 for an unknown id', async () => {
    const res = await post({
      target: { kind: 'node', instance: 'lab', node: 'pve1' },
      durationMinutes: 60,
      comment: 'rebooting pve1',
    })
    expect(res.statusCode).toBe(201)
    const created = res.json() as SilenceView
    expect(created).toMatchObject({
      state: 'active',
      author: 'anonymous',
      comment: 'rebooting pve1',
      startsAt: new Date(clock.t).toISOString(),
      endsAt: new Date(clock.t + HOUR).toISOString(),
      activeUntil: new Date(clock.t + HOUR).toISOString(),
    })
    const later = await post({
      target: { kind: 'tag', tag: 'db' },
      startsAt: clock.t + 2 * HOUR,
      durationMinutes: 30,
    })
    expect(later.json()).toMatchObject({
      state: 'upcoming',
      nextStart: new Date(clock.t + 2 * HOUR).toISOString(),
    })
    const active = await app.http.inject({ url: '/api/alerts/silences?state=active' })
    expect(active.json().map((s: SilenceView) => s.id)).toEqual([created.id])
    const bad = await app.http.inject({ url: '/api/alerts/silences?state=soon' })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().message).toMatch(/^state\b/)

    clock.t += 60_000
    const ended = await app.http.inject({
      method: 'DELETE',
      url: `/api/alerts/silences/${created.id}`,
    })
    expect(ended.statusCode).toBe(200)
    expect(ended.json()).toMatchObject({
      state: 'ended',
      endedAt: new Date(clock.t).toISOString(),
      endedBy: 'anonymous',
    })
    const again = await app.http.inject({
      method: 'DELETE',
      url: `/api/alerts/silences/${created.id}`,
    })
    expect(again.json().endedAt).toBe(new Date(clock.t).toISOString())
    const missing = await app.http.inject({ method: 'DELETE', url: '/api/alerts/silences/nope' })
    expect(missing.statusCode).toBe(404)

    const audit = app.auth.audit.list(10).map((e) => [e.type, e.detail])
    expect(audit).toEqual(
      expect.arrayContaining([
        ['silence_created', expect.stringContaining('node lab/pve1')],
        ['silence_ended', 'node lab/pve1 ended early'],
      ]),
    )
  })

  it('keeps silences across a restart on the same database', async () => {
    const id = (
      await post({ target: { kind: 'guest', id: 'lab-pve1-101' }, durationMinutes: 240 })
    ).json().id as string
    const other = (await post({ target: { kind: 'tag', tag: 'web' }, durationMinutes: 60 })).json()
      .id as string
    await app.http.inject({ method: 'DELETE', url: `/api/alerts/silences/${other}` })
    app = await env.restart()
    const list = (await app.http.inject({ url: '/api/alerts/silences' })).json() as SilenceView[]
    expect(list.map((s) => [s.id, s.state])).toEqual([
      [other, 'ended'],
      [id, 'active'],
    ])
  })
})

describe('silenced alerts', () => {
  it('shows a silenced alert, sends nothing for it, and sends a fresh alert of another node', async () => {
    const res = await post({
      target: { kind: 'node', instance: 'lab', node: 'pve1' },
      durationMinutes: 60,
      comment: 'rebooting pve1',
    })
    const silence = res.json() as SilenceView
    await poll(app, clock, twoNodes([101], [201], 1))
    await app.alerts.settled()
    const alerts = published()
    const onPve1 = alerts.find((a) => a.resourceId === 'lab-pve1-101')!
    const onPve2 = alerts.find((a) => a.resourceId === 'lab-pve2-201')!
    expect(onPve1.silenced).toEqual({ silenceId: silence.id, until: silence.endsAt })
    expect(onPve2.silenced).toBeUndefined()
    // The stored alert is not marked: the mark is the silence's, shown while it lasts, in the
    // live state and in the API's active list.
    expect(app.alerts.active().find((a) => a.id === onPve1.id)!.silenced).toBeUndefined()
    const listed = (await app.http.inject({ url: '/api/alerts/active' })).json() as Alert[]
    expect(listed.find((a) => a.id === onPve1.id)!.silenced?.silenceId).toBe(silence.id)

    await sendAll()
    expect(sentKeys()).toEqual([onPve2.id])
    const rows = await deliveries()
    expect(rows).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ status: 'suppressed', reason: 'silenced' }),
      ]),
    )

    // Ended early: the alert still firing on pve1 is notified, once.
    clock.t += 10 * 60_000
    await app.http.inject({ method: 'DELETE', url: `/api/alerts/silences/${silence.id}` })
    await sendAll()
    expect(sentKeys()).toEqual([onPve2.id, onPve1.id])
    expect(published().find((a) => a.id === onPve1.id)!.silenced).toBeUndefined()
    // A second silence of the same occurrence, ended too, tells nobody again.
    const second = (
      await post({ target: { kind: 'alert', alertId: onPve1.id }, durationMinutes: 60 })
    ).json() as SilenceView
    await app.http.inject({ method: 'DELETE', url: `/api/alerts/silences/${second.id}` })
    await sendAll()
    expect(sentKeys()).toEqual([onPve2.id, onPve1.id])
  })

  it('lets a silence run out on its own and notifies what still fires', async () => {
    await post({ target: { kind: 'guest', id: 'lab-pve1-101' }, durationMinutes: 60 })
    await poll(app, clock, twoNodes([101], [], 1))
    await app.alerts.settled()
    await sendAll()
    expect(sentKeys()).toEqual([])
    clock.t += HOUR
    app.silences.tick()
    await sendAll()
    expect(sentKeys()).toEqual(['lab-pve1-101-cpu'])
  })

  it('does not notify after a silence an alert that resolved during it', async () => {
    const silence = (
      await post({ target: { kind: 'search', query: 'vm-101' }, durationMinutes: 60 })
    ).json() as SilenceView
    await poll(app, clock, twoNodes([101], [], 1))
    await app.alerts.settled()
    expect(published()[0]!.silenced?.silenceId).toBe(silence.id)
    await poll(app, clock, twoNodes([], [], 2))
    await app.alerts.settled()
    await app.http.inject({ method: 'DELETE', url: `/api/alerts/silences/${silence.id}` })
    await sendAll()
    expect(receiver.received).toEqual([])
  })
})

function weekdays(on: boolean) {
  return {
    monday: on,
    tuesday: on,
    wednesday: on,
    thursday: on,
    friday: on,
    saturday: on,
    sunday: on,
  }
}
