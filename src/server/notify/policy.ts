// STAND-IN: replaced by the policy branch
// The minimum the outbox tests need: one pending row per destination, due now, one group.
import type { PlanInput, PlannedDelivery } from './types.ts'

export function planEvent(input: PlanInput): PlannedDelivery[] {
  const { event } = input
  return input.destinations.map((destination) => ({
    destination,
    event,
    idempotencyKey: [
      event.alert.id,
      event.kind,
      event.level ?? '',
      event.alert.startTime,
      `${destination.kind}:${destination.id}`,
    ].join('|'),
    groupKey: 'all',
    dueAt: input.now,
    status: 'pending',
  }))
}
