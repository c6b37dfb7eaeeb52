// /api/alerts over real HTTP routes (app.inject) against a real SQLite file, the alerts raised by
// the engine from polls applied to the live state.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Alert, BulkAlertResult, HistoryAlert } from '../../../../src/shared/model/alerts.ts'
import type { App } from '../../../../src/server/app.ts'
import { cpuPoll, createClock, poll } from '../alerts/alert-fixture.ts'
import { startAlertApp, type AlertAppEnv } from '../support/alert-apps.ts'

let env: AlertAppEnv
let app: App
const clock = createClock()

beforeEach(async () => {
  env = await startAlertApp(clock)
  app = env.app
})
afterEach(() => env.close())

const get = (url: string) => app.http.inject({ method: 'GET', url })
const post = (url: string, payload?: unknown) =>
  app.http.inject({ method: 'POST', url, payload: payload as object | undefined })
const active = async () => (await get('/api/alerts/active')).json() as Alert[]

/** Two hot VMs (101, 102) and a cool one (103). */
async function raiseTwo(): Promise<Alert[]> {
  await poll(app, clock, cpuPoll({ 101: 0.95, 102: 0.85, 103: 0.1 }, 1))
  const alerts = await active()
  expect(alerts.map((a) => a.resourceId).sort()).toEqual(['lab-pve1-101', 'lab-pve1-102'])
  return alerts.sort((a, b) => a.resourceId.localeCompare(b.resourceId))
}

describe('GET/PUT /api/alerts/config', () => {
  it('saves a full config and answers it back', async () => {
    const config = (await get('/api/alerts/config')).json()
    config.guestDefaults.cpu = { trigger: 70, clear: 60 }
    const res = await app.http.inject({ method: 'PUT', url: '/api/alerts/config', payload: config })
    expect(res.json()).toEqual({ status: 'success' })
    expect((await get('/api/alerts/config')).json().guestDefaults.cpu).toEqual({
      trigger: 70,
      clear: 60,
    })
  })

  it('refuses an invalid config with 400 naming the field and saves nothing', async () => {
    const before = (await get('/api/alerts/config')).json()
    const bad = structuredClone(before)
    bad.guestDefaults.cpu.trigger = 500
    const res = await app.http.inject({ method: 'PUT', url: '/api/alerts/config', payload: bad })
    expect(res.statusCode).toBe(400)
    expect(res.json().error).toMatch(/^guestDefaults\.cpu\.trigger: /)
    expect((await get('/api/alerts/config')).json()).toEqual(before)
  })
})

describe('acknowledge, unacknowledge, clear', () => {
  it('acknowledges with the given user, and unacknowledges', async () => {
    const [first] = await raiseTwo()
    const url = `/api/alerts/${encodeURIComponent(first!.id)}`
    const res = await post(`${url}/acknowledge`, { user: 'ops' })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ success: true })
    let alert = (await active()).find((a) => a.id === first!.id)!
    expect(alert).toMatchObject({ acknowledged: true, ackUser: 'ops' })
    expect(Date.parse(alert.ackTime!)).toBe(clock.t)
    // The live state carries it at once, without a poll.
    await app.live.republish()
    const live = app.live.current().state.activeAlerts.find((a) => a.id === first!.id)
    expect(live).toMatchObject({ acknowledged: true })

    expect((await post(`${url}/unacknowledge`)).json()).toEqual({ success: true })
    alert = (await active()).find((a) => a.id === first!.id)!
    expect(alert.acknowledged).toBe(false)
    expect(alert.ackUser).toBeUndefined()
  })

  it("with authentication disabled, names the acknowledging user 'anonymous', as Security and the log do", async () => {
    const [first, second] = await raiseTwo()
    await post(`/api/alerts/${encodeURIComponent(first!.id)}/acknowledge`)
    expect((await active()).find((a) => a.id === first!.id)!.ackUser).toBe('anonymous')
    await post('/api/alerts/bulk/acknowledge', { alertIds: [second!.id] })
    expect((await active()).find((a) => a.id === second!.id)!.ackUser).toBe('anonymous')
    const history = (await get('/api/alerts/history')).json() as HistoryAlert[]
    expect(history.find((row) => row.id === first!.id)!.ackUser).toBe('anonymous')
  })

  it('answers 404 for an unknown alert and 400 for an invalid id or user', async () => {
    await raiseTwo()
    const missing = await post('/api/alerts/no-such-alert/acknowledge', {})
    expect(missing.statusCode).toBe(404)
    expect(missing.json().error).toBe('alert not found: no-such-alert')
    expect((await post('/api/alerts/no-such-alert/unacknowledge')).statusCode).toBe(404)
    for (const id of ['bad%20id', 'x'.repeat(501), 'semi%3Bcolon']) {
      const res = await post(`/api/alerts/${id}/acknowledge`, {})
      expect(res.statusCode, id).toBe(400)
      expect(res.json().error).toBe('Invalid alert ID')
    }
    const [first] = await active()
    const res = await post(`/api/alerts/${first!.id}/acknowledge`, { user: 'u'.repeat(101) })
    expect(res.statusCode).toBe(400)
    expect(res.json().error).toMatch(/^user: /)
    expect((await active()).every((a) => !a.acknowledged)).toBe(true)
  })

  it('takes ids with slashes and up to 500 characters', async () => {
    expect((await post(`/api/alerts/${'a'.repeat(500)}/acknowledge`)).statusCode).toBe(404)
    const res = await post(`/api/alerts/disk-health-lab-pve1-%2Fdev%2Fsda/acknowledge`)
    expect(res.json().error).toBe('alert not found: disk-health-lab-pve1-/dev/sda')
  })

  it('clears an alert: gone from the active list, its history occurrence ended as cleared', async () => {
    const [first] = await raiseTwo()
    expect((await post(`/api/alerts/${first!.id}/clear`)).json()).toEqual({ success: true })
    expect((await active()).map((a) => a.id)).not.toContain(first!.id)
    const history = (await get(`/api/alerts/history?resourceId=${first!.resourceId}`)).json()
    expect(history[0]).toMatchObject({ id: first!.id, status: 'resolved', endReason: 'cleared' })
    // Idempotent, as the reference: clearing it again still succeeds.
    expect((await post(`/api/alerts/${first!.id}/clear`)).statusCode).toBe(200)
  })
})

describe('bulk routes', () => {
  it('acknowledges several alerts and reports the unknown ones', async () => {
    const alerts = await raiseTwo()
    const ids = [...alerts.map((a) => a.id), 'gone-cpu']
    const res = await post('/api/alerts/bulk/acknowledge', { alertIds: ids, user: 'night' })
    const body = res.json() as BulkAlertResult
    expect(body.results).toEqual([
      { alertId: ids[0], success: true },
      { alertId: ids[1], success: true },
      expect.objectContaining({ alertId: 'gone-cpu', success: false }),
    ])
    expect((await active()).every((a) => a.acknowledged && a.ackUser === 'night')).toBe(true)
  })

  it('unacknowledges several alerts (issue 28) and reports the unknown ones', async () => {
    const alerts = await raiseTwo()
    const ids = alerts.map((a) => a.id)
    await post('/api/alerts/bulk/acknowledge', { alertIds: ids })
    const res = await post('/api/alerts/bulk/unacknowledge', { alertIds: [...ids, 'gone-cpu'] })
    expect(res.statusCode).toBe(200)
    expect((res.json() as BulkAlertResult).results).toEqual([
      { alertId: ids[0], success: true },
      { alertId: ids[1], success: true },
      expect.objectContaining({ alertId: 'gone-cpu', success: false }),
    ])
    expect((await active()).map((a) => a.acknowledged)).toEqual([false, false])
  })

  it('clears several alerts', async () => {
    const alerts = await raiseTwo()
    const res = await post('/api/alerts/bulk/clear', { alertIds: alerts.map((a) => a.id) })
    expect((res.json() as BulkAlertResult).results.every((r) => r.success)).toBe(true)
    expect(await active()).toEqual([])
  })

  it('refuses a missing or empty id list, and an invalid id, changing nothing', async () => {
    const alerts = await raiseTwo()
    for (const route of ['acknowledge', 'unacknowledge', 'clear']) {
      for (const payload of [{}, { alertIds: [] }, undefined]) {
        const res = await post(`/api/alerts/bulk/${route}`, payload)
        expect(res.statusCode).toBe(400)
        expect(res.json().error).toBe('No alert IDs provided')
      }
      const res = await post(`/api/alerts/bulk/${route}`, { alertIds: [alerts[0]!.id, 'a b'] })
      expect(res.statusCode).toBe(400)
      expect(res.json().error).toBe('alertIds.1: Invalid alert ID')
      const notList = await post(`/api/alerts/bulk/${route}`, { alertIds: 'all' })
      expect(notList.statusCode).toBe(400)
      expect(notList.json().error).toMatch(/^alertIds: /)
    }
    expect((await active()).map((a) => a.acknowledged)).toEqual([false, false])
  })
})

describe('history', () => {
  it('records an occurrence per firing, newest first, with X-Total-Count', async () => {
    await raiseTwo()
    await poll(app, clock, cpuPoll({ 101: 0.1, 102: 0.85, 103: 0.1 }, 2))
    const res = await get('/api/alerts/history')
    expect(res.headers['x-total-count']).toBe('2')
    const rows = res.json() as HistoryAlert[]
    const byResource = Object.fromEntries(rows.map((r) => [r.resourceId, r]))
    expect(byResource['lab-pve1-101']).toMatchObject({ status: 'resolved', endReason: 'resolved' })
    expect(byResource['lab-pve1-102']).toMatchObject({ status: 'active', resourceType: 'VM' })
    expect(byResource['lab-pve1-101']!.duration).toBe(10_000)
  })

  it('refuses bad query values with 400 naming the parameter', async () => {
    for (const [query, name] of [
      ['limit=0', 'limit'],
      ['limit=abc', 'limit'],
      ['offset=-1', 'offset'],
      ['since=yesterday', 'since'],
      ['severity=info', 'severity'],
    ]) {
      const res = await get(`/api/alerts/history?${query}`)
      expect(res.statusCode, query).toBe(400)
      expect(res.json().error.startsWith(`${name}: `), query).toBe(true)
    }
  })

  it('clears the history (audited) and keeps the occurrences still active', async () => {
    await raiseTwo()
    await poll(app, clock, cpuPoll({ 101: 0.1, 102: 0.85 }, 2))
    const res = await app.http.inject({ method: 'DELETE', url: '/api/alerts/history' })
    expect(res.json()).toEqual({ status: 'success', message: 'Alert history cleared' })
    const rows = (await get('/api/alerts/history')).json() as HistoryAlert[]
    expect(rows.map((r) => r.resourceId)).toEqual(['lab-pve1-102'])
    const audit = app.auth.audit.list(10)
    expect(audit[0]).toMatchObject({
      type: 'alert_history_cleared',
      detail: '1 history rows deleted',
    })
  })
})
