// Wire types of notifications (spec 001 §3 Email config, Email provider, Webhook, Webhook template;
// §7 /api/notifications/*; reference/wire-protocol.md §3.7). Pure types and constants.
import type { Alert, ResolvedAlert } from './alerts.ts'
import type { AlertSilenced } from './silences.ts'

/** Email settings. `password` is write-only: GET answers '' and `hasPassword`. */
export interface EmailConfig {
  enabled: boolean
  /** A provider name of EMAIL_PROVIDERS, or 'Custom SMTP Server'. */
  provider: string
  server: string
  port: number
  username: string
  /** On PUT: '' keeps the stored password; `clearPassword: true` removes it. */
  password: string
  hasPassword?: boolean
  clearPassword?: boolean
  from: string
  /** One address per entry; empty sends to `from`. */
  to: string[]
  /** Implicit TLS (usually port 465). */
  tls: boolean
  startTLS: boolean
  replyTo: string
  /** Messages per minute (1-600; default 60). */
  rateLimit: number
  /** 0-5 (default 3). */
  maxRetries: number
  /** Seconds, 1-60 (default 5). */
  retryDelay: number
}

export interface EmailProvider {
  name: string
  smtpHost: string
  smtpPort: number
  tls: boolean
  startTLS: boolean
  authRequired: boolean
  instructions: string
}

export const WEBHOOK_SERVICES = [
  'generic',
  'discord',
  'slack',
  'telegram',
  'teams',
  'teams-adaptive',
  'pagerduty',
  'pushover',
  'gotify',
  'ntfy',
] as const
export type WebhookService = (typeof WEBHOOK_SERVICES)[number]

export const WEBHOOK_METHODS = ['POST', 'PUT', 'PATCH'] as const
export type WebhookMethod = (typeof WEBHOOK_METHODS)[number]

/**
 * A webhook destination. Secrets never leave the server: GET answers the URL with any secret part
 * masked (`urlMasked: true`), and the values of custom fields named in `secretFields` as ''
 * (`hasSecret[name]: true`). On PUT, a masked URL or an empty secret value keeps the stored one.
 */
export interface Webhook {
  id: string
  name: string
  url: string
  urlMasked?: boolean
  method: WebhookMethod
  headers: Record<string, string>
  enabled: boolean
  service: WebhookService
  /** A custom payload template (the service's own when empty). */
  template: string
  customFields: Record<string, string>
  /** Names of custom fields whose values are secrets (encrypted at rest, never returned). */
  secretFields: string[]
  hasSecret?: Record<string, boolean>
}

export interface WebhookTemplate {
  service: WebhookService
  name: string
  urlPattern: string
  method: WebhookMethod
  headers: Record<string, string>
  payloadTemplate: string
  instructions: string
  /** Custom fields the service needs (pushover: app_token, user_token); cannot be removed. */
  requiredFields: string[]
}

/** What happened to an alert that a notification is about. */
export type NotificationEventKind =
  | 'fired'
  /** Warning became critical. */
  | 'escalated'
  | 'resolved'
  /** Schedule escalation level reached for an unacknowledged alert (`level` = 1-based index). */
  | 'escalation'

export interface NotificationEvent {
  kind: NotificationEventKind
  alert: Alert | ResolvedAlert
  /** Epoch ms the transition happened. */
  at: number
  /** Escalation level (kind 'escalation'). */
  level?: number
  /** Issue 28: the silence covering the alert when the event happened: nothing is sent. */
  silenced?: AlertSilenced
  /**
   * Issue 28: a 'fired' planned when the last silence covering a still-firing alert ended: sent
   * only to a destination that was not told of this occurrence, once (its own key).
   */
  afterSilence?: boolean
  /**
   * Issue 28: the channels the custom rule deciding the alert's guest turns off (its email and
   * webhook switches); those destinations are not sent this event.
   */
  channelsOff?: ChannelsOff
}

/** Channels a custom rule turns off; absent keys are on. */
export interface ChannelsOff {
  email?: true
  webhook?: true
}

/** One message to one destination: one or many events, or a summary that replaces them. */
export interface NotificationBatch {
  /** Idempotency key of the message: stable across retries and restarts. */
  key: string
  events: NotificationEvent[]
  /**
   * Set when the message is a summary (storm control, or what quiet hours held): the text that
   * replaces the individual alerts, e.g. "142 alerts on pve3: 120 powered-off, 22 cpu".
   */
  summary?: { reason: 'storm' | 'quiet-hours'; text: string; count: number }
  /** Epoch ms the batch was built. */
  createdAt: number
}

export type DestinationKind = 'email' | 'webhook'

/** Why a notification was not sent (yet), for the delivery log. */
export type NotSentReason =
  | 'quiet-hours'
  | 'cooldown'
  | 'rate-limit'
  | 'max-per-hour'
  | 'grouped'
  | 'disabled'
  | 'storm'
  /** Issue 28: an active silence covered the alert. */
  | 'silenced'
  /** Issue 28: the custom rule that sets the guest's thresholds turns this channel off. */
  | 'rule'

export type DeliveryStatus =
  /** Waiting for its due time (grouping window, quiet hours end) or the next attempt. */
  | 'pending'
  | 'sent'
  /** An attempt failed; another is due. */
  | 'failed'
  /** The last attempt failed: dead letter. */
  | 'dead'
  /** Not sent, and will not be, for `reason`. */
  | 'suppressed'

/** One row of the delivery log (GET /api/notifications/deliveries). */
export interface DeliveryRecord {
  id: number
  idempotencyKey: string
  destination: { kind: DestinationKind; id: string; name: string }
  alertIds: string[]
  eventKinds: NotificationEventKind[]
  /** Subject line or a one-line summary of the message. */
  title: string
  status: DeliveryStatus
  reason?: NotSentReason
  attempts: number
  lastError?: string
  /** Epoch ms. */
  createdAt: number
  dueAt: number
  sentAt?: number
}
