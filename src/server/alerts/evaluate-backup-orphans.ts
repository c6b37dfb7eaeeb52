// Issue 26: the orphaned-backups summary alert per instance (backups of VMIDs no monitored
// instance has), and the backup sources not read yet (issue 27) that hold backup alerts pending.
// Called from evaluate-backups.ts.
import type { State } from '../../shared/model/state.ts'
import { backupOrphanedId } from './alert-ids.ts'
import { observeBackup, openOf } from './backup-observe.ts'
import type { EngineRun } from './engine-run.ts'
import type { Freshness } from './freshness.ts'
import type { Place } from './observations.ts'

/**
 * The pending sources of `state`: PVE instances (those with nodes in the state), and whether any
 * other source (a PBS before its first read) is pending, which counts as a PBS that is down.
 */
export function pendingBackups(state: State): { instances: Set<string>; pbs: boolean } {
  const instances = new Set<string>()
  let pbs = false
  const names = state.backupsPending ?? []
  if (names.length === 0) return { instances, pbs }
  const pve = new Set(state.nodes.map((n) => n.instance))
  for (const name of names) {
    if (pve.has(name)) instances.add(name)
    else pbs = true
  }
  return { instances, pbs }
}

/**
 * One summary alert per instance (PVE instance or PBS id) holding backups of VMIDs no monitored
 * instance has. Instances are few: every health key and every instance with orphans.
 */
export function evaluateOrphans(
  run: EngineRun,
  state: State,
  fresh: Freshness,
  counts: ReadonlyMap<string, number>,
  pending: ReadonlySet<string>,
): void {
  const keys = new Set<string>(counts.keys())
  for (const key of Object.keys(state.connectionHealth ?? {})) {
    if (openOf(run.backups.get(key), 'backup-orphaned')) keys.add(key)
  }
  for (const key of keys) {
    const existing = run.backups.get(key)
    const open = openOf(existing, 'backup-orphaned')
    const pbs = state.pbs.find((p) => p.id === key)
    const isPbs = pbs !== undefined
    if (!fresh.sourceUp(key) || (pbs !== undefined && pbs.status !== 'online')) {
      if (open) run.holdStale(open)
      continue
    }
    const name = pbs ? pbs.name : key
    const count = counts.get(key) ?? 0
    const place: Place = {
      resourceId: key,
      resourceName: name,
      node: '',
      instance: name,
      resourceType: isPbs ? 'PBS' : 'Storage',
      klass: isPbs ? 'pbs' : 'storage',
    }
    const groups = count === 1 ? '1 backup group' : `${count} backup groups`
    observeBackup(run, place, open, 'backup-orphaned', backupOrphanedId, key, {
      on: count > 0,
      // A listing not read yet may hold the orphans still counted.
      off: count === 0 && !pending.has(key),
      disabled:
        !run.config.backups.orphaned || run.config.overrides[key]?.backup?.enabled === false,
      level: 'warning',
      value: count,
      threshold: 0,
      message: `${groups} on ${isPbs ? 'PBS ' : ''}${name} ${count === 1 ? 'belongs' : 'belong'} to no monitored guest`,
    })
  }
}
