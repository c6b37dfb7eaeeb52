// Each of the ten services, rendered and sent through the real channel to a real receiver on
// 127.0.0.1: a fired and a resolved alert arrive in the service's payload shape with the alert's
// values, the awkward resource name intact (proves JSON escaping); grouped and summary batches.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  WEBHOOK_SERVICES,
  type NotificationBatch,
  type WebhookService,
} from '../../../../src/shared/model/notifications.ts'
import {
  createWebhookChannel,
  type WebhookChannel,
} from '../../../../src/server/notify/webhook/channel.ts'
import { renderWebhook } from '../../../../src/server/notify/webhook/render.ts'
import { WEBHOOK_TEMPLATES } from '../../../../src/server/notify/webhook/templates.ts'
import {
  fired,
  makeAlert,
  makeWebhook,
  NASTY_NAME,
  resolved,
  resolvedAlert,
  startReceiver,
  type Received,
  type Receiver,
} from './webhook-receiver.ts'

let receiver: Receiver
let channel: WebhookChannel
const NOW = Date.parse('2025-01-01T10:12:00.000Z')

beforeAll(async () => {
  receiver = await startReceiver()
  channel = createWebhookChannel({ allowLoopback: true, now: () => NOW, ratePerMinute: 1000 })
})
afterAll(async () => {
  await channel.close()
  await receiver.close()
})
beforeEach(() => {
  receiver.requests.length = 0
  receiver.respond = () => ({ status: 200, body: 'ok' })
})

const PATHS: Record<WebhookService, string> = {
  generic: '/hook',
  discord: '/api/webhooks/123456/abcdefghijklmnopqrstuvwxyz',
  slack: '/services/T000/B000/XXXXXXXXXXXXXXXXXXXXXXXX',
  telegram: '/bot123:ABCDEFGHIJKLMNOPQRSTUV/sendMessage?chat_id=-1001234',
  teams: '/webhookb2/aaaaaaaa-bbbb-cccc',
  'teams-adaptive': '/webhookb2/aaaaaaaa-bbbb-dddd',
  pagerduty: '/v2/enqueue',
  pushover: '/1/messages.json',
  gotify: '/message?token=AbCdEf123',
  ntfy: '/pulse-alerts-topic',
}

function hookFor(service: WebhookService) {
  return makeWebhook({
    service,
    url: receiver.base + PATHS[service],
    customFields:
      service === 'pushover'
        ? { app_token: 'app-tok', user_token: 'user-tok', sound: 'siren' }
        : service === 'pagerduty'
          ? { routing_key: 'rk-123' }
          : {},
    secretFields: service === 'pushover' ? ['app_token', 'user_token'] : [],
  })
}

async function sendOne(service: WebhookService, batch: NotificationBatch): Promise<Received> {
  const result = await channel.send(batch, {
    kind: 'webhook',
    id: 'wh1',
    name: 'hook',
    webhook: hookFor(service),
  })
  expect(result).toEqual({ ok: true, info: 'HTTP 200' })
  expect(receiver.requests).toHaveLength(1)
  const got = receiver.requests[0]!
  receiver.requests.length = 0
  expect(got.method).toBe('POST')
  expect(got.headers['user-agent']).toBe('Pulse-Monitoring')
  expect(got.headers['idempotency-key']).toBe(batch.key)
  return got
}

type Json = any // eslint-disable-line @typescript-eslint/no-explicit-any

/** The generic payload's keys, the same in every message (README "Generic webhook payload"). */
const GENERIC_KEYS = ['alert', 'alerts', 'count', 'grouped', 'source', 'summary', 'timestamp']
const GENERIC_ALERT_KEYS = [
  'acknowledged',
  'duration',
  'escalation_level',
  'event',
  'id',
  'instance',
  'level',
  'message',
  'node',
  'resolved_time',
  'resource_id',
  'resource_name',
  'resource_type',
  'resource_url',
  'start_time',
  'threshold',
  'type',
  'unit',
  'value',
]
type Check = (p: Json, got: Received, kind: 'fired' | 'resolved') => void

const CHECKS: Record<WebhookService, Check> = {
  generic: (p, _got, kind) => {
    expect(Object.keys(p).sort()).toEqual(GENERIC_KEYS)
    expect(p).toMatchObject({
      source: 'pulse-monitoring',
      timestamp: new Date(NOW).toISOString(),
      grouped: false,
      count: 1,
      summary: null,
    })
    expect(p.alerts).toEqual([p.alert])
    expect(Object.keys(p.alert).sort()).toEqual(GENERIC_ALERT_KEYS)
    expect(p.alert).toMatchObject({
      id: 'lab-pve1-101-cpu',
      event: kind,
      level: 'critical',
      type: 'cpu',
      resource_id: 'lab-pve1-101',
      resource_name: NASTY_NAME,
      resource_type: 'VM',
      node: 'pve1',
      instance: 'lab',
      message: 'VM CPU at 95.3% (threshold 80%)',
      value: 95.3,
      threshold: 80,
      unit: '%',
      start_time: '2025-01-01T10:00:00.000Z',
      duration: kind === 'fired' ? '12m' : '20m',
      resolved_time: kind === 'fired' ? null : '2025-01-01T10:20:00.000Z',
      acknowledged: false,
      escalation_level: 0,
    })
  },
  discord: (p, _got, kind) => {
    expect(p.username).toBe('Pulse Monitoring')
    const embed = p.embeds[0]
    expect(embed.title).toContain(NASTY_NAME)
    expect(embed.color).toBe(kind === 'fired' ? 15158332 : 3066993)
    expect(embed.fields).toContainEqual({ name: 'Resource', value: NASTY_NAME, inline: true })
    expect(embed.fields).toContainEqual({ name: 'Value', value: '95.3%', inline: true })
    expect(embed.timestamp).toBe(new Date(NOW).toISOString())
  },
  slack: (p) => {
    expect(p.text).toContain(NASTY_NAME)
    expect(p.blocks[0]).toMatchObject({ type: 'header', text: { type: 'plain_text' } })
    expect(JSON.stringify(p.blocks)).toContain(JSON.stringify(NASTY_NAME).slice(1, -1))
  },
  telegram: (p, got) => {
    expect(got.url).toBe('/bot123:ABCDEFGHIJKLMNOPQRSTUV/sendMessage')
    expect(p.chat_id).toBe('-1001234')
    expect(p.parse_mode).toBe('Markdown')
    expect(p.disable_web_page_preview).toBe(true)
    // Markdown characters of the name are escaped, everything else is there.
    expect(p.text).toContain('vm "web"\\01\nline\\_two \\*{{ x }}\\*')
  },
  teams: (p, _got, kind) => {
    expect(p['@type']).toBe('MessageCard')
    expect(p['@context']).toBe('https://schema.org/extensions')
    expect(p.themeColor).toBe(kind === 'fired' ? 'E81123' : '2EB886')
    expect(p.summary).toContain(NASTY_NAME)
    expect(p.sections[0].facts).toContainEqual({ name: 'Resource', value: NASTY_NAME })
    expect(Array.isArray(p.potentialAction)).toBe(true)
  },
  'teams-adaptive': (p) => {
    expect(p.type).toBe('message')
    const attachment = p.attachments[0]
    expect(attachment.contentType).toBe('application/vnd.microsoft.card.adaptive')
    expect(attachment.content).toMatchObject({ type: 'AdaptiveCard', version: '1.4' })
    const facts = attachment.content.body.find((b: Json) => b.type === 'FactSet').facts
    expect(facts).toContainEqual({ title: 'Resource', value: NASTY_NAME })
  },
  pagerduty: (p, got, kind) => {
    expect(got.headers.accept).toBe('application/vnd.pagerduty+json;version=2')
    expect(p.routing_key).toBe('rk-123')
    expect(p.event_action).toBe(kind === 'fired' ? 'trigger' : 'resolve')
    // The same dedup_key for both (the occurrence's): the resolve closes the trigger's incident.
    expect(p.dedup_key).toBe('lab-pve1-101-cpu@2025-01-01T10:00:00.000Z')
    expect(p.payload).toMatchObject({
      severity: kind === 'fired' ? 'critical' : 'info',
      source: NASTY_NAME,
      component: NASTY_NAME,
      group: 'pve1',
      class: 'cpu',
      // The event's time, not the send's: a retry sends the same payload.
      timestamp: kind === 'fired' ? '2025-01-01T10:00:00.000Z' : '2025-01-01T10:20:00.000Z',
    })
    expect(p.payload.summary).toContain(NASTY_NAME)
    expect(p.payload.custom_details).toMatchObject({ alert_id: 'lab-pve1-101-cpu', value: 95.3 })
  },
  pushover: (p, _got, kind) => {
    expect(p).toMatchObject({ token: 'app-tok', user: 'user-tok', sound: 'siren' })
    expect(p.title).toContain(NASTY_NAME)
    expect(p.message).toMatch(/^VM CPU at 95\.3% \(threshold 80%\)\n/)
    // The node and the resource are in the message, as the reference sends them.
    expect(p.message).toContain('Node: pve1')
    expect(p.message).toContain(`Resource: ${NASTY_NAME}`)
    expect(p.priority).toBe(kind === 'fired' ? 1 : -1)
    expect(p.timestamp).toBe(Math.floor(NOW / 1000))
  },
  gotify: (p, got, kind) => {
    expect(got.url).toBe('/message?token=AbCdEf123')
    expect(p.title).toContain(NASTY_NAME)
    expect(p.message).toBe('VM CPU at 95.3% (threshold 80%)')
    expect(p.priority).toBe(kind === 'fired' ? 10 : 2)
    expect(p.extras.pulse).toMatchObject({ resource: NASTY_NAME, event: kind })
  },
  ntfy: () => {},
}

describe.each(WEBHOOK_SERVICES)('service %s', (service) => {
  it.each(['fired', 'resolved'] as const)(
    'delivers a %s alert in its payload shape',
    async (kind) => {
      const got = await sendOne(service, kind === 'fired' ? fired() : resolved())
      if (service === 'ntfy') {
        expect(got.headers['content-type']).toBe('text/plain')
        expect(got.body).toContain(NASTY_NAME)
        expect(got.body).toContain('VM CPU at 95.3% (threshold 80%)')
        expect(got.headers.title).toContain('vm "web"\\01 line_two')
        expect(got.headers.priority).toBe(kind === 'fired' ? 'urgent' : 'low')
        expect(got.headers.tags).toBe(kind === 'fired' ? 'rotating_light' : 'white_check_mark')
        return
      }
      expect(got.headers['content-type']).toBe('application/json')
      CHECKS[service](JSON.parse(got.body), got, kind)
    },
  )
})

describe('priorities', () => {
  const pushover = (customFields: Record<string, string>) =>
    makeWebhook({
      service: 'pushover',
      customFields: { app_token: 'a', user_token: 'u', ...customFields },
      secretFields: ['app_token', 'user_token'],
    })
  const body = (batch: NotificationBatch, webhook = pushover({})) =>
    JSON.parse(renderWebhook(batch, webhook, { now: NOW }).body)

  it('sends the Pushover priority custom field instead of the level default', () => {
    const emergency = body(fired(makeAlert({ level: 'warning' })), pushover({ priority: '2' }))
    // Emergency priority needs retry and expire, or Pushover refuses the message.
    expect(emergency).toMatchObject({ priority: 2, retry: 60, expire: 3600 })
    expect(body(fired(), pushover({ priority: '-2' })).priority).toBe(-2)
    expect(body(fired(makeAlert({ level: 'warning' }))).priority).toBe(0)
    expect(body(fired()).retry).toBeUndefined()
    // A recovery stays quiet whatever the field says (the reference's -1).
    expect(body(resolved(), pushover({ priority: '2' })).priority).toBe(-1)
  })

  it('ignores a priority field that is not -2 to 2 (an old import), keeping the JSON valid', () => {
    expect(body(fired(), pushover({ priority: '7", "x": "y' })).priority).toBe(1)
  })

  it('sends Gotify 10 for critical, 5 for warning, 2 for a recovery', () => {
    const gotify = makeWebhook({ service: 'gotify' })
    const priority = (batch: NotificationBatch) => body(batch, gotify).priority
    expect(priority(fired())).toBe(10)
    expect(priority(fired(makeAlert({ level: 'warning' })))).toBe(5)
    expect(priority(resolved())).toBe(2)
  })
})

describe('templates', () => {
  it('lists the ten services with their URL pattern, method, headers and instructions', () => {
    expect(WEBHOOK_TEMPLATES.map((t) => t.service)).toEqual([...WEBHOOK_SERVICES])
    for (const t of WEBHOOK_TEMPLATES) {
      expect(t.urlPattern).toMatch(/^https:\/\//)
      expect(t.method).toBe('POST')
      expect(t.instructions).not.toBe('')
    }
    const pushover = WEBHOOK_TEMPLATES.find((t) => t.service === 'pushover')!
    expect(pushover.requiredFields).toEqual(['app_token', 'user_token'])
  })

  it("uses the webhook's own template over the service's", () => {
    const webhook = makeWebhook({
      service: 'discord',
      template: '{"who": {{ ResourceName | json }}, "n": {{ AlertCount }}, "x": {{ Value }}}',
    })
    const body = JSON.parse(renderWebhook(fired(), webhook, { now: NOW }).body)
    expect(body).toEqual({ who: NASTY_NAME, n: 1, x: 95.3 })
  })

  it('gives a custom template the first 100 alerts of a group and the count of all', () => {
    const events = Array.from({ length: 150 }, (_, i) => ({
      kind: 'fired' as const,
      alert: makeAlert({ id: `a${i}` }),
      at: NOW,
    }))
    const template =
      '{"listed": {{ Alerts | size }}, "count": {{ AlertCount }}, "last": {{ Alerts.last.ID | json }}}'
    const webhook = makeWebhook({ template })
    const body = renderWebhook({ key: 'g', events, createdAt: NOW }, webhook, { now: NOW }).body
    expect(JSON.parse(body)).toEqual({ listed: 100, count: 150, last: 'a99' })
  })

  it('gives custom templates no file system', () => {
    const webhook = makeWebhook({ template: "{% include 'package.json' %}" })
    expect(() => renderWebhook(fired(), webhook, { now: NOW })).toThrow()
  })

  it('skips custom header values holding template syntax, and sends the others', () => {
    const webhook = makeWebhook({
      headers: { 'X-Plain': 'yes', 'X-Templated': '{{ ID }}', Authorization: 'Bearer t' },
    })
    const { headers } = renderWebhook(fired(), webhook, { now: NOW })
    expect(headers).toMatchObject({ 'X-Plain': 'yes', Authorization: 'Bearer t' })
    expect(headers['X-Templated']).toBeUndefined()
  })
})

describe('grouped and summary batches', () => {
  const group: NotificationBatch = {
    key: 'k-group',
    events: [101, 102, 103].map((vmid) => ({
      kind: 'fired' as const,
      alert: makeAlert({ id: `lab-pve1-${vmid}-cpu`, resourceName: `vm-${vmid}` }),
      at: NOW,
    })),
    createdAt: NOW,
  }
  const summary: NotificationBatch = {
    ...group,
    key: 'k-storm',
    summary: { reason: 'storm', text: '142 alerts on pve3: 120 powered-off, 22 cpu', count: 142 },
  }

  it('sends the generic group as every alert with its event, in the same schema', async () => {
    const mixed: NotificationBatch = {
      ...group,
      events: [
        ...group.events,
        { kind: 'resolved', alert: resolvedAlert({ id: 'lab-pve1-104-cpu' }), at: NOW },
      ],
    }
    const p = JSON.parse((await sendOne('generic', mixed)).body)
    expect(Object.keys(p).sort()).toEqual(GENERIC_KEYS)
    expect(p).toMatchObject({
      count: 4,
      grouped: true,
      source: 'pulse-monitoring',
      timestamp: new Date(NOW).toISOString(),
      summary: null,
    })
    expect(p.alerts.map((a: Json) => [a.id, a.event])).toEqual([
      ['lab-pve1-101-cpu', 'fired'],
      ['lab-pve1-102-cpu', 'fired'],
      ['lab-pve1-103-cpu', 'fired'],
      ['lab-pve1-104-cpu', 'resolved'],
    ])
    for (const a of p.alerts) expect(Object.keys(a).sort()).toEqual(GENERIC_ALERT_KEYS)
    expect(p.alert).toEqual(p.alerts[0])
  })

  it('renders a service group with the first alert and the list of all', async () => {
    const p = JSON.parse((await sendOne('discord', group)).body)
    expect(p.embeds[0].title).toContain('vm-101')
    expect(p.embeds[0].description).toContain('All 3 alerts:')
    expect(p.embeds[0].description).toContain('vm-103')
  })

  it('sends a summary as its text', async () => {
    const generic = JSON.parse((await sendOne('generic', summary)).body)
    expect(Object.keys(generic).sort()).toEqual(GENERIC_KEYS)
    expect(generic).toMatchObject({
      summary: { reason: 'storm', text: summary.summary!.text },
      count: 142,
      grouped: true,
      alert: null,
      alerts: [],
    })
    const slack = JSON.parse((await sendOne('slack', summary)).body)
    expect(slack.text).toBe(summary.summary!.text)
    const ntfy = await sendOne('ntfy', summary)
    expect(ntfy.body).toContain(summary.summary!.text)
  })

  it('caps the listed alerts of a large group and renders every payload as JSON', () => {
    const events = Array.from({ length: 10_000 }, (_, i) => ({
      kind: 'fired' as const,
      alert: makeAlert({ id: `a-${i}`, resourceName: `vm-${i}` }),
      at: NOW,
    }))
    const big: NotificationBatch = { key: 'k-big', events, createdAt: NOW }
    for (const service of WEBHOOK_SERVICES) {
      const { body } = renderWebhook(big, hookFor(service), { now: NOW })
      if (service === 'generic') expect(JSON.parse(body).count).toBe(10_000)
      else if (service !== 'ntfy') JSON.parse(body)
      if (service !== 'generic') expect(body).toContain('… and 9975 more')
    }
  })
})
