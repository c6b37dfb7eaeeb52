// The policy's memory for one dispatch: the outbox rows of the alerts in it, read in ONE query
// (OutboxRepo.memoryRows), then answered in memory and kept current with every row this dispatch
// plans, so a later event of the same alert sees the earlier one (a cooldown, a fire sent).
// Per-event SQL lookups cost two or three queries per event and destination: 10,000 alerts to
// three destinations were 60,000 queries; this is one, and one for the open groups.
import type { MemoryRow, OpenGroup } from '../store/outbox-repo.ts'
import type { DeliveryMemory, PlannedDelivery } from './types.ts'

interface Past {
  /** Every notification of the alert to the destination (max per hour counts across occurrences). */
  times: number[]
  /** The last notification per occurrence start time (cooldown is per occurrence). */
  lastByStart: Map<string, number>
  /** Occurrence start times whose 'fired' went or will go to the destination. */
  fired: Set<string>
}

export interface PlanningMemory extends DeliveryMemory {
  openGroupDue(destinationId: string, groupKey: string): number | undefined
  /** A row of this dispatch was stored: later events see it. */
  record(row: PlannedDelivery): void
}

export function createPlanningMemory(
  rows: readonly MemoryRow[],
  openGroups: readonly OpenGroup[],
): PlanningMemory {
  const past = new Map<string, Past>()
  const groups = new Map<string, number>()
  const key = (alertId: string, destinationId: string) => `${alertId}\u0000${destinationId}`
  const entry = (alertId: string, destinationId: string): Past => {
    const k = key(alertId, destinationId)
    let p = past.get(k)
    if (!p) {
      p = { times: [], lastByStart: new Map(), fired: new Set() }
      past.set(k, p)
    }
    return p
  }
  const add = (alertId: string, destinationId: string, kind: string, start: string, at: number) => {
    const p = entry(alertId, destinationId)
    p.times.push(at)
    const last = p.lastByStart.get(start)
    if (last === undefined || at > last) p.lastByStart.set(start, at)
    if (kind === 'fired') p.fired.add(start)
  }
  for (const r of rows) add(r.alertId, r.destinationId, r.eventKind, r.alertStart, r.at)
  for (const g of openGroups) groups.set(key(g.groupKey, g.destinationId), g.due)

  return {
    lastNotified(alertId, startTime, destinationId) {
      return past.get(key(alertId, destinationId))?.lastByStart.get(startTime)
    },
    countSince(alertId, destinationId, since) {
      const p = past.get(key(alertId, destinationId))
      let n = 0
      if (p) for (const t of p.times) if (t >= since) n++
      return n
    },
    firedWasNotified(alertId, startTime, destinationId) {
      return past.get(key(alertId, destinationId))?.fired.has(startTime) ?? false
    },
    // A group this dispatch opens is due at now + window, which is what a later event of the same
    // dispatch computes too: the answer from the dispatch's start stays right throughout.
    openGroupDue(destinationId, groupKey) {
      return groups.get(key(groupKey, destinationId))
    },
    record(row) {
      if (row.status !== 'pending') return
      const { event, destination } = row
      add(event.alert.id, destination.id, event.kind, event.alert.startTime, row.dueAt)
    },
  }
}
