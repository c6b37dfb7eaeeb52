// The sender: every second it claims the outbox's due rows as batches (one destination, group
// key and due time each), sends each through its destination's Channel, and records the outcome
// per row. At least once: a row is 'sent' only after the channel answered ok, so rows left
// pending or failed by a crash go out on the next start under the same batch key. One send in
// flight per destination keeps its order (its due batches go one after another); destinations
// never wait for each other.
import type { AlertSchedule } from '../../shared/model/alerts.ts'
import type { DestinationKind } from '../../shared/model/notifications.ts'
import {
  MAX_ATTEMPTS,
  type ClaimedBatch,
  type OutboxRepo,
  type SentSummary,
} from '../store/outbox-repo.ts'
import { buildBatch } from './batches.ts'
import { STORM_ROWS } from './storm.ts'
import type { Channel, ResolvedDestination, SendResult } from './types.ts'

export const SEND_INTERVAL_MS = 1000
/** How long a batch a channel's rate limit held back waits before it is tried again. */
export const RATE_LIMIT_WAIT_MS = 5000

export interface OutboxDeps {
  repo: OutboxRepo
  channels: Record<DestinationKind, Channel>
  destinations: () => readonly ResolvedDestination[]
  schedule: () => AlertSchedule
  now: () => number
  log: { error(obj: object, msg: string): void }
  intervalMs?: number
  /** Claims due rows off the loop (storm.ts); repo.claimDue otherwise. */
  claimDue?: (now: number, busy: readonly string[]) => Promise<ClaimedBatch[]>
}

export interface Outbox {
  start(): void
  /** Claim and start sending what is due now; resolves when those sends have finished. */
  drain(): Promise<void>
  /** Stop the timer and wait for the sends in flight. */
  stop(): Promise<void>
}

const destinationKey = (kind: string, id: string) => `${kind}:${id}`

function enabled(destination: ResolvedDestination): boolean {
  return destination.kind === 'email' ? destination.config.enabled : destination.webhook.enabled
}

/** Attempts allowed: email's maxRetries (0-5) may lower the outbox's own limit. */
function maxAttempts(destination: ResolvedDestination): number {
  if (destination.kind !== 'email') return MAX_ATTEMPTS
  return Math.min(MAX_ATTEMPTS, 1 + destination.config.maxRetries)
}

function backoffBase(destination: ResolvedDestination): number | undefined {
  return destination.kind === 'email' ? destination.config.retryDelay * 1000 : undefined
}

export function createOutbox(deps: OutboxDeps): Outbox {
  const { repo, log } = deps
  /** Destination key -> the send in flight. */
  const inFlight = new Map<string, Promise<void>>()
  let timer: ReturnType<typeof setInterval> | null = null
  let stopped = false

  const record = (
    batch: ClaimedBatch,
    destination: ResolvedDestination,
    result: SendResult,
    summary: SentSummary | undefined,
  ) => {
    const ids = batch.rows.map((r) => r.id)
    const now = deps.now()
    if (result.ok) {
      repo.markSent(ids, now, result.info, summary)
      return
    }
    // Our own limiter sent nothing: spending attempts on it would dead-letter a storm's tail.
    if (result.deferred) {
      repo.markDeferred(ids, 'rate-limit', now + RATE_LIMIT_WAIT_MS)
      return
    }
    const status = repo.markFailed(ids, {
      error: result.error,
      retryable: result.retryable,
      now,
      maxAttempts: maxAttempts(destination),
      backoffBaseMs: backoffBase(destination),
    })
    if (status === 'dead') {
      log.error(
        { destination: batch.destination.name, batchKey: batch.batchKey, error: result.error },
        'notification dead-lettered after its last attempt',
      )
    }
  }

  /** Send one batch and record the outcome; true when it was delivered. */
  const send = async (batch: ClaimedBatch, destination: ResolvedDestination): Promise<boolean> => {
    const channel = deps.channels[destination.kind]
    const quiet = batch.rows.some((r) => r.reason === 'quiet-hours')
    let result: SendResult
    let summary: SentSummary | undefined
    try {
      const message = buildBatch(
        batch.rows.map((r) => r.event),
        batch.batchKey,
        deps.schedule(),
        deps.now(),
        quiet ? 'quiet-hours' : undefined,
      )
      if (message.summary) summary = { reason: message.summary.reason, text: message.summary.text }
      result = await channel.send(message, destination)
    } catch (err) {
      // A channel that throws is a bug or a transport failure: retried like any failure.
      result = {
        ok: false,
        error: err instanceof Error ? err.message : String(err),
        retryable: true,
      }
    }
    try {
      record(batch, destination, result, summary)
    } catch (err) {
      // The rows stay pending: sent again later (at least once), never lost.
      log.error({ err }, 'recording a notification attempt failed')
    }
    return result.ok
  }

  /**
   * A destination's due batches, one after another: a burst goes out as fast as the destination
   * answers, not one message per tick. The first failure ends the run (the rest would fail the
   * same way and spend their attempts); what is left is claimed again next tick.
   */
  const sendAll = async (batches: readonly ClaimedBatch[], destination: ResolvedDestination) => {
    for (const batch of batches) {
      if (stopped) return
      if (!(await send(batch, destination))) return
    }
  }

  const drain = async () => {
    if (stopped) return
    const busy: string[] = []
    for (const key of inFlight.keys()) busy.push(key.slice(key.indexOf(':') + 1))
    const now = deps.now()
    // A backlog of a storm's size is read and parsed off the loop; a few rows are not worth it.
    const batches =
      deps.claimDue && repo.dueCount(now) >= STORM_ROWS
        ? await deps.claimDue(now, busy)
        : repo.claimDue(now, busy)
    if (stopped) return
    if (batches.length === 0) return
    const byKey = new Map<string, ResolvedDestination>()
    for (const d of deps.destinations()) byKey.set(destinationKey(d.kind, d.id), d)
    const queues = new Map<string, ClaimedBatch[]>()
    for (const batch of batches) {
      const key = destinationKey(batch.destination.kind, batch.destination.id)
      // Its destination is busy: this batch waits its turn (claimed again next tick).
      if (inFlight.has(key)) continue
      const destination = byKey.get(key)
      if (!destination || !enabled(destination)) {
        repo.markSuppressed(
          batch.rows.map((r) => r.id),
          'disabled',
          deps.now(),
        )
        continue
      }
      let queue = queues.get(key)
      if (!queue) queues.set(key, (queue = []))
      queue.push(batch)
    }
    const started: Promise<void>[] = []
    for (const [key, queue] of queues) {
      const destination = byKey.get(key)!
      const sending = sendAll(queue, destination).finally(() => inFlight.delete(key))
      inFlight.set(key, sending)
      started.push(sending)
    }
    await Promise.all(started)
  }

  const tick = () => {
    drain().catch((err: unknown) => log.error({ err }, 'draining the notification outbox failed'))
  }

  return {
    start() {
      if (timer) return
      stopped = false
      timer = setInterval(tick, deps.intervalMs ?? SEND_INTERVAL_MS)
      timer.unref()
      tick()
    },
    drain,
    async stop() {
      stopped = true
      if (timer) clearInterval(timer)
      timer = null
      await Promise.all(inFlight.values())
    },
  }
}
