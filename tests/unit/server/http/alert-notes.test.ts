// Notes on alerts (issue 28 item 4) over the real routes and a real SQLite file: a note carries
// its author and time, shows on the active alert (API and live state), stays with its occurrence
// in History (and History's search finds its text), survives a restart, and does not follow the
// alert into its next occurrence; bad bodies are 400s naming the field and store nothing.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Alert, HistoryAlert } from '../../../../src/shared/model/alerts.ts'
import { ALERT_NOTES_MAX } from '../../../../src/shared/model/alerts.ts'
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
const note = (id: string, payload?: unknown) =>
  app.http.inject({
    method: 'POST',
    url: `/api/alerts/${encodeURIComponent(id)}/notes`,
    payload: payload as object | undefined,
  })
const active = async () => (await get('/api/alerts/active')).json() as Alert[]
const history = async (q = '') =>
  (
    await get(`/api/alerts/history${q ? `?q=${encodeURIComponent(q)}` : ''}`)
  ).json() as HistoryAlert[]

async function raise(): Promise<Alert> {
  await poll(app, clock, cpuPoll({ 101: 0.95 }, 1))
  const [alert] = await active()
  return alert!
}

describe('alert notes', () => {
  it('adds notes with author and time, on the alert, in the live state and in History', async () => {
    const alert = await raise()
    const res = await note(alert.id, { text: '  Rebooting after the kernel update  ' })
    expect(res.statusCode).toBe(201)
    const first = {
      author: 'anonymous',
      at: new Date(clock.t).toISOString(),
      text: 'Rebooting after the kernel update',
    }
    expect(res.json()).toEqual({ note: first, notes: [first] })
    clock.t += 60_000
    await note(alert.id, { text: 'Back up; watching' })
    const listed = (await active()).find((a) => a.id === alert.id)!
    expect(listed.notes?.map((n) => n.text)).toEqual([
      'Rebooting after the kernel update',
      'Back up; watching',
    ])
    await app.live.republish()
    const live = app.live.current().state.activeAlerts.find((a) => a.id === alert.id) as Alert
    expect(live.notes).toHaveLength(2)
    // The alert's next poll keeps them (its history row is refreshed, the search keeps the notes).
    await poll(app, clock, cpuPoll({ 101: 0.97 }, 2))
    expect((await history('kernel update')).map((h) => h.id)).toEqual([alert.id])
    expect((await history())[0]!.notes).toHaveLength(2)
  })

  it('keeps them across a restart, with the occurrence after it ends, and not on the next one', async () => {
    const alert = await raise()
    await note(alert.id, { text: 'disk replaced' })
    app = await env.restart()
    await poll(app, clock, cpuPoll({ 101: 0.95 }, 2))
    expect((await active())[0]!.notes?.[0]?.text).toBe('disk replaced')
    // Resolved: in History with its note; it fires again: the new occurrence has none.
    await poll(app, clock, cpuPoll({ 101: 0.1 }, 3))
    expect(await active()).toEqual([])
    // After the suppression window (5 minutes) a re-crossing opens a new occurrence.
    await poll(app, clock, cpuPoll({ 101: 0.95 }, 40))
    const again = (await active())[0]!
    expect(again.id).toBe(alert.id)
    expect(again.notes).toBeUndefined()
    const rows = await history()
    expect(rows.map((r) => [r.status, r.notes?.length ?? 0])).toEqual([
      ['active', 0],
      ['resolved', 1],
    ])
    expect((await history('replaced')).map((r) => r.status)).toEqual(['resolved'])
  })

  it.each([
    [undefined, 'text'],
    [{}, 'text'],
    [{ text: 7 }, 'text'],
    [{ text: '   ' }, 'text'],
    [{ text: 'x'.repeat(2001) }, 'text'],
    [{ text: 'ok', author: 'mallory' }, 'author'],
  ])('refuses a bad body (%#) naming %s, and stores nothing', async (payload, field) => {
    const alert = await raise()
    const res = await note(alert.id, payload)
    expect(res.statusCode).toBe(400)
    expect(res.json().error).toMatch(new RegExp(`^${field}: `))
    expect((await active())[0]!.notes).toBeUndefined()
  })

  it('answers 404 for an alert that is not active, and 400 when an occurrence is full', async () => {
    expect((await note('no-such-alert', { text: 'x' })).statusCode).toBe(404)
    const alert = await raise()
    for (let i = 0; i < ALERT_NOTES_MAX; i++) await note(alert.id, { text: `note ${i}` })
    const full = await note(alert.id, { text: 'one more' })
    expect(full.statusCode).toBe(400)
    expect(full.json().error).toMatch(/^text: /)
    expect((await active())[0]!.notes).toHaveLength(ALERT_NOTES_MAX)
  })
})
