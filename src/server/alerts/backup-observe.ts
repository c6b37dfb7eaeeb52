// Issue 26: the observation of one backup alert kind, shared by the guest, orphan and PBS job
// evaluators. A backup condition is on, off, or neither (data that cannot decide: a job still
// running, coverage unknown): then an open alert is kept as it is, refreshed, never resolved.
import type {
  Alert,
  AlertLevel,
  AlertMetadata,
  AlertResourceType,
  BackupAlertType,
} from '../../shared/model/alerts.ts'
import type { EngineRun } from './engine-run.ts'
import type { Place } from './observations.ts'

/** What one poll says about one backup alert of a resource. */
export interface BackupCondition {
  on: boolean
  off: boolean
  /** The kind is switched off for this resource: an open alert ends as 'disabled'. */
  disabled: boolean
  level: AlertLevel
  value: number
  threshold: number
  message: string
  unit?: string
}

/** Metadata per resource type and unit, shared by every alert (alerts are never mutated). */
const metadataCache = new Map<string, AlertMetadata>()
function metadataOf(resourceType: AlertResourceType, unit: string | undefined): AlertMetadata {
  const key = `${resourceType}\0${unit ?? ''}`
  let metadata = metadataCache.get(key)
  if (!metadata) {
    metadata = unit === undefined ? { resourceType } : { resourceType, unit }
    metadataCache.set(key, metadata)
  }
  return metadata
}

/**
 * The resource's open alert of this kind: a guest or an instance has at most one per kind; a PBS
 * has one per job (`id` given).
 */
export function openOf(
  existing: readonly Alert[] | undefined,
  type: BackupAlertType,
  id?: string,
): Alert | null {
  if (!existing) return null
  for (const alert of existing)
    if (alert.type === type && (id === undefined || alert.id === id)) return alert
  return null
}

/**
 * Observe one backup kind of a resource. `idOf` builds the id only when a new alert may start;
 * an open alert is found in the backup index (EngineRun.backups), so no id is hashed.
 */
export function observeBackup(
  run: EngineRun,
  place: Place,
  open: Alert | null,
  type: BackupAlertType,
  idOf: (key: string) => string,
  /** What the id is built from: the guest id, the PBS job id, the instance. */
  key: string,
  c: BackupCondition,
): void {
  if (!open && (!c.on || c.disabled)) return
  const undecided = open !== null && !c.on && !c.off && !c.disabled
  run.observe(
    {
      id: open ? open.id : idOf(key),
      klass: place.klass,
      delayKey: type,
      disabled: c.disabled,
      // Undecided: the open alert is confirmed as it stands.
      on: undecided ? true : c.on,
      off: undecided ? false : c.off,
      value: undecided ? open.value : c.value,
      threshold: undecided ? open.threshold : c.threshold,
      clear: undefined,
      level: undecided ? open.level : c.level,
      metric: false,
      type,
      resourceId: place.resourceId,
      resourceName: place.resourceName,
      node: place.node,
      instance: place.instance,
      message: undecided ? open.message : c.message,
      metadata: undecided && open.metadata ? open.metadata : metadataOf(place.resourceType, c.unit),
    },
    open,
  )
}

/** Hold a resource's open backup alerts as they are, marked stale (their source is not answering). */
export function holdBackups(run: EngineRun, existing: readonly Alert[] | undefined): void {
  if (existing) for (const alert of existing) run.holdStale(alert)
}
