// The Notifications tab's test harness: fixtures and a stubbed /api/notifications (window.fetch via
// render.tsx's stubServer; there is no loopback server in browser tests, the real routes are
// tested on the server side in tests/unit/server).
import { page } from 'vitest/browser'
import type {
  DeliveryRecord,
  EmailConfig,
  EmailProvider,
  Webhook,
  WebhookTemplate,
} from '../../../src/shared/model/notifications.ts'
import { Toasts } from '../../../src/ui/components/Toasts.tsx'
import { AlertsPage } from '../../../src/ui/pages/AlertsPage.tsx'
import { render, stubServer } from './render.tsx'

export const PROVIDERS: EmailProvider[] = [
  {
    name: 'Gmail / Google Workspace',
    smtpHost: 'smtp.gmail.com',
    smtpPort: 587,
    tls: false,
    startTLS: true,
    authRequired: true,
    instructions: 'Use an app password.',
  },
  {
    name: 'Implicit TLS Mail',
    smtpHost: 'smtps.example.net',
    smtpPort: 465,
    tls: true,
    startTLS: false,
    authRequired: true,
    instructions: '',
  },
  {
    name: 'Custom SMTP Server',
    smtpHost: '',
    smtpPort: 587,
    tls: false,
    startTLS: true,
    authRequired: true,
    instructions: '',
  },
]

export const TEMPLATES: WebhookTemplate[] = [
  {
    service: 'generic',
    name: 'Generic',
    urlPattern: '',
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    payloadTemplate: '',
    instructions: '',
    requiredFields: [],
  },
  {
    service: 'discord',
    name: 'Discord',
    urlPattern: 'https://discord.com/api/webhooks/{webhook_id}/{webhook_token}',
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    payloadTemplate: '',
    instructions: 'Server Settings > Integrations > Webhooks.',
    requiredFields: [],
  },
  {
    service: 'pushover',
    name: 'Pushover',
    urlPattern: 'https://api.pushover.net/1/messages.json',
    method: 'PUT',
    headers: { 'Content-Type': 'application/json', 'X-Pushover': 'yes' },
    payloadTemplate: '',
    instructions: 'Create an application at pushover.net.',
    requiredFields: ['app_token', 'user_token'],
  },
]

export function emailConfig(change: Partial<EmailConfig> = {}): EmailConfig {
  return {
    enabled: true,
    provider: 'Custom SMTP Server',
    server: 'mail.lab',
    port: 587,
    username: 'pulse',
    password: '',
    hasPassword: true,
    from: 'pulse@lab.example',
    to: ['ops@lab.example'],
    tls: false,
    startTLS: true,
    replyTo: '',
    rateLimit: 60,
    maxRetries: 3,
    retryDelay: 5,
    ...change,
  }
}

export function webhook(change: Partial<Webhook> = {}): Webhook {
  return {
    id: 'wh1',
    name: 'Ops chat',
    url: 'https://discord.com/api/webhooks/123/****',
    urlMasked: true,
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    enabled: true,
    service: 'discord',
    template: '',
    customFields: {},
    secretFields: [],
    ...change,
  }
}

export interface Call {
  method: string
  url: string
  body: unknown
}

/** The stub server's state; tests set email, hooks and deliveries before mount(). */
export const server: {
  calls: Call[]
  email: EmailConfig
  hooks: Webhook[]
  deliveries: DeliveryRecord[]
  /** Overrides the answer of one route (`METHOD path`), e.g. to make it fail. */
  answers: Record<string, () => Response>
} = { calls: [], email: emailConfig(), hooks: [], deliveries: [], answers: {} }

export function mount(width = 1280) {
  server.calls = []
  server.answers = {}
  stubServer({
    route: (url, init) => {
      const path = new URL(url, location.href).pathname
      if (!path.startsWith('/api/notifications/')) return undefined
      const method = init?.method ?? 'GET'
      const body: unknown = init?.body ? JSON.parse(String(init.body)) : undefined
      server.calls.push({ method, url, body })
      const key = `${method} ${path.replace('/api/notifications', '')}`
      const override = server.answers[key]
      if (override) return override()
      if (key === 'GET /email') return Response.json(server.email)
      if (key === 'PUT /email') return Response.json({ status: 'success' })
      if (key === 'GET /email-providers') return Response.json(PROVIDERS)
      if (key === 'POST /test')
        return Response.json({ status: 'success', message: 'Test notification sent' })
      if (key === 'GET /webhook-templates') return Response.json(TEMPLATES)
      if (key === 'GET /webhooks') return Response.json(server.hooks)
      if (key === 'POST /webhooks') {
        const stored = { ...(body as Webhook), id: `wh${server.hooks.length + 1}` }
        server.hooks.push(stored)
        return Response.json(stored)
      }
      if (key.startsWith('PUT /webhooks/')) return Response.json(body)
      if (key.startsWith('DELETE /webhooks/')) return Response.json({ status: 'success' })
      if (key === 'POST /webhooks/test')
        return Response.json({ status: 200, response: 'ok', success: true })
      if (key === 'GET /deliveries') {
        const status = new URL(url, location.href).searchParams.get('status')
        const list = server.deliveries.filter((record) => !status || record.status === status)
        return Response.json(list, { headers: { 'X-Total-Count': String(list.length) } })
      }
      return new Response('not found', { status: 404 })
    },
  })
  render(
    <>
      <AlertsPage tab="destinations" />
      <Toasts />
    </>,
    { width, height: 900 },
  )
}

export const callsOf = (method: string, suffix: string) =>
  server.calls.filter((call) => call.method === method && call.url.split('?')[0]!.endsWith(suffix))
export const dialog = () => page.getByRole('dialog')

export function delivery(id: number, change: Partial<DeliveryRecord>): DeliveryRecord {
  return {
    id,
    idempotencyKey: `k${id}`,
    destination: { kind: 'webhook', id: 'wh1', name: 'Ops chat' },
    alertIds: ['lab-pve1-101-cpu'],
    eventKinds: ['fired'],
    title: 'Critical: cpu on web',
    status: 'sent',
    attempts: 1,
    createdAt: Date.now() - 60_000,
    dueAt: Date.now() - 60_000,
    ...change,
  }
}
