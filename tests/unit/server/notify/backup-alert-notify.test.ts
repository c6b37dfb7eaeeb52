// Issue 26: a backup alert goes through the existing notification path: the real app, its alert
// service and dispatcher, a real SQLite outbox and a webhook receiver on 127.0.0.1. The per-guest
// backup summaries (`guestBackups`) are built by the summary builder, which another part wires into
// the live state; here the hand-made state is handed to the alert service's `decorate`, the same
// call the live state makes on every poll.
import { afterEach, beforeEach, expect, it } from 'vitest'
import type { App } from '../../../../src/server/app.ts'
import { createEmptyState, type State } from '../../../../src/shared/model/state.ts'
import { makeGuest, makeNode } from '../alerts/engine-fixture.ts'
import { summary } from '../alerts/backup-fixture.ts'
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

it('delivers a failed backup job alert to the webhook', async () => {
  const guest = makeGuest(101, { name: 'web01' })
  const nowS = clock.t / 1000
  const state: State = {
    ...createEmptyState(clock.t, 'test'),
    nodes: [makeNode()],
    vms: [guest],
    connectionHealth: { lab: true },
    lastUpdate: clock.t,
    backupsCollectedAt: clock.t,
    guestBackups: [
      summary(guest, {
        newest: nowS - 3600 * 20,
        lastJob: { state: 'failed', time: nowS - 600, taskId: 'lab-UPID:1', error: 'disk full' },
      }),
    ],
  }
  app.alerts.decorate(state, clock.t, true)
  // Evaluated in slices of the event loop: wait until this state is.
  await app.alerts.settled()
  const active = (await app.http.inject({ url: '/api/alerts/active' })).json() as { id: string }[]
  expect(active.map((a) => a.id)).toContain('backup-failed-lab-pve1-101')
  await app.notify.outbox.drain()
  await receiver.until((r) => r.length > 0)
  const events = receiver.received.flatMap((r) => r.batch.events)
  expect(events).toEqual([
    expect.objectContaining({
      kind: 'fired',
      alert: expect.objectContaining({
        id: 'backup-failed-lab-pve1-101',
        level: 'critical',
        message: "VM 'web01' (101): backup job failed: disk full",
      }),
    }),
  ])
})
