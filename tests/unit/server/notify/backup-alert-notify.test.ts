// Issue 26: a backup alert goes through the existing notification path: the real app, its alert
// service and dispatcher, a real SQLite outbox and a webhook receiver on 127.0.0.1. The per-guest
// backup summaries (`guestBackups`) are built by the summary builder, which another part wires into
// the live state; here the hand-made state is handed to the alert service's `decorate`, the same
// call the live state makes on every poll.
import path from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { buildApp, type App } from '../../../../src/server/app.ts'
import { readConfig } from '../../../../src/server/config.ts'
import { createEmptyState, type State } from '../../../../src/shared/model/state.ts'
import { createClock, useNoDelays } from '../alerts/alert-fixture.ts'
import { makeGuest, makeNode } from '../alerts/engine-fixture.ts'
import { summary } from '../alerts/backup-fixture.ts'
import { TEST_KDF_COST } from '../helpers.ts'
import { makeTempDir } from '../temp-dir.ts'
import { createReceiver, testChannel, webhookTo } from './notify-fixture.ts'

let temp: ReturnType<typeof makeTempDir>
let app: App
let receiver: ReturnType<typeof createReceiver>
let clock: ReturnType<typeof createClock>

beforeEach(async () => {
  temp = makeTempDir()
  receiver = createReceiver()
  const url = await receiver.listen()
  clock = createClock()
  const config = readConfig(
    { PULSE_DATA_DIR: temp.dir, PULSE_STATIC_DIR: path.join(temp.dir, 'no-dist') },
    process.cwd(),
    '0.0.0-test',
  )
  app = await buildApp({
    config: { ...config, authDisabled: true },
    now: clock.now,
    exportKdfCost: TEST_KDF_COST,
    notify: {
      destinations: () => [webhookTo('a', url)],
      channels: { webhook: testChannel, email: testChannel },
    },
  })
  await useNoDelays(app, { groupNotifications: false })
})
afterEach(async () => {
  await app.close()
  await receiver.close()
  temp.cleanup()
})

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
