// Alerts, events and batches for the email tests.
import type { Alert, ResolvedAlert } from '../../../../src/shared/model/alerts.ts'
import type {
  EmailConfig,
  NotificationBatch,
  NotificationEvent,
} from '../../../../src/shared/model/notifications.ts'
import { EMAIL_DEFAULTS } from '../../../../src/server/store/email-repo.ts'

export const START = Date.parse('2024-03-01T10:00:00.000Z')

/** A critical VM cpu alert on web-01 (pve1) at 95 % over a 90 % trigger. */
export function makeAlert(overrides: Partial<Alert> = {}): Alert {
  return {
    id: 'lab-pve1-101-cpu',
    type: 'cpu',
    level: 'critical',
    resourceId: 'lab-pve1-101',
    resourceName: 'web-01',
    node: 'pve1',
    instance: 'lab',
    message: 'VM cpu at 95.0%',
    value: 95,
    threshold: 90,
    peak: 95,
    startTime: new Date(START).toISOString(),
    lastSeen: new Date(START + 60_000).toISOString(),
    acknowledged: false,
    metadata: { resourceType: 'VM', unit: '%', clearThreshold: 85 },
    ...overrides,
  }
}

export function resolvedOf(alert: Alert, after: number): ResolvedAlert {
  return { ...alert, resolvedTime: new Date(START + after).toISOString(), endReason: 'resolved' }
}

export function event(
  kind: NotificationEvent['kind'],
  alert: Alert,
  at = START + 5 * 60_000,
): NotificationEvent {
  return { kind, alert, at }
}

export function batchOf(
  events: NotificationEvent[],
  summary?: NotificationBatch['summary'],
): NotificationBatch {
  return { key: `test-${events.length}`, events, createdAt: START, ...(summary ? { summary } : {}) }
}

/** Settings for a plain loopback server on `port`. */
export function smtpConfig(port: number, overrides: Partial<EmailConfig> = {}): EmailConfig {
  return {
    ...EMAIL_DEFAULTS,
    enabled: true,
    provider: 'Custom SMTP Server',
    server: '127.0.0.1',
    port,
    from: 'pulse@example.test',
    to: ['ops@example.test', 'oncall@example.test'],
    startTLS: false,
    replyTo: 'noc@example.test',
    ...overrides,
  }
}
