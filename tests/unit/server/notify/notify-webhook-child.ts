// Forked by crash-webhook.test.ts: the real app on PULSE_DATA_DIR as it runs in production, with
// its stored webhooks and the real (undici) webhook channel, loopback targets allowed
// (WEBHOOK_ALLOW_LOOPBACK=true), on the wall clock so the outbox's backoff runs. The sender starts
// at once; on an IPC message { type: 'raise', count: N } it applies a poll with N hot VMs (delays
// and grouping off), so N alerts fire through the running dispatcher. Reports its port over IPC.
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { buildApp } from '../../../../src/server/app.ts'
import { readConfig } from '../../../../src/server/config.ts'
import { cpuPoll, poll, useNoDelays } from '../alerts/alert-fixture.ts'
import { TEST_KDF_COST } from '../helpers.ts'

const dataDir = process.env.PULSE_DATA_DIR!
const clock = { t: 0, now: () => Date.now() }
const app = await buildApp({
  config: {
    ...readConfig(
      {
        PULSE_DATA_DIR: dataDir,
        PULSE_STATIC_DIR: path.join(dataDir, 'no-dist'),
        WEBHOOK_ALLOW_LOOPBACK: 'true',
      },
      process.cwd(),
      '0.0.0-test',
    ),
    authDisabled: true,
  },
  now: clock.now,
  exportKdfCost: TEST_KDF_COST,
})
app.notify.start()
process.on('message', (message: { type: string; count: number }) => {
  if (message.type !== 'raise') return
  const raise = async () => {
    await useNoDelays(app, { groupNotifications: false })
    const cpus: Record<number, number> = {}
    for (let i = 0; i < message.count; i++) cpus[101 + i] = 0.95
    await poll(app, clock, cpuPoll(cpus, 1))
    process.send?.({ type: 'raised' })
  }
  raise().catch((err: unknown) => {
    console.error(err)
    process.exit(1)
  })
})
await app.http.listen({ port: 0, host: '127.0.0.1' })
process.send?.({ type: 'ready', port: (app.http.server.address() as AddressInfo).port })
process.on('disconnect', () => process.exit(0))
