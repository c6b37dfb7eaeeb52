// STAND-IN: replaced by the engine branch. Guest cpu alerts only, no delay, no flapping.
import type { Alert, AlertConfig } from '../../shared/model/alerts.ts'
import type { State } from '../../shared/model/state.ts'
import type { EngineState, EvaluateResult, Transition } from './engine-types.ts'

export function evaluate(
  state: State,
  config: AlertConfig,
  now: number,
  previous: EngineState,
): EvaluateResult {
  const active = new Map(previous.active)
  const transitions: Transition[] = []
  const at = new Date(now).toISOString()
  const seen = new Set<string>()
  for (const g of [...state.vms, ...state.containers]) {
    const id = `${g.id}-cpu`
    const value = g.cpu * 100
    const { trigger, clear } = config.guestDefaults.cpu
    const old = active.get(id)
    if (g.status !== 'running' || trigger <= 0) continue
    seen.add(id)
    if (!old && value >= trigger) {
      const alert: Alert = {
        id,
        type: 'cpu',
        level: value >= trigger + 10 ? 'critical' : 'warning',
        resourceId: g.id,
        resourceName: g.name,
        node: g.node,
        instance: g.instance,
        message: `VM cpu at ${value.toFixed(1)}%`,
        value,
        threshold: trigger,
        peak: value,
        startTime: at,
        lastSeen: at,
        acknowledged: false,
        metadata: { resourceType: g.type === 'lxc' ? 'Container' : 'VM' },
      }
      active.set(id, alert)
      transitions.push({ kind: 'fired', alert, at: now })
    } else if (old && value <= clear) {
      active.delete(id)
      const resolved = { ...old, resolvedTime: at, endReason: 'resolved' as const }
      transitions.push({ kind: 'resolved', alert: resolved, at: now, reason: 'resolved' })
    } else if (old && old.value !== value) {
      active.set(id, { ...old, value, peak: Math.max(old.peak, value), lastSeen: at })
    }
  }
  for (const [id, old] of previous.active) {
    if (seen.has(id) || !id.endsWith('-cpu')) continue
    if (config.guestDefaults.cpu.trigger > 0 && state.lastUpdate === previous.lastPoll) continue
    active.delete(id)
    const resolved = { ...old, resolvedTime: at, endReason: 'disabled' as const }
    transitions.push({ kind: 'resolved', alert: resolved, at: now, reason: 'disabled' })
  }
  const changed =
    transitions.length > 0 || [...active].some(([id, a]) => previous.active.get(id) !== a)
  const next: EngineState = {
    ...previous,
    active: changed ? active : previous.active,
    recentlyResolved: transitions.length
      ? [
          ...transitions.flatMap((t) => (t.kind === 'resolved' ? [t.alert] : [])),
          ...previous.recentlyResolved,
        ]
      : previous.recentlyResolved,
    lastPoll: state.lastUpdate,
  }
  return { next, transitions }
}
