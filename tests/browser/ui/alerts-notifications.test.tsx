// The Notifications tab (spec 001 §2 Alerts: notifications, §5 Webhook and Email rules, §8 texts;
// issue 15 delivery log) in Chromium. HTTP is window.fetch stubbed by render.tsx's stubServer with
// a small in-memory /api/notifications: the real routes are built and tested on the server side
// (tests/unit/server), this harness has no loopback server.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { page, userEvent } from 'vitest/browser'
import type { EmailConfig } from '../../../src/shared/model/notifications.ts'
import {
  TEMPLATES,
  callsOf,
  delivery,
  dialog,
  emailConfig,
  mount,
  server,
  webhook,
} from './notifications-harness.tsx'
import { cleanup, unmountAll } from './render.tsx'

beforeEach(async () => {
  await page.viewport(1280, 900)
  server.email = emailConfig()
  server.hooks = [webhook()]
  server.deliveries = []
})
afterEach(() => cleanup())

describe('Email card', () => {
  it('fills host, port and TLS from the picked provider', async () => {
    mount()
    const provider = page.getByLabelText('Email provider')
    await expect.element(provider).toBeVisible()
    // The list arrives separately; wait for the option before picking it.
    await expect
      .element(page.getByRole('option', { name: 'Implicit TLS Mail' }))
      .toBeInTheDocument()
    await provider.selectOptions('Implicit TLS Mail')
    await expect.element(page.getByLabelText('SMTP server')).toHaveValue('smtps.example.net')
    await expect.element(page.getByLabelText('Port')).toHaveValue('465')
    await expect.element(page.getByLabelText('Implicit TLS (SMTPS)')).toBeChecked()
    await expect.element(page.getByLabelText('STARTTLS')).not.toBeChecked()
    await provider.selectOptions('Gmail / Google Workspace')
    await expect.element(page.getByLabelText('SMTP server')).toHaveValue('smtp.gmail.com')
    await expect.element(page.getByLabelText('Port')).toHaveValue('587')
    await expect.element(page.getByLabelText('STARTTLS')).toBeChecked()
    await expect.element(page.getByText('Use an app password.')).toBeVisible()
    await expect.element(page.getByText('Unsaved email changes')).toBeVisible()
  })

  it('refuses out-of-range retries and delay and a bad recipient, and saves nothing', async () => {
    mount()
    await expect.element(page.getByLabelText('Retries')).toHaveValue('3')
    await page.getByLabelText('Retries').fill('9')
    await page.getByLabelText('Retry delay (seconds)').fill('0')
    await page.getByLabelText('Recipients').fill('ops@lab.example\nnot-an-address')
    await page.getByRole('button', { name: 'Save email settings' }).click()
    await expect.element(page.getByText('Retries must be between 0 and 5')).toBeVisible()
    await expect
      .element(page.getByText('Retry delay must be between 1 and 60 seconds'))
      .toBeVisible()
    await expect.element(page.getByText('Not a valid email address: not-an-address')).toBeVisible()
    await expect.element(page.getByLabelText('Retries')).toHaveAttribute('aria-invalid', 'true')
    expect(callsOf('PUT', '/email')).toHaveLength(0)
  })

  it('saves the body with recipients one per line and a blank password that keeps the stored one', async () => {
    mount()
    const password = page.getByLabelText('Password', { exact: true })
    await expect.element(password).toHaveAttribute('placeholder', '••••')
    await page.getByLabelText('Recipients').fill('a@lab.example\n\n  b@lab.example  \n')
    await page.getByLabelText('Port').fill('abc')
    await page.getByRole('button', { name: 'Save email settings' }).click()
    await expect.element(page.getByText('Email settings saved')).toBeVisible()
    const [put] = callsOf('PUT', '/email')
    expect(put!.body).toEqual({
      ...emailConfig({ to: ['a@lab.example', 'b@lab.example'], port: 587 }),
      hasPassword: undefined,
    })
    expect((put!.body as EmailConfig).password).toBe('')
    await expect.element(page.getByText('Unsaved email changes')).not.toBeInTheDocument()
  })

  it('removes the stored password only when asked, and a typed password cancels that', async () => {
    mount()
    await page.getByLabelText('Remove stored password').click()
    await expect.element(page.getByText('The stored password is removed on save.')).toBeVisible()
    await page.getByRole('button', { name: 'Save email settings' }).click()
    await expect.element(page.getByText('Email settings saved')).toBeVisible()
    expect(callsOf('PUT', '/email')[0]!.body).toMatchObject({ password: '', clearPassword: true })
    // Saved without a password: the placeholder no longer claims one is stored.
    await expect
      .element(page.getByLabelText('Password', { exact: true }))
      .toHaveAttribute('placeholder', '')

    unmountAll()
    mount()
    await page.getByLabelText('Remove stored password').click()
    await page.getByLabelText('Password', { exact: true }).fill('n3w-secret')
    await expect.element(page.getByLabelText('Remove stored password')).not.toBeChecked()
    await page.getByRole('button', { name: 'Save email settings' }).click()
    await expect.element(page.getByText('Email settings saved')).toBeVisible()
    const body = callsOf('PUT', '/email')[0]!.body as EmailConfig
    expect(body.password).toBe('n3w-secret')
    expect(body.clearPassword).toBeUndefined()
  })

  it('sends a test with the unsaved config and shows success or the server error', async () => {
    mount()
    await page.getByLabelText('SMTP server').fill('smtp.other.lab')
    await page.getByRole('button', { name: 'Send test email' }).click()
    await expect
      .element(page.getByText('Test email sent successfully! (Check your inbox.)'))
      .toBeVisible()
    const [test] = callsOf('POST', '/test')
    expect(test!.body).toMatchObject({ type: 'email', config: { server: 'smtp.other.lab' } })

    server.answers['POST /test'] = () =>
      Response.json({ error: 'SMTP authentication failed: 535 bad credentials' }, { status: 400 })
    await page.getByRole('button', { name: 'Send test email' }).click()
    await expect
      .element(
        page.getByText(
          'Failed to send test email: SMTP authentication failed: 535 bad credentials',
        ),
      )
      .toBeVisible()
  })
})

describe('Webhooks card', () => {
  it('adds a webhook: the service picker fills method, headers, hint and instructions', async () => {
    mount()
    await expect.element(page.getByText('1 webhook configured')).toBeVisible()
    await page.getByRole('button', { name: 'Add webhook' }).click()
    await expect.element(dialog()).toBeVisible()
    await dialog().getByLabelText('Service').selectOptions('Discord')
    await expect
      .element(dialog().getByText('Server Settings > Integrations > Webhooks.'))
      .toBeVisible()
    await expect
      .element(dialog().getByLabelText('URL'))
      .toHaveAttribute('placeholder', TEMPLATES[1]!.urlPattern)
    await dialog().getByLabelText('Service').selectOptions('Pushover')
    await expect.element(dialog().getByLabelText('Method')).toHaveValue('PUT')
    await expect.element(dialog().getByLabelText('Header 2 name')).toHaveValue('X-Pushover')

    // Name and URL are required to add.
    await dialog().getByRole('button', { name: 'Add webhook' }).click()
    await expect.element(dialog().getByText('Name is required')).toBeVisible()
    await expect.element(dialog().getByText('URL is required')).toBeVisible()
    expect(callsOf('POST', '/webhooks')).toHaveLength(0)

    await dialog().getByLabelText('Name', { exact: true }).fill('Phone')
    await dialog().getByLabelText('URL').fill('https://api.pushover.net/1/messages.json')
    await dialog().getByLabelText('Custom field 1 value').fill('apptok')
    await dialog().getByLabelText('Custom field 2 value').fill('usertok')
    await dialog().getByLabelText('Custom field 2 secret').click()
    // A row with an empty key is ignored.
    await dialog().getByRole('button', { name: 'Add custom field' }).click()
    await dialog().getByLabelText('Custom field 3 value').fill('orphan')
    await dialog().getByRole('button', { name: 'Add webhook' }).click()
    await expect.element(page.getByText('Webhook added successfully')).toBeVisible()
    const [post] = callsOf('POST', '/webhooks')
    expect(post!.body).toEqual({
      name: 'Phone',
      url: 'https://api.pushover.net/1/messages.json',
      method: 'PUT',
      headers: { 'Content-Type': 'application/json', 'X-Pushover': 'yes' },
      enabled: true,
      service: 'pushover',
      template: '',
      customFields: { app_token: 'apptok', user_token: 'usertok' },
      secretFields: ['user_token'],
    })
    await expect.element(page.getByText('2 webhooks configured')).toBeVisible()
  })

  it("keeps pushover's required fields: no remove button and a fixed name", async () => {
    mount()
    await page.getByRole('button', { name: 'Add webhook' }).click()
    await dialog().getByLabelText('Service').selectOptions('Pushover')
    const first = dialog().getByLabelText('Custom field 1 name')
    await expect.element(first).toHaveValue('app_token')
    await expect.element(first).toHaveAttribute('readonly')
    await expect.element(dialog().getByLabelText('Custom field 2 name')).toHaveValue('user_token')
    await expect
      .element(dialog().getByRole('button', { name: 'Remove custom field 1' }))
      .not.toBeInTheDocument()
    await userEvent.type(first, 'x')
    await expect.element(first).toHaveValue('app_token')
    // An ordinary row can be removed.
    await dialog().getByRole('button', { name: 'Add custom field' }).click()
    await dialog().getByRole('button', { name: 'Remove custom field 3' }).click()
    await expect.element(dialog().getByLabelText('Custom field 3 name')).not.toBeInTheDocument()
  })

  it('tests a form body (name and URL required) and a stored webhook by id', async () => {
    mount()
    await page.getByRole('button', { name: 'Add webhook' }).click()
    await dialog().getByRole('button', { name: 'Send test' }).click()
    await expect.element(dialog().getByText('Name is required')).toBeVisible()
    expect(callsOf('POST', '/webhooks/test')).toHaveLength(0)
    await dialog().getByLabelText('Name', { exact: true }).fill('Hook')
    await dialog().getByLabelText('URL').fill('http://127.0.0.1:9/hook')
    await dialog().getByRole('button', { name: 'Send test' }).click()
    await expect.element(page.getByText('Test webhook sent successfully!')).toBeVisible()
    expect(callsOf('POST', '/webhooks/test')[0]!.body).toMatchObject({
      name: 'Hook',
      url: 'http://127.0.0.1:9/hook',
    })
    await dialog().getByRole('button', { name: 'Cancel' }).click()

    server.answers['POST /webhooks/test'] = () =>
      Response.json(
        { status: 404, response: 'nope', success: false, error: 'Webhook returned HTTP 404: nope' },
        { status: 400 },
      )
    await page.getByRole('button', { name: 'Test webhook Ops chat' }).click()
    await expect
      .element(page.getByText('Failed to send test webhook: Webhook returned HTTP 404: nope'))
      .toBeVisible()
    expect(callsOf('POST', '/webhooks/test')[1]!.body).toEqual({ id: 'wh1' })
  })

  it('edits a webhook (masked URL kept) and reports a refused update', async () => {
    mount()
    await page.getByRole('button', { name: 'Edit webhook Ops chat' }).click()
    await expect.element(dialog().getByLabelText('URL')).toHaveValue(webhook().url)
    await dialog().getByLabelText('Name', { exact: true }).fill('Ops room')
    await dialog().getByRole('button', { name: 'Update webhook' }).click()
    await expect.element(page.getByText('Webhook updated successfully')).toBeVisible()
    const [put] = callsOf('PUT', '/webhooks/wh1')
    expect(put!.body).toMatchObject({ id: 'wh1', name: 'Ops room', url: webhook().url })
    await expect.element(page.getByRole('button', { name: 'Edit webhook Ops room' })).toBeVisible()

    server.answers['PUT /webhooks/wh1'] = () =>
      Response.json({ error: 'Invalid webhook URL: bad host' }, { status: 400 })
    await page.getByRole('button', { name: 'Edit webhook Ops room' }).click()
    await dialog().getByRole('button', { name: 'Update webhook' }).click()
    await expect
      .element(page.getByText('Failed to update webhook: Invalid webhook URL: bad host'))
      .toBeVisible()
    await expect.element(dialog()).toBeVisible()
  })

  it('deletes after confirmation, and says so when the server refuses', async () => {
    mount()
    server.answers['DELETE /webhooks/wh1'] = () =>
      Response.json({ error: 'webhook not found: wh1' }, { status: 404 })
    await page.getByRole('button', { name: 'Delete webhook Ops chat' }).click()
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click()
    await expect
      .element(page.getByText('Failed to delete webhook: webhook not found: wh1'))
      .toBeVisible()
    delete server.answers['DELETE /webhooks/wh1']
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click()
    await expect.element(page.getByText('Webhook deleted successfully')).toBeVisible()
    await expect.element(page.getByText('0 webhooks configured')).toBeVisible()
    expect(callsOf('DELETE', '/webhooks/wh1')).toHaveLength(2)
  })
})

describe('Delivery log', () => {
  it('says so when nothing was sent yet', async () => {
    server.deliveries = []
    mount()
    await expect.element(page.getByText('No notifications yet')).toBeVisible()
    expect(callsOf('GET', '/deliveries')[0]!.url).toContain('/deliveries?limit=100')
    // Refresh on demand reads the log again and shows what arrived since.
    server.deliveries = [delivery(1, { status: 'sent' })]
    await page.getByRole('button', { name: 'Refresh delivery log' }).click()
    await expect.element(page.getByRole('table').getByText('Critical: cpu on web')).toBeVisible()
  })

  it('shows each status with attempts, the last error and why it was not sent', async () => {
    server.deliveries = [
      delivery(1, { status: 'sent' }),
      delivery(2, {
        status: 'dead',
        attempts: 4,
        lastError: 'HTTP 500 from receiver',
        destination: { kind: 'email', id: 'email', name: 'Email' },
      }),
      delivery(3, { status: 'suppressed', attempts: 0, reason: 'quiet-hours' }),
      delivery(4, { status: 'suppressed', attempts: 0, reason: 'cooldown' }),
      delivery(5, { status: 'pending', attempts: 0, reason: 'grouped' }),
      delivery(6, { status: 'failed', attempts: 2, lastError: 'connect ECONNREFUSED' }),
      // Sent with its group: its reason says how it went, not that it is still waiting.
      delivery(7, { status: 'sent', attempts: 1, reason: 'grouped' }),
    ]
    mount()
    const table = page.getByRole('table')
    await expect.element(table.getByRole('columnheader', { name: 'Destination' })).toBeVisible()
    await expect.element(table.getByText('Gave up')).toBeVisible()
    await expect.element(table.getByText('Last error: HTTP 500 from receiver')).toBeVisible()
    await expect.element(table.getByText('4 attempts')).toBeVisible()
    await expect
      .element(table.getByText('Held by quiet hours; sent in one summary when they end'))
      .toBeVisible()
    await expect
      .element(table.getByText('Skipped: the same alert was notified within the cooldown'))
      .toBeVisible()
    await expect
      .element(table.getByText('Waiting for the grouping window', { exact: false }))
      .toBeVisible()
    expect(table.getByText('Waiting for the grouping window', { exact: false }).all()).toHaveLength(
      1,
    )
    await expect
      .element(table.getByText('Sent in one message with the rest of its group'))
      .toBeVisible()
    await expect.element(table.getByText('Failed, will retry')).toBeVisible()

    await page.getByRole('button', { name: 'Not sent' }).click()
    await expect.element(table.getByText('Gave up')).not.toBeInTheDocument()
    expect(server.calls.at(-1)!.url).toContain('status=suppressed')
    // The header row and the two suppressed ones.
    await expect.poll(() => page.getByRole('row').all().length).toBe(3)
  })

  it('shows cards on a 390 px phone in dark mode', async () => {
    await page.viewport(390, 800)
    document.documentElement.classList.add('dark')
    try {
      server.deliveries = [delivery(1, { status: 'sent', attempts: 1, reason: 'storm' })]
      mount(390)
      const list = page.getByRole('list', { name: 'Deliveries' })
      await expect
        .element(
          list.getByText('Sent only as a count in a storm summary (too many alerts at once)'),
        )
        .toBeVisible()
      expect(page.getByRole('table').query()).toBeNull()
      // Nothing wider than the phone: the page does not scroll sideways.
      expect(document.documentElement.scrollWidth).toBeLessThanOrEqual(390)
      await page.getByRole('button', { name: 'Add webhook' }).click()
      await expect.element(dialog().getByLabelText('Name', { exact: true })).toBeVisible()
      await dialog().getByLabelText('Service').selectOptions('Pushover')
    } finally {
      document.documentElement.classList.remove('dark')
    }
  })
})
