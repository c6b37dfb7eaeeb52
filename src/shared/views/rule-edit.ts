// The custom rules editor's pure parts (issue 28 item 2): a rule as the form edits it, checking it,
// turning it back into a rule, and ordering rules by priority (spec 001 §4 Rules precedence:
// higher number first). Pure.
import { GUEST_METRICS, type AlertRule, type GuestMetric } from '../model/alerts.ts'
import { CLEAR_MARGIN, clampThresholdInput } from './alert-override-edit.ts'
import type { PreviewRule } from './rule-preview.ts'

/** A rule as the form holds it: thresholds as typed ('' inherits the defaults). */
export interface RuleDraft {
  /** The rule's id; a new rule gets one when the draft is made. */
  id: string
  isNew: boolean
  name: string
  description: string
  enabled: boolean
  priority: string
  logicalOperator: 'AND' | 'OR'
  filters: string[]
  thresholds: Record<GuestMetric, string>
  email: boolean
  webhook: boolean
}

export const RULE_NAME_MAX = 200
export const RULE_FILTERS_MAX = 50
export const RULE_FILTER_MAX = 500
const PRIORITY_LIMIT = 1_000_000

/** The form of an existing rule. */
export function draftOf(rule: AlertRule): RuleDraft {
  const thresholds = Object.fromEntries(
    GUEST_METRICS.map((m) => [m, rule.thresholds[m] ? String(rule.thresholds[m].trigger) : '']),
  ) as Record<GuestMetric, string>
  return {
    id: rule.id,
    isNew: false,
    name: rule.name,
    description: rule.description ?? '',
    enabled: rule.enabled,
    priority: String(rule.priority),
    logicalOperator: rule.filterConditions.logicalOperator,
    filters: rule.filterConditions.filters.map((f) => f.rawText),
    thresholds,
    email: rule.notifications.email?.enabled !== false,
    webhook: rule.notifications.webhook?.enabled !== false,
  }
}

/** A new rule's form: above every existing rule, one empty filter, nothing set. */
export function newDraft(rules: readonly AlertRule[], makeId: () => string): RuleDraft {
  const top = rules.reduce((max, r) => Math.max(max, r.priority), 0)
  return {
    id: makeId(),
    isNew: true,
    name: '',
    description: '',
    enabled: true,
    priority: String(rules.length === 0 ? 10 : Math.min(PRIORITY_LIMIT, top + 10)),
    logicalOperator: 'AND',
    filters: [''],
    thresholds: Object.fromEntries(GUEST_METRICS.map((m) => [m, ''])) as Record<
      GuestMetric,
      string
    >,
    email: true,
    webhook: true,
  }
}

/** What is wrong with the form, per field ('name', 'priority', 'filters', 'thresholds.cpu'). */
export function checkDraft(draft: RuleDraft): Record<string, string> {
  const problems: Record<string, string> = {}
  const name = draft.name.trim()
  if (name === '') problems.name = 'A rule needs a name'
  else if (name.length > RULE_NAME_MAX)
    problems.name = `At most ${RULE_NAME_MAX} characters (${name.length})`
  const priority = draft.priority.trim()
  if (!/^-?\d+$/.test(priority) || Math.abs(Number(priority)) > PRIORITY_LIMIT)
    problems.priority = `A whole number from -${PRIORITY_LIMIT} to ${PRIORITY_LIMIT}`
  const filters = draft.filters.map((f) => f.trim()).filter((f) => f !== '')
  if (filters.length === 0)
    problems.filters = 'Add a filter: a rule without one matches no guest (for example tags:db)'
  else if (filters.length > RULE_FILTERS_MAX)
    problems.filters = `At most ${RULE_FILTERS_MAX} filters`
  else if (filters.some((f) => f.length > RULE_FILTER_MAX))
    problems.filters = `A filter has at most ${RULE_FILTER_MAX} characters`
  for (const metric of GUEST_METRICS) {
    const text = draft.thresholds[metric].trim()
    if (text !== '' && !/^-?\d+$/.test(text))
      problems[`thresholds.${metric}`] = 'A whole number, or empty to use the default'
  }
  return problems
}

/** The rule the form describes (call after checkDraft found nothing). */
export function ruleOf(draft: RuleDraft, previous: AlertRule | undefined, now: string): AlertRule {
  const thresholds: AlertRule['thresholds'] = {}
  for (const metric of GUEST_METRICS) {
    const text = draft.thresholds[metric].trim()
    if (text === '') continue
    const trigger = clampThresholdInput(text, metric, 'table')
    thresholds[metric] = { trigger, clear: Math.max(0, trigger - CLEAR_MARGIN) }
  }
  const rule: AlertRule = {
    ...previous,
    id: draft.id,
    name: draft.name.trim(),
    description: draft.description.trim(),
    enabled: draft.enabled,
    priority: Number(draft.priority.trim()),
    filterConditions: {
      logicalOperator: draft.logicalOperator,
      filters: draft.filters
        .map((f) => f.trim())
        .filter((f) => f !== '')
        .map((rawText) => ({ type: 'text' as const, field: '', value: rawText, rawText })),
    },
    thresholds,
    notifications: { email: { enabled: draft.email }, webhook: { enabled: draft.webhook } },
    createdAt: previous?.createdAt ?? now,
    updatedAt: now,
  }
  return rule
}

/** The rules in precedence order: priority high to low, then stored order (the engine's). */
export function byPrecedence<T extends Pick<AlertRule, 'priority'>>(rules: readonly T[]): T[] {
  return rules
    .map((rule, index) => ({ rule, index }))
    .sort((a, b) => b.rule.priority - a.rule.priority || a.index - b.index)
    .map(({ rule }) => rule)
}

/**
 * Move a rule one place up (earlier, wins more) or down in precedence by changing priorities
 * only: walking the new order from the top, a rule keeps its priority while it still comes after
 * the one above it (lower, or equal and stored later), else it gets one less than that rule. The
 * stored order is kept. Returns the changed priorities by rule id; empty at either end.
 */
export function movePriority(
  rules: readonly AlertRule[],
  id: string,
  direction: 'up' | 'down',
): Map<string, number> {
  const ordered = byPrecedence(rules)
  const at = ordered.findIndex((r) => r.id === id)
  const to = direction === 'up' ? at - 1 : at + 1
  const changes = new Map<string, number>()
  if (at < 0 || to < 0 || to >= ordered.length) return changes
  ;[ordered[at], ordered[to]] = [ordered[to]!, ordered[at]!]
  const stored = new Map(rules.map((r, i) => [r.id, i]))
  let above: { priority: number; index: number } | null = null
  for (const rule of ordered) {
    const index = stored.get(rule.id)!
    let priority = rule.priority
    const after =
      above === null ||
      priority < above.priority ||
      (priority === above.priority && index > above.index)
    if (!after) priority = above!.priority - 1
    if (priority !== rule.priority) changes.set(rule.id, priority)
    above = { priority, index }
  }
  return changes
}

/** The rules as the preview reads them, with the form's draft in place of its rule. */
export function previewRules(rules: readonly AlertRule[], draft: RuleDraft | null): PreviewRule[] {
  const out: PreviewRule[] = rules.map((r) => ({
    id: r.id,
    enabled: r.enabled,
    priority: r.priority,
    logicalOperator: r.filterConditions.logicalOperator,
    filters: r.filterConditions.filters.map((f) => f.rawText),
  }))
  if (draft === null) return out
  const priority = /^-?\d+$/.test(draft.priority.trim()) ? Number(draft.priority.trim()) : 0
  const edited: PreviewRule = {
    id: draft.id,
    enabled: draft.enabled,
    priority,
    logicalOperator: draft.logicalOperator,
    filters: draft.filters,
  }
  const at = out.findIndex((r) => r.id === draft.id)
  if (at >= 0) out[at] = edited
  else out.push(edited)
  return out
}
