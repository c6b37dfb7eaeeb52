// Builders of the observations the per-kind evaluators hand to EngineRun.observe. Called only for
// resources with trouble (a value at or over a trigger, or an alert already open).
import type {
  AlertLevel,
  AlertMetadata,
  AlertMetric,
  AlertResourceType,
  AlertType,
  ResourceClass,
  ThresholdPair,
} from '../../shared/model/alerts.ts'
import { metricUnit } from './alert-ids.ts'

/** What one poll says about one alert id. Built only for resources with trouble. */
export interface Observation {
  id: string
  klass: ResourceClass
  /** The metric or alert type, for metricTimeThresholds. */
  delayKey: string
  /** The metric, class or resource is switched off: an existing alert resolves as 'disabled'. */
  disabled?: boolean
  /** The condition holds (value >= trigger, or the state is bad). */
  on: boolean
  /** The condition is gone (value <= clear); between clear and trigger a metric is neither. */
  off: boolean
  value: number
  threshold: number
  clear?: number
  level: AlertLevel
  /** Metric alerts take part in re-fire suppression and keep a peak. */
  metric: boolean
  type: AlertType
  resourceId: string
  resourceName: string
  node: string
  instance: string
  /** null: a metric message, built from type, value and metadata when an alert is written. */
  message: string | null
  metadata: AlertMetadata
}

/** Where an alert is: the resource's identity fields every alert carries. */
export interface Place {
  resourceId: string
  resourceName: string
  node: string
  instance: string
  resourceType: AlertResourceType
  klass: ResourceClass
}

/** Points above the trigger at which a metric alert is critical (wire-protocol.md §5.2). */
export const CRITICAL_MARGIN = 10

/** A metric observation; `pair` null means the metric is off (resolves an open alert). */
export function metricObservation(
  place: Place,
  id: string,
  metric: AlertMetric,
  value: number,
  pair: ThresholdPair | null,
  extra?: { mountpoint?: string; device?: string },
): Observation {
  const trigger = pair ? pair.trigger : Infinity
  // One shape for every observation (clear undefined when off), so observe() stays monomorphic.
  // The message is built by EngineRun only when an alert is written (null here: a resolution
  // never reads it); metadata without a filesystem is shared (alerts are never mutated).
  return {
    id,
    klass: place.klass,
    delayKey: metric,
    disabled: pair === null,
    on: value >= trigger,
    off: pair ? value <= pair.clear : true,
    value,
    threshold: pair ? pair.trigger : 0,
    clear: pair ? pair.clear : undefined,
    level: value >= trigger + CRITICAL_MARGIN ? 'critical' : 'warning',
    metric: true,
    type: metric,
    resourceId: place.resourceId,
    resourceName: place.resourceName,
    node: place.node,
    instance: place.instance,
    message: null,
    metadata: extra
      ? filesystemMetadata(place.resourceType, metric, pair, extra)
      : sharedMetadata(place.resourceType, metric, pair),
  }
}

/** A blank guest place, to be refilled per guest. */
export function blankPlace(): Place {
  return {
    resourceId: '',
    resourceName: '',
    node: '',
    instance: '',
    resourceType: 'VM',
    klass: 'guest',
  }
}

/** A blank metric observation, to be filled by fillMetricObservation. */
export function blankObservation(): Observation {
  return metricObservation(blankPlace(), '', 'cpu', 0, null)
}

/**
 * metricObservation written into `o` (a scratch observation the guest loop reuses): at 100,000
 * guests a storm observes thousands of metrics per poll, and EngineRun.observe never keeps the
 * observation (alerts, pending entries and transitions copy what they need), so one object does.
 * Every field is written, in metricObservation's order, so observe() sees one shape.
 */
export function fillMetricObservation(
  o: Observation,
  place: Place,
  id: string,
  metric: AlertMetric,
  value: number,
  pair: ThresholdPair | null,
): Observation {
  const trigger = pair ? pair.trigger : Infinity
  o.id = id
  o.klass = place.klass
  o.delayKey = metric
  o.disabled = pair === null
  o.on = value >= trigger
  o.off = pair ? value <= pair.clear : true
  o.value = value
  o.threshold = pair ? pair.trigger : 0
  o.clear = pair ? pair.clear : undefined
  o.level = value >= trigger + CRITICAL_MARGIN ? 'critical' : 'warning'
  o.metric = true
  o.type = metric
  o.resourceId = place.resourceId
  o.resourceName = place.resourceName
  o.node = place.node
  o.instance = place.instance
  o.message = null
  o.metadata = sharedMetadata(place.resourceType, metric, pair)
  return o
}

/** Built by assignment, not conditional spreads (a slow path per call); same key order. */
function filesystemMetadata(
  resourceType: AlertResourceType,
  metric: AlertMetric,
  pair: ThresholdPair | null,
  extra: { mountpoint?: string; device?: string },
): AlertMetadata {
  const metadata: AlertMetadata = { resourceType }
  if (pair) metadata.clearThreshold = pair.clear
  metadata.unit = metricUnit(metric)
  if (extra.mountpoint !== undefined) metadata.mountpoint = extra.mountpoint
  if (extra.device !== undefined) metadata.device = extra.device
  return metadata
}

/** Metadata per (resource type, unit, clear level): one object shared by every alert. */
const metadataCache = new Map<AlertResourceType, Map<string, Map<number, AlertMetadata>>>()
/** The clear level's key for a metric switched off (no clearThreshold). */
const OFF = Number.NaN

function sharedMetadata(
  resourceType: AlertResourceType,
  metric: AlertMetric,
  pair: ThresholdPair | null,
): AlertMetadata {
  const unit = metricUnit(metric)
  let byUnit = metadataCache.get(resourceType)
  if (!byUnit) metadataCache.set(resourceType, (byUnit = new Map()))
  let byClear = byUnit.get(unit)
  if (!byClear) byUnit.set(unit, (byClear = new Map()))
  const clear = pair ? pair.clear : OFF
  let metadata = byClear.get(clear)
  if (!metadata) {
    // Bounded: clear levels are config values, few per unit.
    if (byClear.size > 1024) byClear.clear()
    metadata = pair ? { resourceType, clearThreshold: pair.clear, unit } : { resourceType, unit }
    byClear.set(clear, metadata)
  }
  return metadata
}

/** A state observation (offline, powered off, disk health, ZFS): on or off, no value. */
export function stateObservation(
  place: Place,
  id: string,
  type: Observation['type'],
  on: boolean,
  level: Observation['level'],
  message: string,
  disabled: boolean,
  metadata?: Partial<AlertMetadata>,
): Observation {
  return {
    id,
    klass: place.klass,
    delayKey: type,
    disabled,
    on,
    off: !on,
    value: 0,
    threshold: 0,
    clear: undefined,
    level,
    metric: false,
    type,
    resourceId: place.resourceId,
    resourceName: place.resourceName,
    node: place.node,
    instance: place.instance,
    message,
    metadata: metadata
      ? { resourceType: place.resourceType, ...metadata }
      : { resourceType: place.resourceType },
  }
}
