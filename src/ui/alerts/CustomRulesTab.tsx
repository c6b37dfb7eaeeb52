import { ArrowDown, ArrowUp, Pencil, Plus, Trash2 } from 'lucide-react'
import { useState } from 'react'
import { useSnapshot } from 'valtio'
import type { AlertRule } from '../../shared/model/alerts.ts'
import {
  byPrecedence,
  draftOf,
  movePriority,
  newDraft,
  previewRules,
  ruleOf,
  type RuleDraft,
} from '../../shared/views/rule-edit.ts'
import type { RulePreviewModel } from '../../shared/views/rule-preview.ts'
import { RoleFieldset } from '../auth/RoleFieldset.tsx'
import { BUTTON, FOCUS_RING } from '../components/button-classes.ts'
import { Card } from '../components/Card.tsx'
import { EmptyState } from '../components/EmptyState.tsx'
import { Switch } from '../components/Switch.tsx'
import { alertConfigState, updateAlertConfig } from './config-store.ts'
import { METRIC_LABELS, formatTrigger } from './threshold-labels.ts'
import { useAlertConfigLoad } from './useAlertConfig.ts'
import { RuleEditor } from './RuleEditor.tsx'
import { useView } from '../hooks/useView.ts'

/** A rule's filter as typed: the filters' raw text joined by its logical operator. */
export function describeRuleFilter(rule: {
  filterConditions: Readonly<{
    logicalOperator: AlertRule['filterConditions']['logicalOperator']
    filters: readonly Readonly<{ rawText: string }>[]
  }>
}): string {
  const { logicalOperator, filters } = rule.filterConditions
  return filters.map((filter) => filter.rawText).join(` ${logicalOperator} `)
}

/** The thresholds a rule sets, e.g. 'CPU % 90 · Memory % Off'. */
export function describeRuleThresholds(rule: Readonly<Pick<AlertRule, 'thresholds'>>): string {
  const parts = Object.entries(rule.thresholds).map(
    ([metric, pair]) =>
      `${METRIC_LABELS[metric as keyof typeof METRIC_LABELS]} ${formatTrigger(pair.trigger)}`,
  )
  return parts.length ? parts.join(' · ') : 'No thresholds'
}

/** How many of the edited rule's guests and alerts the preview lists. */
const PREVIEW_LIMIT = 50

const ICON_BUTTON = `rounded p-1 text-gray-500 hover:bg-gray-100 disabled:opacity-30 dark:hover:bg-gray-800 ${FOCUS_RING}`

function makeRuleId(): string {
  return `rule-${globalThis.crypto.randomUUID()}`
}

/**
 * Alerts: custom rules (spec 001 §2, §3 Alert rule; issue 28 item 2): the rules of the working
 * config, highest priority first, each with how many guests it matches and decides now (from the
 * worker). New and Edit open the editor with its live preview; Apply, the arrows, the switch and
 * Delete change the working config, which the unsaved bar saves or discards.
 */
export function CustomRulesTab() {
  const { ready, loadError } = useAlertConfigLoad()
  const { working } = useSnapshot(alertConfigState)
  const [draft, setDraft] = useState<RuleDraft | null>(null)
  const rules = (working?.customRules ?? []) as AlertRule[]
  const preview = useView({
    kind: 'rulePreview',
    rules: previewRules(rules, draft),
    focus: draft?.id ?? null,
    limit: draft ? PREVIEW_LIMIT : 0,
  })
  if (!ready || !working) {
    return loadError ? (
      <EmptyState title="Failed to load alert configuration" description={loadError} live />
    ) : (
      <EmptyState title="Loading alert configuration..." live />
    )
  }
  const ordered = byPrecedence(rules)
  const nameOf = (id: string) => rules.find((r) => r.id === id)?.name ?? id
  const apply = () => {
    if (!draft) return
    const current = draft
    updateAlertConfig((config) => {
      const at = config.customRules.findIndex((r) => r.id === current.id)
      const rule = ruleOf(
        current,
        at >= 0 ? config.customRules[at] : undefined,
        new Date().toISOString(),
      )
      if (at >= 0) config.customRules[at] = rule
      else config.customRules.push(rule)
    })
    setDraft(null)
  }
  const move = (id: string, direction: 'up' | 'down') => {
    updateAlertConfig((config) => {
      const changes = movePriority(config.customRules, id, direction)
      if (changes.size === 0) return false
      for (const rule of config.customRules) {
        const priority = changes.get(rule.id)
        if (priority !== undefined) rule.priority = priority
      }
    })
  }
  return (
    <div className="p-3 sm:p-4">
      <RoleFieldset needs="admin" what="Changing custom rules">
        {draft && (
          <RuleEditor
            draft={draft}
            onChange={setDraft}
            preview={preview}
            defaults={Object.fromEntries(
              Object.entries(working.guestDefaults).flatMap(([metric, pair]) =>
                pair && typeof pair === 'object' && 'trigger' in pair
                  ? [[metric, pair.trigger]]
                  : [],
              ),
            )}
            ruleName={nameOf}
            onApply={apply}
            onCancel={() => setDraft(null)}
          />
        )}
        <Card
          title="Custom rules"
          description="Thresholds for the guests a rule's filters match. Guest overrides win over rules; rules with a higher priority win over lower ones and over the defaults."
          actions={
            <button
              type="button"
              className={BUTTON.primary}
              disabled={draft !== null}
              onClick={() => setDraft(newDraft(rules, makeRuleId))}
            >
              <Plus className="size-4" aria-hidden /> New rule
            </button>
          }
        >
          {ordered.length === 0 ? (
            <EmptyState
              title="No custom rules"
              description="A rule gives its own thresholds to the guests its filters match, for example CPU 50 % for tags:db."
            />
          ) : (
            <ul
              className="divide-y divide-gray-200 px-4 dark:divide-gray-800"
              aria-label="Custom rules"
            >
              {ordered.map((rule, index) => (
                <RuleRow
                  key={rule.id}
                  rule={rule}
                  first={index === 0}
                  last={index === ordered.length - 1}
                  editing={draft?.id === rule.id}
                  count={preview?.ready ? preview.counts.find((c) => c.id === rule.id) : undefined}
                  onEdit={() => setDraft(draftOf(rule))}
                  onMove={(direction) => move(rule.id, direction)}
                />
              ))}
            </ul>
          )}
        </Card>
      </RoleFieldset>
    </div>
  )
}

function RuleRow({
  rule,
  first,
  last,
  editing,
  count,
  onEdit,
  onMove,
}: {
  rule: AlertRule
  first: boolean
  last: boolean
  editing: boolean
  count: RulePreviewModel['counts'][number] | undefined
  onEdit: () => void
  onMove: (direction: 'up' | 'down') => void
}) {
  const channelsOff = [
    rule.notifications.email?.enabled === false && 'email',
    rule.notifications.webhook?.enabled === false && 'webhooks',
  ].filter(Boolean)
  return (
    <li className={`flex flex-wrap items-start gap-3 py-3 ${editing ? 'opacity-60' : ''}`}>
      <div className="min-w-0 flex-1">
        <p className="text-sm font-semibold text-gray-900 dark:text-gray-100">
          {rule.name}
          <span className="ml-2 rounded bg-gray-100 px-1.5 text-xs font-normal text-gray-700 tabular-nums dark:bg-gray-800 dark:text-gray-300">
            Priority {rule.priority}
          </span>
          {!rule.enabled && (
            <span className="ml-2 text-xs font-normal text-gray-500">Disabled</span>
          )}
        </p>
        {rule.description && (
          <p className="text-xs text-gray-600 dark:text-gray-400">{rule.description}</p>
        )}
        <p className="mt-1 font-mono text-xs break-all text-gray-700 dark:text-gray-300">
          {describeRuleFilter(rule) || 'No filter: matches no guest'}
        </p>
        <p className="text-xs text-gray-600 dark:text-gray-400">
          {describeRuleThresholds(rule)}
          {channelsOff.length > 0 && ` · no ${channelsOff.join(' or ')}`}
        </p>
        <p className="text-xs text-gray-600 tabular-nums dark:text-gray-400">
          {count === undefined
            ? 'Counting guests...'
            : `Matches ${count.matched.toLocaleString()} guests · decides ${count.applies.toLocaleString()} · ${count.alerts.toLocaleString()} active alert${count.alerts === 1 ? '' : 's'}`}
        </p>
      </div>
      <div className="flex items-center gap-1">
        <button
          type="button"
          aria-label={`Move rule ${rule.name} up`}
          disabled={first}
          onClick={() => onMove('up')}
          className={ICON_BUTTON}
        >
          <ArrowUp className="size-4" aria-hidden />
        </button>
        <button
          type="button"
          aria-label={`Move rule ${rule.name} down`}
          disabled={last}
          onClick={() => onMove('down')}
          className={ICON_BUTTON}
        >
          <ArrowDown className="size-4" aria-hidden />
        </button>
        <button
          type="button"
          aria-label={`Edit rule ${rule.name}`}
          onClick={onEdit}
          className={ICON_BUTTON}
        >
          <Pencil className="size-4" aria-hidden />
        </button>
        <Switch
          checked={rule.enabled}
          label={`Enable rule ${rule.name}`}
          onChange={(on) =>
            updateAlertConfig((config) => {
              const target = config.customRules.find((item) => item.id === rule.id)
              if (!target) return false
              target.enabled = on
            })
          }
        />
        <button
          type="button"
          aria-label={`Delete rule ${rule.name}`}
          onClick={() =>
            updateAlertConfig((config) => {
              const index = config.customRules.findIndex((item) => item.id === rule.id)
              if (index < 0) return false
              config.customRules.splice(index, 1)
            })
          }
          className={`rounded p-1 text-gray-500 hover:bg-red-50 hover:text-red-700 dark:hover:bg-red-950 ${FOCUS_RING}`}
        >
          <Trash2 className="size-4" aria-hidden />
        </button>
      </div>
    </li>
  )
}
