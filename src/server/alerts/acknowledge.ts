// STAND-IN: replaced by the engine branch.
import type { BulkAlertResult } from '../../shared/model/alerts.ts'
import type { EngineState, Transition } from './engine-types.ts'

type Result = { next: EngineState; results: BulkAlertResult['results']; transitions: Transition[] }

function update(
  engine: EngineState,
  ids: readonly string[],
  change: (
    id: string,
    active: Map<string, EngineState['active'] extends ReadonlyMap<string, infer A> ? A : never>,
  ) => void,
): Result {
  const active = new Map(engine.active)
  const results: BulkAlertResult['results'] = []
  for (const id of ids) {
    if (!active.has(id))
      results.push({ alertId: id, success: false, error: `alert not found: ${id}` })
    else {
      change(id, active)
      results.push({ alertId: id, success: true })
    }
  }
  return { next: { ...engine, active }, results, transitions: [] }
}

export function acknowledge(
  engine: EngineState,
  ids: readonly string[],
  user: string,
  now: number,
): Result {
  return update(engine, ids, (id, active) => {
    active.set(id, {
      ...active.get(id)!,
      acknowledged: true,
      ackUser: user,
      ackTime: new Date(now).toISOString(),
    })
  })
}

export function unacknowledge(engine: EngineState, ids: readonly string[]): Result {
  return update(engine, ids, (id, active) => {
    const { ackTime: _t, ackUser: _u, ...rest } = active.get(id)!
    active.set(id, { ...rest, acknowledged: false })
  })
}

export function clearAlerts(engine: EngineState, ids: readonly string[], now: number): Result {
  const transitions: Transition[] = []
  const result = update(engine, ids, (id, active) => {
    const alert = active.get(id)!
    active.delete(id)
    const resolved = {
      ...alert,
      resolvedTime: new Date(now).toISOString(),
      endReason: 'cleared' as const,
    }
    transitions.push({ kind: 'resolved', alert: resolved, at: now, reason: 'cleared' })
  })
  return { ...result, transitions }
}
