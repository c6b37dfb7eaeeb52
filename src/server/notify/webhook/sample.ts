// The sample alerts a webhook Test sends, and the trial a custom template passes before it is
// saved: rendered once as a single alert and once as a group of as many alerts as a custom
// template ever sees, within the engine's bounds (liquid-engine.ts).
import crypto from 'node:crypto'
import type { Alert } from '../../../shared/model/alerts.ts'
import type { NotificationBatch, Webhook } from '../../../shared/model/notifications.ts'
import { TemplateBoundError } from './liquid-engine.ts'
import { renderWebhook } from './render.ts'
import { CUSTOM_ALERTS_MAX } from './template-data.ts'

function sampleAlert(now: number, n: number): Alert {
  const vmid = 100 + n
  return {
    id: n === 0 ? 'pulse-test-alert' : `pulse-test-alert-${n}`,
    type: 'cpu',
    level: n % 3 === 2 ? 'critical' : 'warning',
    resourceId: `pulse-test/qemu/${vmid}`,
    resourceName: n === 0 ? 'test-vm' : `test-vm-${vmid}`,
    node: 'pve-test',
    instance: 'pulse-test',
    message: 'This is a test notification from Pulse: CPU at 85% (threshold 80%)',
    value: 85,
    threshold: 80,
    peak: 85,
    startTime: new Date(now - 5 * 60_000).toISOString(),
    lastSeen: new Date(now).toISOString(),
    acknowledged: false,
    metadata: { resourceType: 'VM', unit: '%' },
  }
}

/** The alert a test sends: clearly a test, with every variable filled. */
export function sampleBatch(now: number, count = 1): NotificationBatch {
  return {
    key: `test-${crypto.randomUUID()}`,
    events: Array.from({ length: count }, (_, n) => ({
      kind: 'fired' as const,
      alert: sampleAlert(now, n),
      at: now,
    })),
    createdAt: now,
  }
}

/**
 * Why `webhook`'s custom template cannot be saved, or undefined when it renders a single alert
 * and a group of CUSTOM_ALERTS_MAX within the bounds. A template that fails for another reason
 * (a filter given the wrong type) is refused too: it would fail every delivery.
 */
export function trialRender(webhook: Webhook, now: number): string | undefined {
  if (webhook.template.trim() === '') return undefined
  for (const batch of [sampleBatch(now), sampleBatch(now, CUSTOM_ALERTS_MAX)]) {
    try {
      renderWebhook(batch, webhook, { now })
    } catch (err) {
      const group = batch.events.length > 1 ? ` (tried with ${batch.events.length} alerts)` : ''
      if (err instanceof TemplateBoundError)
        return `${err.message}${group}, over the render bound; simplify it`
      return `does not render${group}: ${(err as Error).message}`
    }
  }
  return undefined
}
