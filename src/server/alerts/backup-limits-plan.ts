// Issue 26: which backup limits apply to which guest, planned once per config. Precedence as for
// thresholds (spec 001 §4): the guest's override, then the highest-priority enabled custom rule that
// sets `backup` and matches the guest, then the defaults (resolveBackupLimits). Rules without a
// `backup` setting are skipped here, so a CPU rule does not hide a "production must be backed up"
// rule. The plan also gives the loosest limits any guest can have, so the 100,000-guest loop tests
// a guest's own limits only when it could be in trouble under some of them.
import type { AlertConfig, AlertRule, BackupAlertOverride } from '../../shared/model/alerts.ts'
import type { Guest } from '../../shared/model/state.ts'
import type { GuestPredicate } from '../../shared/search/index.ts'
import { compileRulePredicate } from '../../shared/views/alert-thresholds.ts'
import { resolveBackupLimits, type BackupLimits } from '../../shared/views/backup-alert-limits.ts'

export interface BackupLimitsPlan {
  /** Enabled rules that set `backup`, in precedence order. */
  rules: readonly { rule: AlertRule; test: GuestPredicate }[]
  /** The limits of a guest with no override and no backup rule. */
  defaults: BackupLimits
  /** Smallest age level (days, > 0) of the defaults, any backup rule or override; 0: none set. */
  minAgeDays: number
  /** Some guest may have notBackedUp on (defaults, a rule or an override). */
  anyNotBackedUp: boolean
  /** No rule sets `backup` and no override exists: every guest has `defaults`. */
  uniform: boolean
}

const plans = new WeakMap<AlertConfig, BackupLimitsPlan>()

function lowestDays(current: number, days: number | undefined): number {
  if (days === undefined || !(days > 0)) return current
  return current === 0 ? days : Math.min(current, days)
}

/** The plan of a config, built once per config object. */
export function backupLimitsPlan(config: AlertConfig): BackupLimitsPlan {
  let plan = plans.get(config)
  if (plan) return plan
  const rules = (config.customRules ?? [])
    .map((rule, index) => ({ rule, index }))
    .filter(({ rule }) => rule.enabled && rule.backup !== undefined)
    .sort((a, b) => b.rule.priority - a.rule.priority || a.index - b.index)
    .map(({ rule }) => ({ rule, test: compileRulePredicate(rule) }))
  const defaults = resolveBackupLimits(config)
  let minAgeDays = lowestDays(lowestDays(0, defaults.warningDays), defaults.criticalDays)
  let anyNotBackedUp = defaults.notBackedUp
  const sources: BackupAlertOverride[] = rules.map((r) => r.rule.backup!)
  let overrides = 0
  for (const override of Object.values(config.overrides ?? {})) {
    overrides++
    if (override.backup) sources.push(override.backup)
  }
  for (const b of sources) {
    minAgeDays = lowestDays(lowestDays(minAgeDays, b.ageWarningDays), b.ageCriticalDays)
    if (b.notBackedUp === true) anyNotBackedUp = true
  }
  plan = { rules, defaults, minAgeDays, anyNotBackedUp, uniform: rules.length === 0 && !overrides }
  plans.set(config, plan)
  return plan
}

/**
 * The limits of one guest. `guest` is the live guest the rules are matched against (undefined
 * when the state has none under that id: rules cannot match it). A guest whose override disables
 * its alerts (`disabled`) has no backup alerts either.
 */
export function backupLimitsOf(
  config: AlertConfig,
  plan: BackupLimitsPlan,
  guestId: string,
  guest: Guest | undefined,
): BackupLimits {
  if (plan.uniform) return plan.defaults
  const override = config.overrides[guestId]
  let rule: BackupAlertOverride | undefined
  if (guest !== undefined) {
    for (const r of plan.rules) {
      if (r.test(guest)) {
        rule = r.rule.backup
        break
      }
    }
  }
  if (!override && !rule) return plan.defaults
  const limits = resolveBackupLimits(config, override?.backup, rule)
  if (override?.disabled === true) limits.enabled = false
  return limits
}
