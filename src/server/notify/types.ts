// The notification pipeline's seams (issue 15). The alert service's transitions become
// NotificationEvents; the policy (policy.ts, pure) decides per destination when, whether and in
// which group each is sent; the outbox (outbox.ts, SQLite) holds every decision as a row before
// anything is sent and drains due rows through a Channel (email/, webhook/).
import type { AlertSchedule } from '../../shared/model/alerts.ts'
import type {
  DestinationKind,
  EmailConfig,
  NotificationBatch,
  NotificationEvent,
  NotSentReason,
  Webhook,
} from '../../shared/model/notifications.ts'

/** A destination as the policy sees it. */
export interface PolicyDestination {
  kind: DestinationKind
  id: string
  name: string
}

/** What the outbox knows of past deliveries; the policy's memory survives a restart through it. */
export interface DeliveryMemory {
  /**
   * Epoch ms of the last notification of this occurrence (alert id + startTime) sent (or due) to
   * `destinationId`, if any: cooldown limits repeats of one occurrence, never a new one.
   */
  lastNotified(alertId: string, startTime: string, destinationId: string): number | undefined
  /** Notifications of `alertId` to `destinationId` sent (or due) since `since` (epoch ms). */
  countSince(alertId: string, destinationId: string, since: number): number
  /** Whether the 'fired' of this occurrence (alert id + startTime) went or will go to it. */
  firedWasNotified(alertId: string, startTime: string, destinationId: string): boolean
}

/** The policy's decision for one event and one destination: one outbox row. */
export interface PlannedDelivery {
  destination: PolicyDestination
  event: NotificationEvent
  /** alert id + event kind (+ level) + occurrence start + destination: stable across retries. */
  idempotencyKey: string
  /** Rows of one destination with the same group key and due time go out as one message. */
  groupKey: string
  /** Epoch ms it may be sent: now, the end of the grouping window, or the end of quiet hours. */
  dueAt: number
  status: 'pending' | 'suppressed'
  reason?: NotSentReason
}

/** Input of the pure policy (policy.ts `planEvent`). */
export interface PlanInput {
  event: NotificationEvent
  schedule: AlertSchedule
  destinations: readonly PolicyDestination[]
  now: number
  memory: DeliveryMemory
  /** Due time of an open group (pending rows not yet sent) of this destination and key, if any. */
  openGroupDue(destinationId: string, groupKey: string): number | undefined
}

/** What a channel answers for one attempt. */
export type SendResult =
  | { ok: true; info?: string }
  | {
      ok: false
      error: string
      retryable: boolean
      /**
       * Held back by the channel's own rate limit: nothing went out, so no attempt is counted and
       * the rows wait (reason 'rate-limit') instead of running towards the dead letter.
       */
      deferred?: boolean
    }

/** A destination with its secrets, only ever on the server. */
export type ResolvedDestination =
  | { kind: 'email'; id: 'email'; name: string; config: EmailConfig }
  | { kind: 'webhook'; id: string; name: string; webhook: Webhook }

/** Sends one batch to one destination (email/ and webhook/ implement it). */
export interface Channel {
  send(batch: NotificationBatch, destination: ResolvedDestination): Promise<SendResult>
}
