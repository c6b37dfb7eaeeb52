// Alerts, schedules and a delivery memory for the pure policy's tests. The memory stands in for the
// outbox (SQLite, another part of issue 15): it remembers the rows the policy planned, which is what
// the outbox's memory answers from.
import { createDefaultAlertConfig } from '../../../../src/server/alerts/config-defaults.ts'
import { planEvent } from '../../../../src/server/notify/policy.ts'
import type {
  DeliveryMemory,
  PlannedDelivery,
  PolicyDestination,
} from '../../../../src/server/notify/types.ts'
import type { Alert, AlertSchedule, ResolvedAlert } from '../../../../src/shared/model/alerts.ts'
import type { NotificationEvent } from '../../../../src/shared/model/notifications.ts'

/** Monday 2024-01-15 12:00 UTC. */
export const T0 = Date.UTC(2024, 0, 15, 12, 0)
export const MIN = 60_000

export const EMAIL: PolicyDestination = { kind: 'email', id: 'email', name: 'Email' }
export const HOOK: PolicyDestination = { kind: 'webhook', id: 'wh-1', name: 'Ops chat' }
export const DESTINATIONS = [EMAIL, HOOK] as const

/** The default schedule with grouping off (each event due at once) unless a test turns it on. */
export function makeSchedule(patch: (s: AlertSchedule) => void = () => {}): AlertSchedule {
  const s = createDefaultAlertConfig().schedule
  s.grouping.enabled = false
  patch(s)
  return s
}

export function makeAlert(over: Partial<Alert> = {}): Alert {
  return {
    id: 'lab-pve1-101-cpu',
    type: 'cpu',
    level: 'warning',
    resourceId: 'lab-pve1-101',
    resourceName: 'vm-101',
    node: 'pve1',
    instance: 'lab',
    message: 'VM cpu at 91%',
    value: 91,
    threshold: 80,
    peak: 91,
    startTime: new Date(T0).toISOString(),
    lastSeen: new Date(T0).toISOString(),
    acknowledged: false,
    ...over,
  }
}

export function resolvedOf(
  alert: Alert,
  at: number,
  endReason: ResolvedAlert['endReason'] = 'resolved',
): ResolvedAlert {
  return { ...alert, resolvedTime: new Date(at).toISOString(), endReason }
}

export const fired = (alert: Alert, at: number): NotificationEvent => ({ kind: 'fired', alert, at })
export const resolved = (alert: Alert, at: number): NotificationEvent => ({
  kind: 'resolved',
  alert: resolvedOf(alert, at),
  at,
})

/** A memory of planned rows, as the outbox keeps them (pending rows count as sent or due). */
export class PlanMemory implements DeliveryMemory {
  readonly rows: { row: PlannedDelivery; plannedAt: number }[] = []

  private pending(alertId: string, destinationId: string) {
    return this.rows.filter(
      (r) =>
        r.row.status === 'pending' &&
        r.row.event.alert.id === alertId &&
        r.row.destination.id === destinationId,
    )
  }

  lastNotified(alertId: string, startTime: string, destinationId: string): number | undefined {
    const times = this.pending(alertId, destinationId)
      .filter((r) => r.row.event.alert.startTime === startTime)
      .map((r) => r.plannedAt)
    return times.length > 0 ? Math.max(...times) : undefined
  }

  countSince(alertId: string, destinationId: string, since: number): number {
    return this.pending(alertId, destinationId).filter((r) => r.plannedAt >= since).length
  }

  firedWasNotified(alertId: string, startTime: string, destinationId: string): boolean {
    return this.pending(alertId, destinationId).some(
      (r) => r.row.event.kind === 'fired' && r.row.event.alert.startTime === startTime,
    )
  }

  /** Pending rows not yet due at `now`, as the outbox's open groups. */
  openGroupDue(now: number) {
    return (destinationId: string, groupKey: string): number | undefined =>
      this.rows.find(
        (r) =>
          r.row.status === 'pending' &&
          r.row.destination.id === destinationId &&
          r.row.groupKey === groupKey &&
          r.row.dueAt > now,
      )?.row.dueAt
  }

  /** Plan `event` at `now` and remember the rows. */
  plan(
    event: NotificationEvent,
    schedule: AlertSchedule,
    now: number,
    destinations: readonly PolicyDestination[] = DESTINATIONS,
  ): PlannedDelivery[] {
    const rows = planEvent({
      event,
      schedule,
      destinations,
      now,
      memory: this,
      openGroupDue: this.openGroupDue(now),
    })
    for (const row of rows) this.rows.push({ row, plannedAt: now })
    return rows
  }
}
