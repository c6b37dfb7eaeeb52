// The effective alert thresholds of a resource (spec 001 §4 Rules precedence): a per-resource
// override, then the highest-priority enabled custom rule whose filters match the guest, then the
// global defaults. Shared by the server's alert engine and the worker's Thresholds view.
// Imports only src/shared/model and src/shared/search.
//
// Decisions: a rule with no filters matches no guest (the defaults already cover every guest, so
// an empty rule is a half-written one); rules of equal priority keep their saved order; a pair
// saved without a clear level (or clear <= 0) clears at trigger - hysteresisMargin (min 0), and a
// clear above its trigger is taken as the trigger.
import type {
  AlertConfig,
  AlertLevel,
  AlertRule,
  GuestMetric,
  NodeMetric,
  ThresholdOverride,
  ThresholdPair,
} from '../model/alerts.ts'
import { GUEST_METRICS, NODE_METRICS } from '../model/alerts.ts'
import type { Guest } from '../model/state.ts'
import { compileGuestSearch, type GuestPredicate } from '../search/index.ts'

export type ThresholdSource = 'default' | 'rule' | 'override'

/** The thresholds in force for one resource. Treat as read-only: instances are shared. */
export interface EffectiveThresholds<M extends string> {
  source: ThresholdSource
  /** The matching rule, also when an override sits on top of it. */
  ruleId?: string
  /** The resource's override disables all of its alerts. */
  disabled: boolean
  disableConnectivity: boolean
  poweredOffSeverity: AlertLevel
  /** null when the metric is off (trigger <= 0). */
  pairs: Readonly<Record<M, ThresholdPair | null>>
  /** The trigger per metric, Infinity when off: the hot loop compares without a null check. */
  triggers: Readonly<Record<M, number>>
}

export const PBS_THRESHOLD_METRICS = ['cpu', 'memory'] as const
export const STORAGE_THRESHOLD_METRICS = ['usage'] as const
export type GuestThresholds = EffectiveThresholds<GuestMetric>
export type NodeThresholds = EffectiveThresholds<NodeMetric>
export type PbsThresholds = EffectiveThresholds<(typeof PBS_THRESHOLD_METRICS)[number]>
export type StorageThresholds = EffectiveThresholds<'usage'>

/** An enabled custom rule as the resolver matches it. */
export interface GuestRuleMatcher {
  rule: AlertRule
  test: GuestPredicate
}

export interface ThresholdResolver {
  guest(guest: Guest): GuestThresholds
  /** The enabled rules in precedence order: the order matchRule and guestForRule index. */
  readonly rules: readonly GuestRuleMatcher[]
  /** The index in `rules` of the rule that applies to the guest, -1 when none. */
  matchRule(guest: Guest): number
  /** guest(), with the guest's rule already known (a cache of matchRule's answers). */
  guestForRule(guest: Guest, ruleAt: number): GuestThresholds
  /** The thresholds of every guest when the config has no rules and no overrides, else null. */
  uniformGuest(): GuestThresholds | null
  /**
   * Per metric, the lowest trigger any guest can have (defaults, every enabled rule, every
   * override): a guest below all of them exceeds nothing, whichever rule applies to it.
   */
  readonly lowestGuestTriggers: Readonly<Record<GuestMetric, number>>
  node(nodeId: string): NodeThresholds
  /** PBS servers use nodeDefaults cpu/memory unless overridden (key = the PBS id, `pbs-<name>`). */
  pbs(pbsId: string): PbsThresholds
  storage(storageId: string): StorageThresholds
  /** The raw override of any resource id (physical disks use its `disabled` flag). */
  override(id: string): ThresholdOverride | undefined
}

/** The pair in force: null when off; clear filled and capped as described above. */
export function toEffectivePair(
  pair: ThresholdPair | undefined,
  margin: number,
): ThresholdPair | null {
  if (!pair || !(pair.trigger > 0)) return null
  const clear =
    pair.clear > 0 ? Math.min(pair.clear, pair.trigger) : Math.max(0, pair.trigger - margin)
  return { trigger: pair.trigger, clear }
}

function build<M extends string>(
  metrics: readonly M[],
  base: Partial<Record<M, ThresholdPair>>,
  margin: number,
  severity: AlertLevel,
  source: ThresholdSource,
  override?: ThresholdOverride,
  ruleId?: string,
): EffectiveThresholds<M> {
  const pairs = {} as Record<M, ThresholdPair | null>
  const triggers = {} as Record<M, number>
  for (const m of metrics) {
    const own = override?.[m as keyof ThresholdOverride] as ThresholdPair | undefined
    const pair = toEffectivePair(own ?? base[m], margin)
    pairs[m] = pair
    triggers[m] = pair ? pair.trigger : Infinity
  }
  return {
    source,
    ...(ruleId === undefined ? {} : { ruleId }),
    disabled: override?.disabled === true,
    disableConnectivity: override?.disableConnectivity === true,
    poweredOffSeverity: override?.poweredOffSeverity ?? severity,
    pairs,
    triggers,
  }
}

/** Compile a rule's filters (our search language) combined with its AND / OR. */
export function compileRulePredicate(rule: AlertRule): GuestPredicate {
  const tests = rule.filterConditions.filters
    .filter((f) => typeof f.rawText === 'string' && f.rawText.trim() !== '')
    .map((f) => compileGuestSearch(f.rawText))
  if (tests.length === 0) return () => false
  if (tests.length === 1) return tests[0]!
  if (rule.filterConditions.logicalOperator === 'OR') {
    return (guest) => {
      for (let i = 0; i < tests.length; i++) if (tests[i]!(guest)) return true
      return false
    }
  }
  return (guest) => {
    for (let i = 0; i < tests.length; i++) if (!tests[i]!(guest)) return false
    return true
  }
}

interface CompiledRule extends GuestRuleMatcher {
  base: Partial<Record<GuestMetric, ThresholdPair>>
  thresholds: GuestThresholds
}

function createResolver(config: AlertConfig): ThresholdResolver {
  const margin = config.hysteresisMargin
  const guestSeverity = config.guestDefaults.poweredOffSeverity
  const nodeSeverity = config.nodeDefaults.poweredOffSeverity
  const overrides = new Map(Object.entries(config.overrides ?? {}))
  const guestDefault = build(GUEST_METRICS, config.guestDefaults, margin, guestSeverity, 'default')
  const nodeDefault = build(NODE_METRICS, config.nodeDefaults, margin, nodeSeverity, 'default')
  const pbsDefault = build(
    PBS_THRESHOLD_METRICS,
    config.nodeDefaults,
    margin,
    nodeSeverity,
    'default',
  )
  const storageBase = { usage: config.storageDefault }
  const storageDefault = build(STORAGE_THRESHOLD_METRICS, storageBase, margin, 'warning', 'default')
  const rules: CompiledRule[] = (config.customRules ?? [])
    .map((rule, index) => ({ rule, index }))
    .filter(({ rule }) => rule.enabled)
    .sort((a, b) => b.rule.priority - a.rule.priority || a.index - b.index)
    .map(({ rule }) => {
      const base = { ...pick(config.guestDefaults), ...rule.thresholds }
      return {
        rule,
        test: compileRulePredicate(rule),
        base,
        thresholds: build(GUEST_METRICS, base, margin, guestSeverity, 'rule', undefined, rule.id),
      }
    })
  // Per resource id, the override merged over each possible base (index 0 = defaults, i + 1 = rule i).
  const merged = new Map<string, GuestThresholds[]>()
  const others = new Map<string, unknown>()

  function matchRule(guest: Guest): number {
    for (let i = 0; i < rules.length; i++) if (rules[i]!.test(guest)) return i
    return -1
  }

  function guestForRule(guest: Guest, ruleAt: number): GuestThresholds {
    const override = overrides.size === 0 ? undefined : overrides.get(guest.id)
    if (!override) return ruleAt < 0 ? guestDefault : rules[ruleAt]!.thresholds
    let list = merged.get(guest.id)
    if (!list) merged.set(guest.id, (list = []))
    const slot = ruleAt + 1
    const rule = rules[ruleAt]
    return (list[slot] ??= build(
      GUEST_METRICS,
      rule ? rule.base : config.guestDefaults,
      margin,
      guestSeverity,
      'override',
      override,
      rule?.rule.id,
    ))
  }

  const lowestGuestTriggers = { ...guestDefault.triggers }
  for (const m of GUEST_METRICS) {
    for (const rule of rules)
      lowestGuestTriggers[m] = Math.min(lowestGuestTriggers[m], rule.thresholds.triggers[m])
    for (const override of overrides.values()) {
      const pair = toEffectivePair(override[m], margin)
      if (pair) lowestGuestTriggers[m] = Math.min(lowestGuestTriggers[m], pair.trigger)
    }
  }

  return {
    guest: (guest) => guestForRule(guest, rules.length === 0 ? -1 : matchRule(guest)),
    lowestGuestTriggers,
    rules,
    matchRule,
    guestForRule,
    uniformGuest: () => (rules.length === 0 && overrides.size === 0 ? guestDefault : null),
    node(id) {
      const override = overrides.get(id)
      if (!override) return nodeDefault
      return cached(others, `node\0${id}`, () =>
        build(NODE_METRICS, config.nodeDefaults, margin, nodeSeverity, 'override', override),
      )
    },
    pbs(id) {
      const override = overrides.get(id)
      if (!override) return pbsDefault
      return cached(others, `pbs\0${id}`, () =>
        build(
          PBS_THRESHOLD_METRICS,
          config.nodeDefaults,
          margin,
          nodeSeverity,
          'override',
          override,
        ),
      )
    },
    storage(id) {
      const override = overrides.get(id)
      if (!override) return storageDefault
      return cached(others, `storage\0${id}`, () =>
        build(STORAGE_THRESHOLD_METRICS, storageBase, margin, 'warning', 'override', override),
      )
    },
    override: (id) => overrides.get(id),
  }
}

function pick(defaults: AlertConfig['guestDefaults']): Record<GuestMetric, ThresholdPair> {
  const out = {} as Record<GuestMetric, ThresholdPair>
  for (const m of GUEST_METRICS) out[m] = defaults[m]
  return out
}

function cached<T>(map: Map<string, unknown>, key: string, make: () => T): T {
  let value = map.get(key) as T | undefined
  if (value === undefined) map.set(key, (value = make()))
  return value
}

const resolvers = new WeakMap<AlertConfig, ThresholdResolver>()

/**
 * The resolver of a config, built once per config object: a saved config is a new object, so the
 * cache never serves stale thresholds. Without rules or overrides a guest costs one Map lookup.
 */
export function getThresholdResolver(config: AlertConfig): ThresholdResolver {
  let resolver = resolvers.get(config)
  if (!resolver) resolvers.set(config, (resolver = createResolver(config)))
  return resolver
}
