// Rows of the Thresholds tab (spec 001 §3 Threshold override row): one per node, PBS server,
// guest and storage, with its effective thresholds, defaults and override flags. Pure.
import {
  ALERT_METRICS,
  GUEST_METRICS,
  NODE_METRICS,
  PBS_METRICS,
  STORAGE_METRICS,
  type AlertConfig,
  type AlertMetric,
  type ThresholdOverride,
} from '../model/alerts.ts'
import type { PbsInstance } from '../model/backups.ts'
import type { Entity, Guest, PveNode } from '../model/state.ts'
import type { Storage } from '../model/storage.ts'
import { getThresholdResolver } from './alert-thresholds.ts'
import type {
  ThresholdResourceKind,
  ThresholdResourceRow,
  ThresholdTypeLabel,
} from './alert-thresholds-types.ts'

/** Metrics each kind of resource is evaluated on (spec 001 §2, wire-protocol.md §3.6.1). */
export const APPLICABLE_METRICS: Readonly<Record<ThresholdResourceKind, readonly AlertMetric[]>> = {
  guest: GUEST_METRICS,
  node: NODE_METRICS,
  pbs: PBS_METRICS,
  storage: STORAGE_METRICS,
}

const NOT_APPLICABLE: Readonly<Record<ThresholdResourceKind, AlertMetric[]>> = {
  guest: without(GUEST_METRICS),
  node: without(NODE_METRICS),
  pbs: without(PBS_METRICS),
  storage: without(STORAGE_METRICS),
}

function without(metrics: readonly AlertMetric[]): AlertMetric[] {
  return ALERT_METRICS.filter((metric) => !metrics.includes(metric))
}

/** The defaults' trigger per applicable metric of `kind`; PBS uses the node defaults. */
export function defaultTriggers(
  config: AlertConfig | null,
  kind: ThresholdResourceKind,
): Partial<Record<AlertMetric, number>> {
  const out: Partial<Record<AlertMetric, number>> = {}
  if (!config) return out
  if (kind === 'storage') {
    out.usage = config.storageDefault.trigger
    return out
  }
  const defaults: Partial<Record<AlertMetric, { trigger: number }>> =
    kind === 'guest' ? config.guestDefaults : config.nodeDefaults
  for (const metric of APPLICABLE_METRICS[kind]) {
    const pair = defaults[metric]
    if (pair) out[metric] = pair.trigger
  }
  return out
}

/**
 * Effective triggers: the override's value where it sets one, else the matching custom rule's
 * (guests), else the default: the engine's precedence (alert-thresholds.ts).
 */
function effectiveTriggers(
  defaults: Partial<Record<AlertMetric, number>>,
  rule: Partial<Record<AlertMetric, number>> | undefined,
  override: Partial<Record<AlertMetric, number>>,
): Partial<Record<AlertMetric, number>> {
  return rule ? { ...defaults, ...rule, ...override } : { ...defaults, ...override }
}

/** The triggers a guest's highest-priority matching custom rule sets; undefined without one. */
export function ruleTriggers(
  config: AlertConfig | null,
  guest: Guest,
): Partial<Record<AlertMetric, number>> | undefined {
  if (!config || !config.customRules.some((rule) => rule.enabled)) return undefined
  const resolved = getThresholdResolver(config).guest(guest)
  const rule = config.customRules.find((r) => r.id === resolved.ruleId)
  if (!rule) return undefined
  const out: Partial<Record<AlertMetric, number>> = {}
  for (const [metric, pair] of Object.entries(rule.thresholds)) {
    if (pair) out[metric as AlertMetric] = pair.trigger
  }
  return out
}

/** The override's triggers on the metrics that apply to `kind`. */
function overrideTriggers(
  override: ThresholdOverride | undefined,
  kind: ThresholdResourceKind,
): Partial<Record<AlertMetric, number>> {
  const out: Partial<Record<AlertMetric, number>> = {}
  if (!override) return out
  for (const metric of APPLICABLE_METRICS[kind]) {
    const pair = override[metric]
    if (pair) out[metric] = pair.trigger
  }
  return out
}

/** What a row is about, before thresholds are attached. */
export interface ResourceIdentity {
  id: string
  name: string
  type: ThresholdResourceKind
  typeLabel: ThresholdTypeLabel
  vmid: number | null
  node: string
  instance: string
  status: string
}

/**
 * The row of one resource. `defaults` is the kind's defaultTriggers (computed once per config,
 * not per row).
 */
export function toThresholdRow(
  resource: ResourceIdentity,
  config: AlertConfig | null,
  defaults: Partial<Record<AlertMetric, number>>,
  alertCounts: ReadonlyMap<string, number>,
  rule?: Partial<Record<AlertMetric, number>>,
): ThresholdResourceRow {
  const raw = config?.overrides[resource.id]
  const override = overrideTriggers(raw, resource.type)
  const disabled = raw?.disabled === true
  const disableConnectivity = raw?.disableConnectivity === true
  const backup = raw?.backup
  let differs = backup !== undefined && Object.keys(backup).length > 0
  const backupOff = backup?.enabled === false
  for (const metric of Object.keys(override) as AlertMetric[]) {
    if (override[metric] !== defaults[metric]) differs = true
  }
  return {
    kind: 'resource',
    key: `${resource.type}:${resource.id}`,
    ...resource,
    thresholds: effectiveTriggers(defaults, rule, override),
    defaults,
    override,
    notApplicable: NOT_APPLICABLE[resource.type],
    hasOverride: differs || disabled || disableConnectivity,
    disabled,
    disableConnectivity,
    backupOff,
    alertCount: alertCounts.get(resource.id) ?? 0,
  }
}

/** Active alerts per resource id; entries without a resourceId are skipped. */
export function countAlertsByResource(alerts: readonly Entity[]): ReadonlyMap<string, number> {
  const counts = new Map<string, number>()
  for (const alert of alerts) {
    const id = alert.resourceId
    if (typeof id === 'string' && id) counts.set(id, (counts.get(id) ?? 0) + 1)
  }
  return counts
}

/** The override key of a PBS server: its entity id when that already is `pbs-<name>`. */
export function pbsOverrideId(pbs: Pick<PbsInstance, 'id' | 'name'>): string {
  return pbs.id.startsWith('pbs-') ? pbs.id : `pbs-${pbs.name}`
}

export function describeNode(node: PveNode): ResourceIdentity {
  return {
    id: node.id,
    name: node.displayName || node.name,
    type: 'node',
    typeLabel: 'Node',
    vmid: null,
    node: node.name,
    instance: node.instance,
    status: node.status,
  }
}

export function describePbs(pbs: PbsInstance): ResourceIdentity {
  return {
    id: pbsOverrideId(pbs),
    name: pbs.name,
    type: 'pbs',
    typeLabel: 'PBS',
    vmid: null,
    node: pbs.name,
    instance: pbs.name,
    status: pbs.status,
  }
}

export function describeStorage(storage: Storage): ResourceIdentity {
  return {
    id: storage.id,
    name: storage.name,
    type: 'storage',
    typeLabel: 'Storage',
    vmid: null,
    node: storage.node,
    instance: storage.instance,
    status: storage.status,
  }
}

export function describeGuest(guest: Guest): ResourceIdentity {
  return {
    id: guest.id,
    name: guest.name,
    type: 'guest',
    typeLabel: guest.type === 'lxc' ? 'CT' : 'VM',
    vmid: guest.vmid,
    node: guest.node,
    instance: guest.instance,
    status: guest.status,
  }
}
