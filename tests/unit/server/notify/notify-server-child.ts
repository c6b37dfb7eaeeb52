// Forked by crash.test.ts: the real app on PULSE_DATA_DIR with one test webhook destination at
// NOTIFY_CHILD_URL and the test channel (the real webhook channel is another part's), on the
// wall clock so the outbox's backoff runs. With NOTIFY_CHILD_RAISE=N it first applies a poll with
// N hot VMs (delays off), so N alerts fire (150 or more take the storm path, notify/storm.ts).
// Starts the sender, reports its port over IPC.
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { buildApp } from '../../../../src/server/app.ts'
import { readConfig } from '../../../../src/server/config.ts'
import { cpuPoll, poll, useNoDelays } from '../alerts/alert-fixture.ts'
import { TEST_KDF_COST } from '../helpers.ts'
import { testChannel, webhookTo } from './notify-fixture.ts'

const dataDir = process.env.PULSE_DATA_DIR!
const destination = webhookTo('crash', process.env.NOTIFY_CHILD_URL!)
const clock = { t: 0, now: () => Date.now() }
const app = await buildApp({
  config: {
    ...readConfig(
      { PULSE_DATA_DIR: dataDir, PULSE_STATIC_DIR: path.join(dataDir, 'no-dist') },
      process.cwd(),
      '0.0.0-test',
    ),
    authDisabled: true,
  },
  now: clock.now,
  exportKdfCost: TEST_KDF_COST,
  notify: {
    destinations: () => [destination],
    channels: { webhook: testChannel, email: testChannel },
  },
})
const raise = Number(process.env.NOTIFY_CHILD_RAISE ?? 0)
if (raise > 0) {
  await useNoDelays(app, { groupNotifications: false })
  const cpus: Record<number, number> = {}
  for (let i = 0; i < raise; i++) cpus[101 + i] = 0.95
  await poll(app, clock, cpuPoll(cpus, 1))
}
// NOTIFY_CHILD_HOLD=1: the sender stays off (a kill between planning and the first claim).
if (process.env.NOTIFY_CHILD_HOLD !== '1') app.notify.start()
// A storm's alerts are stored in slices and announced after (alerts/service.ts), then its
// dispatch is planned by the worker: ready once it is in the outbox.
await app.alerts.settled()
await app.notify.dispatcher.settled()
await app.http.listen({ port: 0, host: '127.0.0.1' })
process.send?.({ type: 'ready', port: (app.http.server.address() as AddressInfo).port })
process.on('disconnect', () => process.exit(0))
