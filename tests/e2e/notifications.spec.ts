// Acceptance check 5 of the notifications issue, as a user would in Chromium: the built app, the
// real demo server and its alert scenarios, a real HTTP receiver and a real SMTP server on
// loopback. Email and a webhook are configured and tested in the UI, then the demo's alerts must
// reach both and the delivery log must show them. The API is only read, to know which alerts the
// server reported and to compare the log with what the UI shows.
import { expect, test, type Page } from '@playwright/test'
import type { DeliveryRecord } from '../../src/shared/model/notifications.ts'
import { createServerProcess, type ServerProcess } from './server-process.ts'
import {
  startHookReceiver,
  startMailSink,
  type HookReceiver,
  type HookRequest,
  type MailSink,
} from './support/notify-sinks.ts'

// The wait for the demo's alerts alone may take two minutes on a loaded machine.
test.describe.configure({ mode: 'serial', timeout: 240_000 })
test.use({ viewport: { width: 1600, height: 1200 } })

const HOOK_NAME = 'E2E receiver'
const HOOK_PATH = '/hooks/pulse'
const FROM = 'pulse@example.test'
const RECIPIENTS = ['ops@example.test', 'oncall@example.test']
const TEST_SUBJECT = '[Pulse] Test notification'
/** The alert id of a webhook test (http/notify-webhooks.ts): never a real alert. */
const TEST_ALERT_ID = 'pulse-test-alert'

let server: ServerProcess
let hook: HookReceiver
let smtp: MailSink

test.beforeAll(async () => {
  hook = await startHookReceiver()
  smtp = await startMailSink()
  server = await createServerProcess({ WEBHOOK_ALLOW_LOOPBACK: 'true' })
  await server.start()
})

test.afterAll(async () => {
  await server?.stop()
  server?.cleanup()
  await hook?.close()
  await smtp?.close()
})

const getJson = async <T>(path: string): Promise<T> => {
  const res = await fetch(`${server.url}${path}`)
  expect(res.ok, `GET ${path}`).toBe(true)
  return (await res.json()) as T
}

interface ReportedAlert {
  id: string
  message: string
}

/** Every alert the server reports, active or in history, by id. */
const reportedAlerts = new Map<string, ReportedAlert>()
async function readReportedAlerts(): Promise<Map<string, ReportedAlert>> {
  const active = await getJson<ReportedAlert[]>('/api/alerts/active')
  const history = await getJson<ReportedAlert[]>('/api/alerts/history?limit=1000')
  for (const alert of [...active, ...history]) reportedAlerts.set(alert.id, alert)
  return reportedAlerts
}

const alertIdOf = (request: HookRequest): string | undefined => {
  const json = request.json as { alert?: { id?: unknown } } | undefined
  return typeof json?.alert?.id === 'string' ? json.alert.id : undefined
}
const hookRequests = () => hook.requests.filter((r) => r.path === HOOK_PATH)
const realHookRequests = () =>
  hookRequests().filter((r) => {
    const id = alertIdOf(r)
    return id !== undefined && id !== TEST_ALERT_ID
  })
const realMails = () => smtp.mails.filter((m) => m.subject !== TEST_SUBJECT)
// Toasts live in aria-live containers without a name of their own.
const toast = (page: Page, text: string) => page.getByText(text, { exact: true })

async function openNotifications(page: Page) {
  await page.goto(server.url)
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Alerts' }).click()
  await page
    .getByRole('navigation', { name: 'Alerts' })
    .getByRole('link', { name: 'Notifications' })
    .click()
  await expect(page).toHaveURL(/\/alerts\/destinations$/)
}

test('grouping is switched off in the Schedule tab, so each alert goes out at once', async ({
  page,
}) => {
  // The default schedule groups alerts for 5 minutes. The UI way (Schedule tab, unsaved-changes
  // bar) is used rather than PUT /api/alerts/config: it is what a user does, and it is quick.
  await page.goto(`${server.url}/alerts/schedule`)
  const grouping = page.getByRole('switch', { name: 'Enable grouping' })
  await expect(grouping).toHaveAttribute('aria-checked', 'true')
  await grouping.click()
  await expect(grouping).toHaveAttribute('aria-checked', 'false')
  const unsaved = page.getByRole('region', { name: 'Unsaved changes' })
  await unsaved.getByRole('button', { name: 'Save Changes' }).click()
  await expect(unsaved).toBeHidden()
  await expect
    .poll(async () => {
      const config = await getJson<{ schedule: { grouping: { enabled: boolean } } }>(
        '/api/alerts/config',
      )
      return config.schedule.grouping.enabled
    })
    .toBe(false)
})

test('email is configured in the Email card and its test reaches the SMTP server', async ({
  page,
}) => {
  await openNotifications(page)
  const form = page.getByRole('form', { name: 'Email settings' })
  const enable = page.getByRole('switch', { name: 'Email notifications' })
  await expect(enable).toHaveAttribute('aria-checked', 'false')
  await enable.click()
  await expect(enable).toHaveAttribute('aria-checked', 'true')
  await form.getByLabel('SMTP server').fill('127.0.0.1')
  await form.getByLabel('Port').fill(String(smtp.port))
  // The sink speaks plain SMTP: neither implicit TLS nor STARTTLS.
  await form.getByRole('checkbox', { name: 'Implicit TLS (SMTPS)' }).setChecked(false)
  await form.getByRole('checkbox', { name: 'STARTTLS' }).setChecked(false)
  await form.getByLabel('From address').fill(FROM)
  await form.getByLabel('Recipients').fill(RECIPIENTS.join('\n'))
  await expect(form.getByText('Unsaved email changes')).toBeVisible()
  await form.getByRole('button', { name: 'Save email settings' }).click()
  await expect(toast(page, 'Email settings saved')).toBeVisible()
  await expect(form.getByText('Unsaved email changes')).toBeHidden()
  const stored = await getJson<{ enabled: boolean; server: string; port: number; to: string[] }>(
    '/api/notifications/email',
  )
  expect(stored).toMatchObject({ enabled: true, server: '127.0.0.1', port: smtp.port })
  expect(stored.to).toEqual(RECIPIENTS)

  await form.getByRole('button', { name: 'Send test email' }).click()
  await expect(toast(page, 'Test email sent successfully! (Check your inbox.)')).toBeVisible()
  await expect.poll(() => smtp.mails.filter((m) => m.subject === TEST_SUBJECT).length).toBe(1)
  const testMail = smtp.mails.find((m) => m.subject === TEST_SUBJECT)!
  expect([...testMail.rcpt].sort()).toEqual([...RECIPIENTS].sort())
  expect(testMail.headers.from).toContain(FROM)
})

test('a webhook is added in the Webhooks card and its test reaches the receiver', async ({
  page,
}) => {
  await openNotifications(page)
  const card = page.getByRole('region', { name: 'Webhooks' })
  await card.getByRole('button', { name: 'Add webhook' }).click()
  const dialog = page.getByRole('dialog', { name: 'Add webhook' })
  await expect(dialog).toBeVisible()
  await dialog.getByLabel('Service', { exact: true }).selectOption({ label: 'Generic webhook' })
  await dialog.getByLabel('Name', { exact: true }).fill(HOOK_NAME)
  await dialog.getByLabel('URL', { exact: true }).fill(`${hook.url}${HOOK_PATH}`)
  await expect(dialog.getByRole('switch', { name: 'Webhook enabled' })).toHaveAttribute(
    'aria-checked',
    'true',
  )
  await dialog.getByRole('button', { name: 'Add webhook' }).click()
  await expect(dialog).toBeHidden()
  await expect(toast(page, 'Webhook added successfully')).toBeVisible()
  const list = page.getByRole('list', { name: 'Webhooks' })
  await expect(list.getByRole('listitem')).toHaveCount(1)
  await expect(list.getByRole('listitem')).toContainText(HOOK_NAME)
  await expect(page.getByText('1 webhook configured')).toBeVisible()

  const before = hookRequests().length
  await list.getByRole('button', { name: `Test webhook ${HOOK_NAME}` }).click()
  await expect(toast(page, 'Test webhook sent successfully!')).toBeVisible()
  await expect.poll(() => hookRequests().length).toBe(before + 1)
  const sent = hookRequests().at(-1)!
  expect(sent.method).toBe('POST')
  expect(sent.headers['content-type']).toContain('application/json')
  expect(alertIdOf(sent)).toBe(TEST_ALERT_ID)
  expect(sent.json).toMatchObject({ source: 'pulse-monitoring', alert: { id: TEST_ALERT_ID } })
})

test("the demo's alerts arrive at the receiver and the SMTP server", async () => {
  // Alerts that fired before the destinations existed are not sent (nothing was configured);
  // the demo's scenarios keep firing new ones (memory leaks, CPU spikes, the node outage).
  await expect
    .poll(
      async () => {
        const known = await readReportedAlerts()
        const hookIds = realHookRequests().map((r) => alertIdOf(r)!)
        const mailed = realMails().some((m) =>
          [...known.values()].some((a) => m.decoded.includes(a.message)),
        )
        return { hook: hookIds.some((id) => known.has(id)), mail: mailed }
      },
      { timeout: 180_000, intervals: [2_000] },
    )
    .toEqual({ hook: true, mail: true })
  for (const mail of realMails()) {
    expect([...mail.rcpt].sort()).toEqual([...RECIPIENTS].sort())
    expect(mail.subject).toMatch(/^\[Pulse\] /)
  }
})

const deliveries = (query = '') =>
  getJson<DeliveryRecord[]>(`/api/notifications/deliveries?limit=100${query}`)

test('the delivery log lists both destinations as sent, as the server reports', async ({
  page,
}) => {
  await openNotifications(page)
  const log = page.getByRole('region', { name: 'Delivery log' })
  const sentFilter = log
    .getByRole('group', { name: 'Delivery status' })
    .getByRole('button', { name: 'Sent', exact: true })
  await sentFilter.click()
  await expect(sentFilter).toHaveAttribute('aria-pressed', 'true')
  const sent = await deliveries('&status=sent')
  const email = sent.filter((d) => d.destination.kind === 'email')
  const webhook = sent.filter((d) => d.destination.kind === 'webhook')
  expect(email.length).toBeGreaterThan(0)
  expect(webhook.length).toBeGreaterThan(0)
  expect(webhook.every((d) => d.destination.name === HOOK_NAME)).toBe(true)

  // Every sent delivery the server reported is a row with its destination, alert and status.
  await log.getByRole('button', { name: 'Refresh delivery log' }).click()
  for (const record of sent) {
    const row = log.locator(`[data-delivery="${record.id}"]`)
    await expect(row).toBeVisible()
    await expect(row).toContainText(record.destination.name)
    await expect(row).toContainText(record.title || record.alertIds[0]!)
    await expect(row).toContainText('Sent')
  }
  const emailRows = log.getByRole('row').filter({ hasText: 'Email' }).filter({ hasText: 'Sent' })
  const hookRows = log.getByRole('row').filter({ hasText: HOOK_NAME }).filter({ hasText: 'Sent' })
  await expect(emailRows.first()).toBeVisible()
  await expect(hookRows.first()).toBeVisible()

  // What the receiver got is what the log says was sent to it.
  const hookAlertIds = new Set(realHookRequests().map((r) => alertIdOf(r)))
  for (const record of webhook)
    for (const id of record.alertIds) expect(hookAlertIds.has(id)).toBe(true)
})

// For a human to look at (not asserted): the tab with the log filled, on a desk and on a phone.
// <main> scrolls inside the shell, so a full-page shot would stop at the viewport: the viewport
// is made as tall as the page instead.
async function shootWhole(page: Page, width: number, path: string) {
  await page.setViewportSize({ width, height: 900 })
  const height = await page.evaluate(() => {
    const main = document.querySelector('main')
    return (main?.scrollHeight ?? 0) + (main?.getBoundingClientRect().top ?? 0) + 40
  })
  await page.setViewportSize({ width, height: Math.min(Math.max(height, 900), 8000) })
  await page.screenshot({ path })
}

test('screenshots of the Notifications tab with the log filled', async ({ page }) => {
  await openNotifications(page)
  const rows = page.getByRole('region', { name: 'Delivery log' }).locator('[data-delivery]')
  await expect(rows.first()).toBeVisible()
  await shootWhole(page, 1600, '/tmp/e2e-notify-1600.png')
  await page.setViewportSize({ width: 390, height: 844 })
  await expect(page.getByRole('list', { name: 'Deliveries' })).toBeVisible()
  await shootWhole(page, 390, '/tmp/e2e-notify-390.png')
})
