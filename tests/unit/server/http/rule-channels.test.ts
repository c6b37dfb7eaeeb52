// A custom rule's thresholds and its webhook switch through the real app (issue 28 item 2): the
// rule raises an alert at its own CPU threshold for the guests its filter matches, and with its
// webhook switch off that alert is logged as not sent ('rule') while another guest's alert is
// delivered to the loopback receiver. The clock is the test's.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { App } from '../../../../src/server/app.ts'
import type { Alert, AlertConfig } from '../../../../src/shared/model/alerts.ts'
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

async function addRule(webhook: boolean) {
  const config = (await app.http.inject({ url: '/api/alerts/config' })).json() as AlertConfig
  config.customRules.push({
    id: 'rule-quiet',
    name: 'Quiet VM 101',
    description: '',
    enabled: true,
    priority: 10,
    filterConditions: {
      logicalOperator: 'AND',
      filters: [{ type: 'text', field: '', value: 'vm-101', rawText: 'name:vm-101' }],
    },
    thresholds: { cpu: { trigger: 50, clear: 45 } },
    notifications: { email: { enabled: true }, webhook: { enabled: webhook } },
  })
  const res = await app.http.inject({ method: 'PUT', url: '/api/alerts/config', payload: config })
  expect(res.statusCode).toBe(200)
}

async function sendAll() {
  await app.notify.dispatcher.settled()
  for (let i = 0; i < 5; i++) await app.notify.outbox.drain()
}

const sentIds = () => receiver.received.flatMap((r) => r.batch.events.map((e) => e.alert.id))

describe("a custom rule's thresholds and notification switches", () => {
  it('raises at the rule’s threshold and sends nothing to webhooks when the rule turns them off', async () => {
    await addRule(false)
    // 101 at 60 % (over the rule's 50, under the default 80); 102 at 95 %.
    await poll(app, clock, cpuPoll({ 101: 0.6, 102: 0.95 }, 1))
    await app.alerts.settled()
    const active = app.alerts.active() as Alert[]
    const quiet = active.find((a) => a.resourceId === 'lab-pve1-101')!
    const loud = active.find((a) => a.resourceId === 'lab-pve1-102')!
    expect(quiet).toMatchObject({ type: 'cpu', threshold: 50 })
    expect(loud.threshold).toBe(80)
    await sendAll()
    expect(sentIds()).toEqual([loud.id])
    const rows = (
      await app.http.inject({ url: '/api/notifications/deliveries' })
    ).json() as DeliveryRecord[]
    expect(rows.find((r) => r.alertIds.includes(quiet.id))).toMatchObject({
      status: 'suppressed',
      reason: 'rule',
    })
  })

  it('sends the rule’s alerts when its webhook switch is on', async () => {
    await addRule(true)
    await poll(app, clock, cpuPoll({ 101: 0.6 }, 1))
    await app.alerts.settled()
    await sendAll()
    expect(sentIds()).toEqual([app.alerts.active()[0]!.id])
  })
})
