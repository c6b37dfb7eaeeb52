// Issue 28, silences, as an administrator on call would in Chromium against the real demo server
// (its alert scenarios off) with a loopback webhook receiver: silence a node for an hour from one
// of its alerts, see the alert marked silenced, make two more VMs of that node and two of another
// fire fresh CPU alerts (their thresholds lowered through the API) and see the other node's arrive
// at the receiver while the silenced node's are held; end the silence early from Overview and see
// the node's still-firing alerts arrive, once each.
import { expect, test } from '@playwright/test'
import { createServerProcess, type ServerProcess } from './server-process.ts'
import { startHookReceiver, type HookReceiver, type HookRequest } from './support/notify-sinks.ts'

test.describe.configure({ mode: 'serial', timeout: 240_000 })
test.use({ viewport: { width: 1600, height: 1200 } })

let server: ServerProcess
let hook: HookReceiver

test.beforeAll(async () => {
  hook = await startHookReceiver()
  server = await createServerProcess({
    WEBHOOK_ALLOW_LOOPBACK: 'true',
    DEMO_ALERT_SCENARIOS: 'false',
  })
  await server.start()
})

test.afterAll(async () => {
  await server?.stop()
  server?.cleanup()
  await hook?.close()
})

async function api(method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  expect(res.ok, `${method} ${path}: ${res.status}`).toBe(true)
  const text = await res.text()
  return text ? JSON.parse(text) : null
}

interface HookAlert {
  id: string
  type: string
  node: string
  instance: string
}
/** The alerts of one webhook request (the generic payload's `alerts`). */
const alertsOf = (request: HookRequest): HookAlert[] =>
  ((request.json as { alerts?: HookAlert[] } | undefined)?.alerts ?? []).filter(
    (a) => typeof a.id === 'string',
  )

test('a silenced node stays quiet while another node pages, until the silence ends', async ({
  page,
}) => {
  // The only alerts are the ones this test makes: busy VMs given a CPU threshold of 0.1 %.
  type Vm = { id: string; node: string; instance: string; status: string; cpu: number }
  let running: Vm[] = []
  // The estate arrives over the first polls: wait for a node with three running VMs.
  await expect
    .poll(
      async () => {
        const state = (await api('GET', '/api/state?format=internal')) as { vms: Vm[] }
        // Busy enough (2 % and more) to stay above 0.1 % from poll to poll.
        running = state.vms.filter((g) => g.status === 'running' && g.cpu >= 0.02)
        const nodes = new Set(running.map((g) => `${g.instance}/${g.node}`))
        return nodes.size >= 2 && running.filter((g) => g.node === running[0]!.node).length >= 3
      },
      { timeout: 120_000 },
    )
    .toBe(true)
  const anchor = running[0]!
  const sameNode = (g: { node: string; instance: string }) =>
    g.node === anchor.node && g.instance === anchor.instance
  // Candidates: a guest may keep its own threshold (a custom rule of the demo outranks an
  // override), so the test goes on with those whose alert fires.
  const hereCandidates = running.filter((g) => g !== anchor && sameNode(g)).slice(0, 3)
  const otherCandidates = running.filter((g) => !sameNode(g)).slice(0, 3)
  expect(hereCandidates.length).toBeGreaterThan(0)
  expect(otherCandidates.length).toBeGreaterThan(0)
  const hot = { cpu: { trigger: 0.1, clear: 0.05 } }
  const config = (await api('GET', '/api/alerts/config')) as Record<string, unknown> & {
    schedule: { grouping: { enabled: boolean } }
    backups: { enabled: boolean }
  }
  // Every alert on its own, at once; no backup alerts (they would queue ahead at the receiver,
  // which the webhook channel sends 10 requests a minute).
  config.schedule.grouping.enabled = false
  config.timeThreshold = 0
  config.timeThresholds = { guest: 0, node: 0, storage: 0, pbs: 0 }
  config.metricTimeThresholds = {}
  config.backups.enabled = false
  // Nor the estate's own: guests at 100 % only, nothing for stopped guests, nodes or storage.
  const quiet = { trigger: 100, clear: 99 }
  config.guestDefaults = {
    ...(config.guestDefaults as object),
    cpu: quiet,
    memory: quiet,
    disk: quiet,
  }
  config.disableAllGuestsOffline = true
  config.disableAllNodes = true
  config.disableAllStorage = true
  config.disableAllPBS = true
  config.overrides = { ...(config.overrides as object), [anchor.id]: hot }
  await api('PUT', '/api/alerts/config', config)

  // Silence the anchor's node from its alert, for an hour.
  await page.goto(`${server.url}/alerts/overview`)
  const row = page.locator(`[data-alert-id="${anchor.id}-cpu"]`)
  await expect(row).toBeVisible({ timeout: 120_000 })
  await row.getByRole('button', { name: /^Silence / }).click()
  const dialog = page.getByRole('dialog')
  await dialog
    .getByRole('radio', { name: `node ${anchor.node} (${anchor.instance}) and everything on it` })
    .check()
  await dialog.getByRole('button', { name: '1 h', exact: true }).click()
  await dialog.getByLabel('Comment').fill('rebooting for a kernel update')
  await dialog.getByRole('button', { name: 'Silence', exact: true }).click()
  await expect(dialog).toBeHidden()
  // Its alert is marked, with the time left; the Silences list has it.
  await expect(row.getByText(/^Silenced · (59m|1h 0m) left$/)).toBeVisible()
  const silences = page.getByRole('list', { name: 'Active and upcoming silences' })
  const target = `node ${anchor.node} (${anchor.instance}) and everything on it`
  await expect(silences.getByText(target)).toBeVisible()
  await expect(silences.getByText(/rebooting for a kernel update/)).toBeVisible()

  // The receiver, then two more hot VMs on the silenced node and two on another.
  await api('POST', '/api/notifications/webhooks', {
    name: 'E2E receiver',
    url: `${hook.url}/hooks/silences`,
    method: 'POST',
    enabled: true,
    service: 'generic',
  })
  config.overrides = {
    ...(config.overrides as object),
    ...Object.fromEntries([...hereCandidates, ...otherCandidates].map((g) => [g.id, hot])),
  }
  await api('PUT', '/api/alerts/config', config)
  const cpuIds = (guests: Vm[]) => guests.map((g) => `${g.id}-cpu`).sort()
  const activeIds = async () =>
    ((await api('GET', '/api/alerts/active')) as Array<{ id: string }>).map((a) => a.id)
  let here: string[] = []
  let other: string[] = []
  await expect
    .poll(
      async () => {
        const active = await activeIds()
        here = cpuIds(hereCandidates).filter((id) => active.includes(id))
        other = cpuIds(otherCandidates).filter((id) => active.includes(id))
        return here.length > 0 && other.length > 0
      },
      { timeout: 60_000 },
    )
    .toBe(true)
  const received = (from = 0) =>
    hook.requests
      .slice(from)
      .flatMap(alertsOf)
      .filter((a) => a.type === 'cpu')
      .map((a) => a.id)
  // The other node's fresh alerts reach the receiver.
  await expect
    .poll(() => other.every((id) => received().includes(id)), { timeout: 120_000 })
    .toBe(true)
  // The silenced node's are held: the log says why (each once its dispatch ran: an alert that
  // fired a poll later than the other node's is logged a poll later).
  const held = async () => {
    const suppressed = (await api(
      'GET',
      '/api/notifications/deliveries?status=suppressed&limit=1000',
    )) as Array<{ reason?: string; alertIds: string[]; eventKinds: string[] }>
    return suppressed
      .filter((d) => d.reason === 'silenced' && d.eventKinds[0] === 'fired')
      .flatMap((d) => d.alertIds)
  }
  await expect
    .poll(
      async () => {
        const ids = await held()
        return here.every((id) => ids.includes(id))
      },
      { timeout: 60_000 },
    )
    .toBe(true)
  const silencedIds = [`${anchor.id}-cpu`, ...cpuIds(hereCandidates)]
  expect(received().filter((id) => silencedIds.includes(id))).toEqual([])

  // Ended early: the node's alerts still firing are notified, once each (the anchor too: it
  // fired before the receiver was added, so the receiver was never told of it).
  const endedAt = hook.requests.length
  await silences.getByRole('button', { name: `End the silence of ${target}` }).click()
  await expect(row.getByText(/^Silenced/)).toBeHidden()
  // Told of each once: the ones still firing when it ended (a guest's CPU may fall back meanwhile).
  const stillFiring = (await activeIds()).filter((id) => silencedIds.includes(id))
  expect(stillFiring.length).toBeGreaterThan(0)
  const told = () => received(endedAt).filter((id) => silencedIds.includes(id))
  await expect
    .poll(() => stillFiring.every((id) => told().includes(id)), { timeout: 60_000 })
    .toBe(true)
  expect(new Set(told()).size).toBe(told().length)
})
