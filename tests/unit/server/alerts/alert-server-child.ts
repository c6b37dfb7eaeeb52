// Forked by kill9.test.ts: the real app on PULSE_DATA_DIR, listening on 127.0.0.1. With
// ALERT_CHILD_RAISE=1 it first applies a poll with a hot VM (delays off) so an alert is active.
// Reports its port over IPC; the parent then talks to it over real HTTP and kills it.
import type { AddressInfo } from 'node:net'
import { buildAppOn, cpuPoll, createClock, poll, useNoDelays } from './alert-fixture.ts'

const clock = createClock()
const app = await buildAppOn(process.env.PULSE_DATA_DIR!, clock.now)
if (process.env.ALERT_CHILD_RAISE === '1') {
  await useNoDelays(app)
  await poll(app, clock, cpuPoll({ 101: 0.95 }, 1))
}
await app.http.listen({ port: 0, host: '127.0.0.1' })
process.send?.({ type: 'ready', port: (app.http.server.address() as AddressInfo).port })
process.on('disconnect', () => process.exit(0))
