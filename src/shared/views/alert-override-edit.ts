// The Thresholds tab's row semantics (spec 001 §4 "Threshold rows", "Toggling disable") and input
// rules (§5 "Threshold inputs"), as pure functions over the config's overrides. Pure.
import type { AlertMetric, ThresholdOverride } from '../model/alerts.ts'

/** Clear level = trigger minus this (spec 001 §9), never below 0. */
export const CLEAR_MARGIN = 5

type Triggers = Partial<Record<AlertMetric, number>>
type Overrides = Readonly<Record<string, ThresholdOverride>>

const PERCENT_MAX = 100
const RATE_MAX = 10_000
const RATE_METRICS: ReadonlySet<AlertMetric> = new Set([
  'diskRead',
  'diskWrite',
  'networkIn',
  'networkOut',
])

/**
 * Spec 001 §5: integers, anything else 0; at least -1; at most 100 for percentages, 10,000 for
 * MB/s, and for temperature 150 in the defaults panel or 200 in the table.
 */
export function clampThresholdInput(
  text: string,
  metric: AlertMetric,
  where: 'defaults' | 'table',
): number {
  const trimmed = text.trim()
  const value = /^-?\d+$/.test(trimmed) ? Number(trimmed) : 0
  const max =
    metric === 'temperature'
      ? where === 'defaults'
        ? 150
        : 200
      : RATE_METRICS.has(metric)
        ? RATE_MAX
        : PERCENT_MAX
  return Math.min(max, Math.max(-1, value))
}

/** Spec 001 §5: a trigger of 0 or -1 switches the metric's alert off. */
export function isThresholdOff(trigger: number | undefined): boolean {
  return trigger !== undefined && trigger <= 0
}

/** Spec 001 §4: an edit starts from the defaults, with the override's own values over them. */
export function startRowEdit(defaults: Triggers, override: Triggers): Triggers {
  return { ...defaults, ...override }
}

/**
 * Spec 001 §4 saving a row: only values that differ from the defaults are stored, each with clear =
 * trigger - 5 (at least 0). If nothing differs and no disable flag is set, the override is
 * removed. Flags and powered-off severity already on the override are kept. Returns `overrides`
 * itself when nothing changes.
 */
export function saveRowEdit(
  overrides: Overrides,
  id: string,
  edited: Triggers,
  defaults: Triggers,
): Overrides {
  const current = overrides[id]
  const next: ThresholdOverride = {}
  if (current?.disabled) next.disabled = true
  if (current?.disableConnectivity) next.disableConnectivity = true
  if (current?.poweredOffSeverity) next.poweredOffSeverity = current.poweredOffSeverity
  for (const metric of Object.keys(edited) as AlertMetric[]) {
    const trigger = edited[metric]
    if (trigger === undefined || trigger === defaults[metric]) continue
    next[metric] = { trigger, clear: Math.max(0, trigger - CLEAR_MARGIN) }
  }
  return replaceOverride(overrides, id, next)
}

/** Remove the row's override entirely (the 'Remove override' action). */
export function removeOverride(overrides: Overrides, id: string): Overrides {
  if (!Object.hasOwn(overrides, id)) return overrides
  const { [id]: _removed, ...rest } = overrides
  return rest
}

/**
 * Spec 001 §4 toggling disable (guests, storage, PBS) or connectivity (nodes, PBS, guests): set or
 * clear the flag; an override left with no thresholds and no flag is deleted.
 */
export function toggleOverrideFlag(
  overrides: Overrides,
  id: string,
  flag: 'disabled' | 'disableConnectivity',
  on: boolean,
): Overrides {
  const next: ThresholdOverride = { ...overrides[id] }
  if (on) next[flag] = true
  else delete next[flag]
  return replaceOverride(overrides, id, next)
}

/** True when an override carries a threshold or a flag (anything worth keeping). */
export function isMeaningfulOverride(override: ThresholdOverride): boolean {
  for (const [key, value] of Object.entries(override)) {
    if (key === 'poweredOffSeverity') continue
    if (value !== undefined && value !== false) return true
  }
  return false
}

function replaceOverride(overrides: Overrides, id: string, next: ThresholdOverride): Overrides {
  if (!isMeaningfulOverride(next)) return removeOverride(overrides, id)
  if (sameOverride(overrides[id], next)) return overrides
  return { ...overrides, [id]: next }
}

function sameOverride(a: ThresholdOverride | undefined, b: ThresholdOverride): boolean {
  return a !== undefined && JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b))
}

function sortKeys(value: ThresholdOverride): [string, unknown][] {
  return Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
}
