// The alert objects the engine writes: a fired alert, an updated one, a resolved one. Spelled out
// key by key for the engine's own alerts: a spread (or a conditional spread) costs several times as
// much per alert, and a poll can write or resolve thousands. Every builder keeps the key order the
// spread would give, so stored and published alerts look the same either way.
import type {
  Alert,
  AlertEndReason,
  AlertMetadata,
  ResolvedAlert,
} from '../../shared/model/alerts.ts'
import type { Observation } from './observations.ts'

/** The alert without its stale / flapping marks (object rest is slow; most alerts have neither). */
export function withoutMarks(alert: Alert): Alert {
  if (alert.stale === undefined && alert.flapping === undefined) return alert
  const { stale: _stale, flapping: _flapping, ...rest } = alert
  return rest
}

/**
 * The resolved form of an alert (without its marks). Spelled out for the engine's own alerts (no
 * acknowledgement fields): a spread plus two new keys costs several times as much per alert, and a
 * poll can resolve thousands. Same keys, same order as the spread.
 */
export function toResolved(
  alert: Alert,
  resolvedTime: string,
  endReason: AlertEndReason,
): ResolvedAlert {
  if (alert.ackTime !== undefined || alert.ackUser !== undefined || alert.metadata === undefined) {
    return { ...withoutMarks(alert), resolvedTime, endReason }
  }
  return {
    id: alert.id,
    type: alert.type,
    level: alert.level,
    resourceId: alert.resourceId,
    resourceName: alert.resourceName,
    node: alert.node,
    instance: alert.instance,
    message: alert.message,
    value: alert.value,
    threshold: alert.threshold,
    peak: alert.peak,
    startTime: alert.startTime,
    lastSeen: alert.lastSeen,
    acknowledged: alert.acknowledged,
    metadata: alert.metadata,
    resolvedTime,
    endReason,
  }
}

/** A new alert from the observation that fired it. */
export function firedAlert(
  o: Observation,
  message: string,
  startTime: string,
  lastSeen: string,
  flapping: boolean,
): Alert {
  // Two literals rather than a conditional spread (slow per call); the same key order.
  return flapping
    ? {
        id: o.id,
        type: o.type,
        level: o.level,
        resourceId: o.resourceId,
        resourceName: o.resourceName,
        node: o.node,
        instance: o.instance,
        message,
        value: o.value,
        threshold: o.threshold,
        peak: o.value,
        startTime,
        lastSeen,
        acknowledged: false,
        flapping: true,
        metadata: o.metadata,
      }
    : {
        id: o.id,
        type: o.type,
        level: o.level,
        resourceId: o.resourceId,
        resourceName: o.resourceName,
        node: o.node,
        instance: o.instance,
        message,
        value: o.value,
        threshold: o.threshold,
        peak: o.value,
        startTime,
        lastSeen,
        acknowledged: false,
        metadata: o.metadata,
      }
}

/** An open alert with the observation's level, value, threshold and metadata. */
export function updatedAlert(
  existing: Alert,
  o: Observation,
  message: string,
  peak: number,
  lastSeen: string,
  flapping: boolean,
): Alert {
  const metadata: AlertMetadata = o.metadata
  const next: Alert =
    existing.ackTime === undefined &&
    existing.ackUser === undefined &&
    existing.metadata !== undefined
      ? {
          id: existing.id,
          type: existing.type,
          level: o.level,
          resourceId: existing.resourceId,
          resourceName: existing.resourceName,
          node: existing.node,
          instance: existing.instance,
          message,
          value: o.value,
          threshold: o.threshold,
          peak,
          startTime: existing.startTime,
          lastSeen,
          acknowledged: existing.acknowledged,
          metadata,
        }
      : {
          ...withoutMarks(existing),
          level: o.level,
          value: o.value,
          threshold: o.threshold,
          message,
          peak,
          lastSeen,
          metadata,
        }
  if (flapping) next.flapping = true // after the spread's keys, as a conditional spread put it
  return next
}
