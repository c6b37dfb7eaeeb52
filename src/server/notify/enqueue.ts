// Planning one dispatch into outbox rows: the policy's memory read once for the dispatch's alerts,
// every event planned for every destination, every row inserted. On the loop (a small dispatch)
// in one transaction; in the storm worker (storm-worker.ts) in slices of a few hundred events, so
// the loop's own writes (an ack, a sent batch) never wait long for the write lock.
import type { AlertSchedule } from '../../shared/model/alerts.ts'
import type { NotificationEvent } from '../../shared/model/notifications.ts'
import type { OutboxRepo } from '../store/outbox-repo.ts'
import { createPlanningMemory, type PlanningMemory } from './planning-memory.ts'
import { planEvent } from './policy.ts'
import type { PolicyDestination } from './types.ts'

export interface EnqueueOptions {
  /** Events per transaction (default: all in one). */
  sliceEvents?: number
  /** Runs inside the transaction of the last slice (the storm worker deletes its inbox row). */
  inLastTransaction?: () => void
}

/**
 * Plan each event for the destinations and insert the rows: the policy of a later event sees the
 * rows of the earlier ones (an open group, a cooldown), through the memory kept across slices.
 */
export function enqueueEvents(
  repo: OutboxRepo,
  events: readonly NotificationEvent[],
  schedule: AlertSchedule,
  destinations: readonly PolicyDestination[],
  now: number,
  options: EnqueueOptions = {},
): number {
  if (events.length === 0 || destinations.length === 0) {
    if (options.inLastTransaction) repo.transaction(options.inLastTransaction)
    return 0
  }
  const slice = Math.max(1, options.sliceEvents ?? events.length)
  let memory: PlanningMemory | null = null
  let inserted = 0
  let next = 0
  while (next < events.length) {
    repo.transaction(() => {
      memory ??= readMemory(repo, events, schedule, now)
      const end = Math.min(events.length, next + slice)
      for (; next < end; next++)
        inserted += planOne(repo, events[next]!, memory, schedule, destinations, now)
      if (next >= events.length) options.inLastTransaction?.()
    })
  }
  return inserted
}

function readMemory(
  repo: OutboxRepo,
  events: readonly NotificationEvent[],
  schedule: AlertSchedule,
  now: number,
): PlanningMemory {
  const alertIds = new Set<string>()
  for (const event of events) alertIds.add(event.alert.id)
  return createPlanningMemory(
    repo.memoryRows([...alertIds]),
    schedule.grouping.enabled ? repo.openGroups(now) : [],
  )
}

function planOne(
  repo: OutboxRepo,
  event: NotificationEvent,
  memory: PlanningMemory,
  schedule: AlertSchedule,
  destinations: readonly PolicyDestination[],
  now: number,
): number {
  const planned = planEvent({
    event,
    schedule,
    destinations,
    now,
    memory,
    openGroupDue: memory.openGroupDue,
  })
  let inserted = 0
  for (const row of planned) {
    // A key already stored (a replanned event) is in the memory already.
    if (!repo.insertOne(row, now)) continue
    inserted++
    memory.record(row)
  }
  return inserted
}
