// Notifications (issue 15, acceptance 6): 10,000 alerts firing in one cycle to 3 destinations,
// on a real SQLite file (the app's schema, WAL). Timed: planning every event for every
// destination and inserting the rows in one transaction (the dispatcher's enqueueEvents, policy
// memory lookups included), then claiming the due rows and building one batch per destination
// and group (buildBatch), then rendering every batch as an email and as two webhook payloads.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { Alert } from '../src/shared/model/alerts.ts'
import type {
  NotificationBatch,
  NotificationEvent,
  Webhook,
} from '../src/shared/model/notifications.ts'
import { renderEmail } from '../src/server/notify/email/render.ts'
import { renderWebhookRequests } from '../src/server/notify/webhook/render.ts'
import { DEFAULT_ALERT_CONFIG } from '../src/server/alerts/config-defaults.ts'
import { buildBatch } from '../src/server/notify/batches.ts'
import { enqueueEvents } from '../src/server/notify/dispatcher.ts'
import type { PolicyDestination } from '../src/server/notify/types.ts'
import { openDatabase } from '../src/server/store/db.ts'
import { createOutboxRepo } from '../src/server/store/outbox-repo.ts'
import { measure, type BenchResult } from './harness.ts'

const NOW = Date.UTC(2025, 9, 1)
const DESTINATIONS: PolicyDestination[] = [
  { kind: 'email', id: 'email', name: 'Email' },
  { kind: 'webhook', id: 'hook-slack', name: 'Slack' },
  { kind: 'webhook', id: 'hook-pd', name: 'PagerDuty' },
]

function webhook(service: Webhook['service'], url: string): Webhook {
  return {
    id: `hook-${service}`,
    name: service,
    url,
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    enabled: true,
    service,
    template: '',
    customFields:
      service === 'pagerduty' ? { routing_key: 'R0UTINGKEY0000000000000000000000' } : {},
    secretFields: [],
  }
}
const SLACK = webhook(
  'slack',
  'https://hooks.slack.com/services/T000/B000/XXXXXXXXXXXXXXXXXXXXXXXX',
)
const PAGERDUTY = webhook('pagerduty', 'https://events.pagerduty.com/v2/enqueue')

/** Payload renderers timed over every built batch (each batch rendered by each renderer). */
export const renderers: Array<{ name: string; render: (batch: NotificationBatch) => unknown }> = [
  { name: 'email (subject, text, HTML)', render: (batch) => renderEmail(batch) },
  { name: 'webhook slack', render: (batch) => [...renderWebhookRequests(batch, SLACK)] },
  // PagerDuty gets one event per alert (each its own incident): a batch renders many requests.
  {
    name: 'webhook pagerduty (one per alert)',
    render: (batch) => [...renderWebhookRequests(batch, PAGERDUTY)],
  },
]

function events(count: number, cycle: number): NotificationEvent[] {
  const at = NOW + cycle * 10_000
  const out: NotificationEvent[] = []
  for (let i = 0; i < count; i++) {
    const node = `pve${i % 50}`
    // Other guests each cycle: the same ones again would meet the 30-minute cooldown.
    const vmid = 100 + i + cycle * count
    const alert: Alert = {
      id: `lab-${node}-${vmid}-cpu`,
      type: 'cpu',
      level: i % 5 === 0 ? 'critical' : 'warning',
      resourceId: `lab-${node}-${vmid}`,
      resourceName: `vm-${vmid}`,
      node,
      instance: 'lab',
      message: `VM cpu at ${80 + (i % 20)}%`,
      value: 80 + (i % 20),
      threshold: 80,
      peak: 80 + (i % 20),
      // A new occurrence each cycle: every iteration plans fresh rows.
      startTime: new Date(at).toISOString(),
      lastSeen: new Date(at).toISOString(),
      acknowledged: false,
    }
    out.push({ kind: 'fired', alert, at })
  }
  return out
}

export function benchNotify(count: number): BenchResult[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pulse-bench-notify-'))
  try {
    const db = openDatabase(dir)
    const repo = createOutboxRepo(db)
    const schedule = DEFAULT_ALERT_CONFIG.schedule
    // Each iteration writes 30k rows: few iterations keep the run within a minute.
    const warmup = 2
    const iterations = 15
    let cycle = 0
    let input: NotificationEvent[] = []
    const enqueue = measure({
      name: `plan + enqueue (${DESTINATIONS.length} destinations, 1 transaction)`,
      size: count,
      warmup,
      iterations,
      before: () => {
        // The previous cycle's rows were sent (history the policy's lookups see, as in
        // production); older ones go, so every iteration meets the same table size.
        db.exec(`DELETE FROM notification_outbox WHERE status = 'sent';
                 UPDATE notification_outbox SET status = 'sent', sent_at = due_at
                 WHERE status IN ('pending', 'failed')`)
        input = events(count, ++cycle)
      },
      run: () => {
        const n = enqueueEvents(repo, input, schedule, DESTINATIONS, NOW + cycle * 10_000)
        if (n !== count * DESTINATIONS.length) throw new Error(`enqueued ${n}`)
      },
    })
    let batches: NotificationBatch[] = []
    const build = measure({
      name: 'claim due rows + buildBatch per destination and group',
      size: count,
      warmup,
      iterations,
      before: () => {
        db.exec(`UPDATE notification_outbox SET status = 'sent', sent_at = due_at
                 WHERE status IN ('pending', 'failed')`)
        // The hourly prune keeps the table at its row cap, as in production.
        repo.prune(NOW + cycle * 10_000)
        input = events(count, ++cycle)
        enqueueEvents(repo, input, schedule, DESTINATIONS, NOW + cycle * 10_000)
      },
      run: () => {
        // The default schedule groups by node for 5 minutes: the rows are due when it ends.
        const now = NOW + cycle * 10_000 + schedule.groupingWindow * 1000 + 1000
        batches = repo.claimDue(now).map((b) =>
          buildBatch(
            b.rows.map((r) => r.event),
            b.batchKey,
            schedule,
            now,
          ),
        )
        if (batches.reduce((n, b) => n + b.events.length, 0) !== count * DESTINATIONS.length)
          throw new Error('batches lost events')
      },
    })
    const results = [enqueue, build]
    for (const renderer of renderers) {
      results.push(
        measure({
          name: `render ${renderer.name}`,
          size: count,
          warmup,
          iterations,
          run: () => {
            for (const batch of batches) renderer.render(batch)
          },
        }),
      )
    }
    db.close()
    return results
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}
