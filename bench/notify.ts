// Notifications (issue 15, acceptance 6; issue 27, target 7): 10,000 alerts firing in one cycle
// to 3 destinations, on a real SQLite file (the app's schema, WAL). Timed as the event loop's busy
// time: the storm path (notify/storm.ts) committing the dispatch as one inbox row and the worker
// planning it (policy memory included) into outbox rows, then the worker claiming the due rows
// and the loop building one batch per destination and group (buildBatch); the worker's wall
// time beside them, the old all-on-the-loop planning for reference, then rendering every batch
// as an email and as two webhook payloads.
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
import { enqueueEvents } from '../src/server/notify/enqueue.ts'
import { createStormWriter } from '../src/server/notify/storm.ts'
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

/** An async case's figures: the loop's busy time (event-loop utilisation) and the wall time. */
interface LoopTimes {
  loop: number[]
  wall: number[]
}

/** Time `run` `iterations` times after `warmup`: main-thread busy ms (ELU active) and wall ms. */
async function measureLoop(
  warmup: number,
  iterations: number,
  before: () => void,
  run: () => Promise<void>,
): Promise<LoopTimes> {
  const out: LoopTimes = { loop: [], wall: [] }
  for (let i = 0; i < warmup + iterations; i++) {
    before()
    const elu = performance.eventLoopUtilization()
    const start = performance.now()
    await run()
    const wall = performance.now() - start
    const loop = performance.eventLoopUtilization(elu).active
    if (i >= warmup) {
      out.loop.push(loop)
      out.wall.push(wall)
    }
  }
  return out
}

/** Figures as a BenchResult (median, p95, mean, min). */
function result(name: string, size: number, times: readonly number[]): BenchResult {
  const sorted = [...times].sort((a, b) => a - b)
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!
  return {
    name,
    size,
    iterations: sorted.length,
    medianMs: at(0.5),
    p95Ms: at(0.95),
    meanMs: sorted.reduce((sum, t) => sum + t, 0) / sorted.length,
    minMs: sorted[0]!,
  }
}

/**
 * The storm path as the server runs it (notify/storm.ts): the dispatch committed as one inbox row
 * on the loop, planned into outbox rows by the worker thread; the sender's claim read in the
 * worker and the batches built on the loop. The target's figures are the loop's busy time.
 */
export async function benchNotify(count: number): Promise<BenchResult[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pulse-bench-notify-'))
  const db = openDatabase(dir)
  const storm = createStormWriter(db)!
  try {
    const repo = createOutboxRepo(db)
    const schedule = DEFAULT_ALERT_CONFIG.schedule
    // Each iteration writes 30k rows: few iterations keep the run within a minute.
    const warmup = 2
    const iterations = 15
    let cycle = 0
    let input: NotificationEvent[] = []
    const settle = () => {
      // The previous cycle's rows were sent (history the policy's lookups see, as in
      // production); older ones go, so every iteration meets the same table size.
      db.exec(`DELETE FROM notification_outbox WHERE status = 'sent';
               UPDATE notification_outbox SET status = 'sent', sent_at = due_at
               WHERE status IN ('pending', 'failed')`)
      input = events(count, ++cycle)
    }
    const enqueue = await measureLoop(warmup, iterations, settle, async () => {
      const now = NOW + cycle * 10_000
      const n = await storm.enqueue({ events: input, schedule, destinations: DESTINATIONS, now })
      if (n !== count * DESTINATIONS.length) throw new Error(`enqueued ${n}`)
    })
    let batches: NotificationBatch[] = []
    const claimBefore = () => {
      db.exec(`UPDATE notification_outbox SET status = 'sent', sent_at = due_at
               WHERE status IN ('pending', 'failed')`)
      // The hourly prune keeps the table at its row cap, as in production.
      repo.prune(NOW + cycle * 10_000)
      input = events(count, ++cycle)
      enqueueEvents(repo, input, schedule, DESTINATIONS, NOW + cycle * 10_000)
    }
    const claim = await measureLoop(warmup, iterations, claimBefore, async () => {
      // The default schedule groups by node for 5 minutes: the rows are due when it ends.
      const now = NOW + cycle * 10_000 + schedule.groupingWindow * 1000 + 1000
      const claimed = await storm.claimDue(now)
      batches = claimed.map((b) =>
        buildBatch(
          b.rows.map((r) => r.event),
          b.batchKey,
          schedule,
          now,
        ),
      )
      if (batches.reduce((n, b) => n + b.events.length, 0) !== count * DESTINATIONS.length)
        throw new Error('batches lost events')
    })
    // The same work all on the loop, as before the storm path (issue 15's figures): fewer runs.
    const onLoop = measure({
      name: 'on the loop, no worker: plan + insert rows (1 transaction)',
      size: count,
      warmup: 1,
      iterations: 5,
      before: settle,
      run: () => {
        enqueueEvents(repo, input, schedule, DESTINATIONS, NOW + cycle * 10_000)
      },
    })
    const results = [
      result(
        `plan + enqueue: loop ms (${DESTINATIONS.length} destinations, inbox row)`,
        count,
        enqueue.loop,
      ),
      result('claim due rows (worker) + buildBatch: loop ms', count, claim.loop),
      result('storm worker: inbox row to outbox rows, wall ms', count, enqueue.wall),
      result('sender worker read + buildBatch, wall ms', count, claim.wall),
      onLoop,
    ]
    for (const renderer of renderers) {
      let stopped = 0
      const timed = measure({
        name: `render ${renderer.name}`,
        size: count,
        warmup,
        iterations,
        run: () => {
          for (const batch of batches) {
            try {
              renderer.render(batch)
            } catch (err) {
              // The render bound (issue 24) stops a render a loaded machine made slow.
              if (!(err instanceof Error && 'bound' in err)) throw err
              stopped++
            }
          }
        },
      })
      if (stopped > 0) console.log(`render ${renderer.name}: ${stopped} renders stopped by a bound`)
      results.push(timed)
    }
    return results
  } finally {
    await storm.close()
    db.close()
    fs.rmSync(dir, { recursive: true, force: true })
  }
}
