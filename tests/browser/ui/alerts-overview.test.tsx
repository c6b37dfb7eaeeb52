// Alerts: overview (spec 001 §2, §4 Alert, §8 toasts; spec 000 §4 optimistic acks, §8 ack timeout
// toast) against a fake worker API (the worker's overlay and view are tested in
// tests/unit/worker/alert-ack*.test.ts) and window.fetch stubbed by render.tsx's stubServer: this
// harness has no loopback server; the real routes are tested in tests/unit/server.
import { afterEach, beforeEach, expect, test, vi } from 'vitest'
import { page, userEvent } from 'vitest/browser'
import type {
  AlertsOverviewModel,
  AlertsOverviewRow,
} from '../../../src/shared/views/alerts-overview-types.ts'
import { ACK_BUTTON_HOLD_MS } from '../../../src/ui/alerts/useAlertAck.ts'
import { SUMMARY_REFRESH_MS } from '../../../src/ui/alerts/useOverviewCounters.ts'
import { toastState } from '../../../src/ui/components/toast-store.ts'
import { ACK_TIMEOUT_MESSAGE } from '../../../src/ui/hooks/ConnectionProvider.tsx'
import { callsTo } from './auth-harness.ts'
import { FakeWorker } from './fake-worker.ts'
import { cleanup, renderApp, stubServer } from './render.tsx'

beforeEach(async () => {
  await page.viewport(1280, 800)
  sessionStorage.clear()
})
afterEach(() => {
  cleanup()
  vi.restoreAllMocks()
})

function row(id: string, change: Partial<AlertsOverviewRow> = {}): AlertsOverviewRow {
  return {
    id,
    level: 'critical',
    type: 'cpu',
    resourceName: `vm-${id}`,
    resourceId: `lab-pve1-${id}`,
    node: 'pve1',
    instance: 'lab',
    message: 'VM cpu at 95.0%',
    valueText: '95.0%',
    thresholdText: '80.0%',
    startTime: '2025-01-01T11:55:00Z',
    sinceText: '5m ago',
    acknowledged: false,
    ackUser: '',
    ackTime: '',
    stale: false,
    flapping: false,
    silenceId: '',
    silencedText: '',
    resourceType: 'VM',
    pending: false,
    notes: [],
    ...change,
  }
}

function model(rows: AlertsOverviewRow[], change: Partial<AlertsOverviewModel> = {}) {
  const acknowledged = rows.filter((r) => r.acknowledged).length
  return {
    kind: 'alertsOverview',
    version: 1,
    active: rows.length - acknowledged,
    acknowledged,
    // Stands in for the worker's hash of the active occurrences: other ids, another number.
    occurrences: rows.reduce(
      (sum, r) => sum + [...r.id].reduce((h, c) => h * 31 + c.charCodeAt(0), 0),
      0,
    ),
    rowCount: rows.length,
    start: 0,
    rows,
    ...change,
  } satisfies AlertsOverviewModel
}

const CONFIG_OVERRIDES = {
  'lab-pve1-101': { cpu: { trigger: 90, clear: 85 } },
  'lab-pve2-20031': { disabled: true },
  'lab-pve1': { cpu: { trigger: 95, clear: 90 } },
  'lab-pve1-local': { usage: { trigger: 95, clear: 90 } },
  'pbs-main': { cpu: { trigger: 95, clear: 90 } },
}

/** The alert routes the tab calls; `ack` answers the acknowledge and unacknowledge posts. */
const SILENCES = [
  {
    id: 's2',
    target: { kind: 'tag', tag: 'db' },
    comment: '',
    author: 'ann',
    createdAt: '2025-01-01T11:00:00Z',
    startsAt: '2025-01-01T11:00:00Z',
    endsAt: null,
    window: {
      days: {
        monday: false,
        tuesday: false,
        wednesday: false,
        thursday: false,
        friday: false,
        saturday: false,
        sunday: true,
      },
      start: '02:00',
      end: '04:00',
      timezone: 'Europe/Berlin',
    },
    state: 'upcoming',
    nextStart: '2025-01-05T01:00:00Z',
  },
  {
    id: 's1',
    target: { kind: 'node', instance: 'lab', node: 'pve3' },
    comment: 'rebooting',
    author: 'ann',
    createdAt: '2025-01-01T11:50:00Z',
    startsAt: '2025-01-01T11:50:00Z',
    endsAt: '2025-01-01T12:50:00Z',
    state: 'active',
    activeUntil: '2025-01-01T12:50:00Z',
  },
]

const EXISTING_NOTES = [{ author: 'ann', at: '2025-01-01T11:56:00Z', text: 'Looking at it' }]

function alertServer(
  ack: () => Response | Promise<Response> = () => Response.json({ success: true }),
) {
  return stubServer({
    route: (url, init) => {
      const path = new URL(url, window.location.href).pathname
      if (path === '/api/alerts/config') return Response.json({ overrides: CONFIG_OVERRIDES })
      if (path === '/api/alerts/history/summary') {
        return Response.json({ total: 40, last24h: 7, buckets: [] })
      }
      if (init?.method === 'POST' && path.startsWith('/api/alerts/bulk/')) {
        const { alertIds } = JSON.parse(String(init.body)) as { alertIds: string[] }
        return Response.json({
          results: alertIds.map((alertId) => ({ alertId, success: alertId !== 'gone' })),
        })
      }
      if (init?.method === 'POST' && /^\/api\/alerts\/[^/]+\/(un)?acknowledge$/.test(path)) {
        return ack()
      }
      if (init?.method === 'POST' && /^\/api\/alerts\/[^/]+\/notes$/.test(path)) {
        const { text } = JSON.parse(String(init.body)) as { text: string }
        const note = { author: 'admin', at: '2025-01-01T12:00:00Z', text }
        return Response.json({ note, notes: [...EXISTING_NOTES, note] }, { status: 201 })
      }
      if (path === '/api/alerts/silences' && init?.method === 'POST')
        return Response.json({ id: 'new', state: 'active' }, { status: 201 })
      if (path === '/api/alerts/silences') return Response.json(SILENCES)
      if (path.startsWith('/api/alerts/silences/') && init?.method === 'DELETE')
        return Response.json({ id: path.split('/').at(-1), state: 'ended' })
      return undefined
    },
  })
}

/** Holds the timers whose delay `match` accepts so the test fires them (no waiting on the clock). */
function holdTimers(match: (ms: number) => boolean): Array<() => void> {
  const held: Array<() => void> = []
  const real = window.setTimeout.bind(window)
  vi.spyOn(window, 'setTimeout').mockImplementation(((
    handler: TimerHandler,
    ms?: number,
    ...args: unknown[]
  ) => {
    if (typeof ms === 'number' && match(ms) && typeof handler === 'function') {
      held.push(() => void (handler as () => void)())
      return 0
    }
    return real(handler, ms, ...args)
  }) as typeof window.setTimeout)
  return held
}

/** The button's 1.5 s re-enable timers. */
const holdAckTimers = () => holdTimers((ms) => ms === ACK_BUTTON_HOLD_MS)
/** The summary's trailing re-read: the rest of SUMMARY_REFRESH_MS after the first read. */
const holdSummaryTimers = () =>
  holdTimers((ms) => ms > SUMMARY_REFRESH_MS / 2 && ms <= SUMMARY_REFRESH_MS)

const toastOf = (text: string) => toastState.toasts.find((t) => t.message === text)

test('shows a loading state, not "No active alerts", before the first model', async () => {
  alertServer()
  renderApp(new FakeWorker(), '/alerts/overview')
  await expect.element(page.getByText('Loading alerts...')).toBeVisible()
  expect(document.body.textContent).not.toContain('No active alerts')
})

test('with no alerts says so, and explains when alerts appear', async () => {
  alertServer()
  const api = new FakeWorker()
  api.alertsOverview = model([])
  renderApp(api, '/alerts/overview')
  await expect.element(page.getByText('No active alerts', { exact: true })).toBeVisible()
  await expect
    .element(page.getByText('Alerts will appear here when thresholds are exceeded'))
    .toBeVisible()
})

test('shows the four counters: from the worker, the history summary and the config', async () => {
  const fetchMock = alertServer()
  const api = new FakeWorker()
  api.alertsOverview = model([row('a1'), row('a2'), row('a3', { acknowledged: true })])
  renderApp(api, '/alerts/overview')
  const counter = (label: string) =>
    [...document.querySelectorAll('dt')].find((dt) => dt.textContent === label)?.parentElement
  // Every active alert, as the list and GET /api/alerts/active count them (issue 24 #28).
  await expect.poll(() => counter('Active Alerts')?.textContent).toBe('Active Alerts3')
  expect(counter('Acknowledged')?.textContent).toBe('Acknowledged1')
  await expect.poll(() => counter('Last 24 Hours')?.textContent).toBe('Last 24 Hours7')
  // Two guests of the five override keys (a node, a storage and a PBS server are not).
  await expect.poll(() => counter('Guest Overrides')?.textContent).toBe('Guest Overrides2')
  expect(callsTo(fetchMock, 'GET', '/api/alerts/history/summary')).toHaveLength(1)
})

test('re-reads Last 24 Hours when one alert ends and another fires in the same poll', async () => {
  let served = 5
  const fetchMock = stubServer({
    route: (url) => {
      const path = new URL(url, window.location.href).pathname
      if (path === '/api/alerts/config') return Response.json({ overrides: {} })
      if (path === '/api/alerts/history/summary') {
        return Response.json({ total: served, last24h: served, buckets: [] })
      }
      return undefined
    },
  })
  const held = holdSummaryTimers()
  const api = new FakeWorker()
  api.alertsOverview = model([row('a1'), row('a2')])
  renderApp(api, '/alerts/overview')
  const counter = () =>
    [...document.querySelectorAll('dt')].find((dt) => dt.textContent === 'Last 24 Hours')
      ?.parentElement?.textContent
  await expect.poll(() => counter()).toBe('Last 24 Hours5')
  // a2 resolved, a3 fired: the same two active alerts by count.
  served = 6
  api.pushAlerts(model([row('a1'), row('a3')], { version: 2 }))
  await expect.poll(() => held.length).toBe(1)
  held[0]!()
  await expect.poll(() => counter()).toBe('Last 24 Hours6')
  expect(callsTo(fetchMock, 'GET', '/api/alerts/history/summary')).toHaveLength(2)
})

test('keeps the Last 24 Hours answer when the alerts changed while it was on its way', async () => {
  let answer: (response: Response) => void = () => {}
  const held = new Promise<Response>((resolve) => (answer = resolve))
  stubServer({
    route: (url) => {
      const path = new URL(url, window.location.href).pathname
      if (path === '/api/alerts/config') return Response.json({ overrides: {} })
      if (path === '/api/alerts/history/summary') return held
      return undefined
    },
  })
  const api = new FakeWorker()
  api.alertsOverview = model([row('a1')])
  renderApp(api, '/alerts/overview')
  const counter = () =>
    [...document.querySelectorAll('dt')].find((dt) => dt.textContent === 'Last 24 Hours')
      ?.parentElement?.textContent
  await expect.poll(() => counter()).toBe('Last 24 Hours–')
  // A busy estate: the active set changes before the summary answers.
  api.pushAlerts(model([row('a1'), row('a2')]))
  await expect.poll(() => counter()).toBe('Last 24 Hours–')
  answer(Response.json({ total: 12, last24h: 12, buckets: [] }))
  await expect.poll(() => counter()).toBe('Last 24 Hours12')
})

test('lists alerts with level, resource, node, message, start and markers', async () => {
  alertServer()
  const api = new FakeWorker()
  api.alertsOverview = model([
    row('a1', { stale: true }),
    row('a2', { level: 'warning', flapping: true, acknowledged: true, ackUser: 'admin' }),
  ])
  renderApp(api, '/alerts/overview')
  const table = page.getByRole('table', { name: 'Active alerts' })
  await expect.element(table).toBeVisible()
  expect(
    page
      .getByRole('columnheader')
      .elements()
      .map((h) => h.textContent),
  ).toEqual(['', 'Level', 'Resource', 'Message', 'Started', 'Action'])
  await expect
    .element(page.getByRole('checkbox', { name: 'Select all 2 matching alerts' }))
    .toBeVisible()
  const first = document.querySelector('[data-alert-id="a1"]')!
  expect(first.textContent).toContain('critical')
  expect(first.textContent).toContain('vm-a1')
  expect(first.textContent).toContain('pve1')
  expect(first.textContent).toContain('VM cpu at 95.0%')
  expect(first.textContent).toContain('5m ago')
  expect(first.textContent).toContain('Stale')
  const second = document.querySelector('[data-alert-id="a2"]')!
  expect(second.textContent).toContain('Flapping')
  expect(second.textContent).toContain('Ack')
  expect([...second.querySelectorAll('button')].at(-1)?.textContent).toBe('Unacknowledge')
})

test('marks a silenced alert with its time left, and silences another from its row', async () => {
  const fetchMock = alertServer()
  const api = new FakeWorker()
  api.alertsOverview = model([
    row('a1', { silenceId: 's1', silencedText: '43m left' }),
    row('a2', { resourceId: 'lab-pve1-102', resourceName: 'vm-a2' }),
  ])
  renderApp(api, '/alerts/overview')
  await expect.element(page.getByText('Silenced · 43m left')).toBeVisible()
  expect(document.querySelector('[data-alert-id="a2"]')!.textContent).not.toContain('Silenced')

  await page.getByRole('button', { name: /^Silence vm-a2/ }).click()
  const dialog = page.getByRole('dialog', { name: 'Silence: vm-a2' })
  await expect.element(dialog).toBeVisible()
  // The alert's guest is offered first; its node silences everything on it.
  await expect.element(dialog.getByRole('radio', { name: 'guest vm-a2' })).toBeChecked()
  await dialog.getByRole('radio', { name: /node pve1 \(lab\)/ }).click()
  await dialog.getByRole('button', { name: '4 h', exact: true }).click()
  await dialog.getByLabelText('Comment').fill('kernel update')
  await dialog.getByRole('button', { name: 'Silence', exact: true }).click()
  await expect.poll(() => callsTo(fetchMock, 'POST', '/api/alerts/silences').length).toBe(1)
  const [, init] = callsTo(fetchMock, 'POST', '/api/alerts/silences')[0]!
  expect(JSON.parse(String(init?.body))).toEqual({
    target: { kind: 'node', instance: 'lab', node: 'pve1' },
    comment: 'kernel update',
    durationMinutes: 240,
  })
  await expect.element(dialog).not.toBeInTheDocument()
})

test('lists active and upcoming silences, and ends one early', async () => {
  const fetchMock = alertServer()
  const api = new FakeWorker()
  api.alertsOverview = model([row('a1')])
  renderApp(api, '/alerts/overview')
  const list = page.getByRole('list', { name: 'Active and upcoming silences' })
  await expect.element(list).toBeVisible()
  const items = list.getByRole('listitem')
  await expect.poll(() => items.elements().map((li) => li.dataset.silenceId)).toEqual(['s1', 's2'])
  expect(items.elements()[0]!.textContent).toContain('node pve3 (lab) and everything on it')
  expect(items.elements()[0]!.textContent).toContain('rebooting')
  expect(items.elements()[1]!.textContent).toContain('guests tagged db')
  expect(items.elements()[1]!.textContent).toContain('Sun 02:00–04:00 Europe/Berlin')
  await page.getByRole('button', { name: /^End the silence of node pve3/ }).click()
  await expect.poll(() => callsTo(fetchMock, 'DELETE', '/api/alerts/silences/s1').length).toBe(1)
})

const bulkBodies = (mock: ReturnType<typeof stubServer>, action: string) =>
  callsTo(mock, 'POST', `/api/alerts/bulk/${action}`).map(
    ([, init]) => (JSON.parse(String(init!.body)) as { alertIds: string[] }).alertIds,
  )

test('bulk: picks alerts by their checkboxes and acknowledges, unacknowledges and clears them', async () => {
  const fetchMock = alertServer()
  const api = new FakeWorker()
  api.alertsOverview = model([row('a1'), row('a2'), row('a3'), row('gone')])
  renderApp(api, '/alerts/overview')
  const pick = (id: string) =>
    page.getByRole('checkbox', { name: `Select vm-${id}: VM cpu at 95.0%` })
  await pick('a1').click()
  await pick('a3').click()
  const bar = page.getByRole('toolbar', { name: 'Selected alerts' })
  await expect.element(bar).toHaveTextContent(/2 alerts selected/)
  await bar.getByRole('button', { name: 'Acknowledge', exact: true }).click()
  await expect.poll(() => bulkBodies(fetchMock, 'acknowledge')).toEqual([['a1', 'a3']])
  await expect.poll(() => toastOf('2 alerts acknowledged')).toBeTruthy()
  // Done: the selection is gone.
  await expect.element(bar).not.toBeInTheDocument()
  await pick('a2').click()
  await pick('gone').click()
  await bar.getByRole('button', { name: 'Unacknowledge' }).click()
  await expect.poll(() => bulkBodies(fetchMock, 'unacknowledge')).toEqual([['a2', 'gone']])
  await expect.poll(() => toastOf('1 alert unacknowledged; 1 had already ended')).toBeTruthy()
  // Clear asks first; Cancel sends nothing.
  await pick('a2').click()
  await bar.getByRole('button', { name: 'Clear', exact: true }).click()
  const dialog = page.getByRole('alertdialog', { name: 'Clear 1 alert?' })
  await dialog.getByRole('button', { name: 'Cancel' }).click()
  expect(bulkBodies(fetchMock, 'clear')).toEqual([])
  await bar.getByRole('button', { name: 'Clear', exact: true }).click()
  await page.getByRole('button', { name: 'Clear alerts' }).click()
  await expect.poll(() => bulkBodies(fetchMock, 'clear')).toEqual([['a2']])
})

test('bulk: filters the list, selects all matching, and acts on the ids the worker gives for the filter', async () => {
  const fetchMock = alertServer()
  const api = new FakeWorker()
  const rows = [row('a1'), row('a2', { node: 'pve2' }), row('a3', { node: 'pve2' })]
  api.alertsOverview = model(rows)
  renderApp(api, '/alerts/overview')
  await expect.element(page.getByRole('table', { name: 'Active alerts' })).toBeVisible()
  // Typing anywhere filters (as on Thresholds and History).
  await userEvent.keyboard('pve2')
  await expect.poll(() => api.alertsRequests.at(-1)?.search).toBe('pve2')
  api.pushAlerts(model(rows.slice(1), { version: 2, rowCount: 2 }))
  await page.getByRole('checkbox', { name: 'Select all 2 matching alerts' }).click()
  await expect.poll(() => api.alertsRequests.at(-1)?.withIds).toBe(true)
  const bar = page.getByRole('toolbar', { name: 'Selected alerts' })
  // Until the worker has answered with the ids, the actions wait.
  await expect.element(bar.getByRole('button', { name: 'Acknowledge', exact: true })).toBeDisabled()
  api.pushAlerts(model(rows.slice(1), { version: 3, rowCount: 2, matchingIds: ['a2', 'a3'] }))
  await page.getByRole('checkbox', { name: 'Select vm-a3: VM cpu at 95.0%' }).click()
  await expect.element(bar).toHaveTextContent(/1 alert selected/)
  await bar.getByRole('button', { name: 'Acknowledge', exact: true }).click()
  await expect.poll(() => bulkBodies(fetchMock, 'acknowledge')).toEqual([['a2']])
  // Escape clears the filter and the selection with it.
  await page.getByRole('searchbox', { name: 'Filter alerts' }).click()
  await userEvent.keyboard('{Escape}')
  await expect.poll(() => api.alertsRequests.at(-1)?.search).toBe('')
})

test('notes: the row counts them, the dialog lists them and adds one (issue 28)', async () => {
  const fetchMock = alertServer()
  const api = new FakeWorker()
  api.alertsOverview = model([
    row('a1', {
      notes: [{ ...EXISTING_NOTES[0]!, atText: 'Jan 1, 2025, 11:56' }],
    }),
  ])
  renderApp(api, '/alerts/overview')
  await page.getByRole('button', { name: 'Notes on vm-a1: VM cpu at 95.0% (1 note)' }).click()
  const dialog = page.getByRole('dialog', { name: 'Notes: vm-a1' })
  await expect.element(dialog.getByRole('listitem')).toHaveTextContent(/ann.*Looking at it/)
  const add = dialog.getByRole('button', { name: 'Add note' })
  await expect.element(add).toBeDisabled()
  await dialog.getByRole('textbox', { name: 'New note' }).fill('  Reboot scheduled at 14:00 ')
  await add.click()
  await expect
    .element(dialog.getByRole('list', { name: 'Notes' }))
    .toHaveTextContent(/Reboot scheduled at 14:00/)
  const posted = callsTo(fetchMock, 'POST', '/api/alerts/a1/notes').map(([, init]) =>
    JSON.parse(String(init!.body)),
  )
  expect(posted).toEqual([{ text: 'Reboot scheduled at 14:00' }])
  await expect.element(dialog.getByRole('textbox', { name: 'New note' })).toHaveValue('')
})

test('hides acknowledged alerts on request, and says when none are left', async () => {
  alertServer()
  const api = new FakeWorker()
  api.alertsOverview = model([row('a1', { acknowledged: true })])
  renderApp(api, '/alerts/overview')
  await page.getByRole('button', { name: 'Hide acknowledged' }).click()
  await expect.poll(() => api.alertsRequests.at(-1)?.showAcknowledged).toBe(false)
  api.pushAlerts(model([], { acknowledged: 1, active: 0, version: 2 }))
  await expect.element(page.getByText('No unacknowledged alerts')).toBeVisible()
  await expect.element(page.getByRole('button', { name: 'Show acknowledged' })).toBeVisible()
})

test('acknowledge: the new state shows as soon as the server answers; the button stays disabled for 1.5 s', async () => {
  let answer: (response: Response) => void = () => {}
  const fetchMock = alertServer(() => new Promise<Response>((resolve) => (answer = resolve)))
  const held = holdAckTimers()
  // As the real worker does (spec 000 §4): the ack shows in the model at once.
  class OptimisticWorker extends FakeWorker {
    override setAlertAck(alertId: string, acknowledged: boolean): void {
      super.setAlertAck(alertId, acknowledged)
      this.pushAlerts(model([row(alertId, { acknowledged, pending: true })], { version: 2 }))
    }
  }
  const api = new OptimisticWorker()
  api.alertsOverview = model([row('lab/pve1 101-cpu')])
  renderApp(api, '/alerts/overview')
  await page.getByRole('button', { name: /^Acknowledge vm-lab/ }).click()
  // While the request is in flight (milliseconds on a real server).
  await expect.element(page.getByRole('button', { name: 'Processing...' })).toBeDisabled()
  expect(api.acks).toEqual([{ alertId: 'lab/pve1 101-cpu', acknowledged: true }])
  answer(Response.json({ success: true }))
  await expect.poll(() => toastOf('Alert acknowledged')?.type).toBe('success')
  // Answered: the button reads the new state at once, not 'Processing...' for a fixed 1.5 s.
  const unack = page.getByRole('button', { name: /^Unacknowledge vm-lab/ })
  await expect.element(unack).toBeDisabled()
  expect(page.getByRole('button', { name: 'Processing...' }).query()).toBeNull()
  const calls = callsTo(fetchMock, 'POST', '/api/alerts/lab%2Fpve1%20101-cpu/acknowledge')
  expect(calls).toHaveLength(1)
  expect(calls[0]![1]!.body).toBe('{}')
  expect(held).toHaveLength(1)
  held[0]!()
  await expect.element(unack).toBeEnabled()
})

test('a failed acknowledge drops the pending ack and says so', async () => {
  alertServer(() => Response.json({ error: 'database is locked' }, { status: 500 }))
  const api = new FakeWorker()
  api.alertsOverview = model([row('a1')])
  renderApp(api, '/alerts/overview')
  await page.getByRole('button', { name: /^Acknowledge vm-a1/ }).click()
  await expect.poll(() => toastOf('Failed to acknowledge alert')?.type).toBe('error')
  expect(api.acks).toEqual([
    { alertId: 'a1', acknowledged: true },
    { alertId: 'a1', acknowledged: 'dropped' },
  ])
})

test('unacknowledge posts to /unacknowledge; success and failure toasts', async () => {
  let fail = false
  const fetchMock = alertServer(() =>
    fail ? new Response('nope', { status: 502 }) : Response.json({ success: true }),
  )
  const held = holdAckTimers()
  const api = new FakeWorker()
  api.alertsOverview = model([row('a1', { acknowledged: true })])
  renderApp(api, '/alerts/overview')
  await page.getByRole('button', { name: /^Unacknowledge vm-a1/ }).click()
  await expect.poll(() => toastOf('Alert restored')?.type).toBe('success')
  expect(callsTo(fetchMock, 'POST', '/api/alerts/a1/unacknowledge')).toHaveLength(1)
  expect(api.acks).toEqual([{ alertId: 'a1', acknowledged: false }])
  fail = true
  held[0]!()
  await page.getByRole('button', { name: /^Unacknowledge vm-a1/ }).click()
  await expect.poll(() => toastOf('Failed to restore alert')?.type).toBe('error')
})

test('an ack the server did not confirm shows the error toast on any tab', async () => {
  alertServer()
  const api = new FakeWorker()
  // A tab outside the alerts area: the watch lives at the connection provider, not in Overview.
  renderApp(api, '/storage')
  await expect.poll(() => api.ackTimeoutWatchers).toBe(1)
  api.expireAcks(['a1'])
  await expect.element(page.getByText(ACK_TIMEOUT_MESSAGE)).toBeVisible()
  expect(toastOf(ACK_TIMEOUT_MESSAGE)?.type).toBe('error')
})
