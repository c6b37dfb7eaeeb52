// Acknowledgement and manual clearing (wire-protocol.md §5.4, §3.6). Pure: each returns the next
// engine state and a result per id in the order given (BulkAlertResult's shape).
import type { Alert, ResolvedAlert } from '../../shared/model/alerts.ts'
import type { EngineState, Transition } from './engine-types.ts'
import { RECENTLY_RESOLVED_MAX } from './engine-types.ts'
import { toResolved } from './alert-build.ts'

export interface AlertActionResult {
  next: EngineState
  results: { alertId: string; success: boolean; error?: string }[]
  transitions: Transition[]
}

const notFound = (alertId: string) => ({
  alertId,
  success: false,
  error: `alert not found: ${alertId}`,
})

function update(
  engine: EngineState,
  ids: readonly string[],
  change: (alert: Alert) => Alert,
): AlertActionResult {
  let active: Map<string, Alert> | null = null
  const results: AlertActionResult['results'] = []
  for (const id of ids) {
    const alert = (active ?? engine.active).get(id)
    if (!alert) {
      results.push(notFound(id))
      continue
    }
    const next = change(alert)
    if (next !== alert) (active ??= new Map(engine.active)).set(id, next)
    results.push({ alertId: id, success: true })
  }
  return { next: active ? { ...engine, active } : engine, results, transitions: [] }
}

/** Acknowledge alerts: acknowledged, ackTime and ackUser ('admin' when none is given). */
export function acknowledge(
  engine: EngineState,
  ids: readonly string[],
  user: string | undefined,
  now: number,
): AlertActionResult {
  const ackTime = new Date(now).toISOString()
  const ackUser = user?.trim() || 'admin'
  return update(engine, ids, (alert) =>
    alert.acknowledged ? alert : { ...alert, acknowledged: true, ackTime, ackUser },
  )
}

/** Withdraw acknowledgements; an alert that is not acknowledged is left as it is. */
export function unacknowledge(engine: EngineState, ids: readonly string[]): AlertActionResult {
  return update(engine, ids, (alert) => {
    if (!alert.acknowledged) return alert
    const { ackTime: _time, ackUser: _user, ...rest } = alert
    return { ...rest, acknowledged: false }
  })
}

/**
 * Remove alerts by hand: each ends as 'cleared' (a resolved transition, kept in recentlyResolved).
 * A condition that still holds opens a new alert after its delay on a later poll.
 */
export function clearAlerts(
  engine: EngineState,
  ids: readonly string[],
  now: number,
): AlertActionResult {
  const resolvedTime = new Date(now).toISOString()
  let active: Map<string, Alert> | null = null
  const results: AlertActionResult['results'] = []
  const transitions: Transition[] = []
  const cleared: ResolvedAlert[] = []
  for (const id of ids) {
    const alert = (active ?? engine.active).get(id)
    if (!alert) {
      results.push(notFound(id))
      continue
    }
    ;(active ??= new Map(engine.active)).delete(id)
    const resolved: ResolvedAlert = toResolved(alert, resolvedTime, 'cleared')
    cleared.unshift(resolved)
    transitions.push({ kind: 'resolved', alert: resolved, at: now, reason: 'cleared' })
    results.push({ alertId: id, success: true })
  }
  if (!active) return { next: engine, results, transitions }
  const recentlyResolved = cleared.concat(engine.recentlyResolved).slice(0, RECENTLY_RESOLVED_MAX)
  return { next: { ...engine, active, recentlyResolved }, results, transitions }
}
