import { Trash2 } from 'lucide-react'
import { useSnapshot } from 'valtio'
import type { AlertRule } from '../../shared/model/alerts.ts'
import { FOCUS_RING } from '../components/button-classes.ts'
import { Card } from '../components/Card.tsx'
import { EmptyState } from '../components/EmptyState.tsx'
import { Switch } from '../components/Switch.tsx'
import { alertConfigState, updateAlertConfig } from './config-store.ts'
import { METRIC_LABELS, formatTrigger } from './threshold-labels.ts'
import { useAlertConfigLoad } from './useAlertConfig.ts'

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

/**
 * Alerts: custom rules (spec 001 §2, §4 Alert rules): the rules of the working config, highest
 * priority first. Enabling, disabling and deleting change the working config (unsaved bar).
 */
export function CustomRulesTab() {
  const { ready, loadError } = useAlertConfigLoad()
  const { working } = useSnapshot(alertConfigState)
  if (!ready || !working) {
    return loadError ? (
      <EmptyState title="Failed to load alert configuration" description={loadError} live />
    ) : (
      <EmptyState title="Loading alert configuration..." live />
    )
  }
  const rules = [...working.customRules].sort((a, b) => b.priority - a.priority)
  return (
    <div className="p-3 sm:p-4">
      <Card
        title="Custom rules"
        description="Thresholds for the guests a rule's filters match. Guest overrides win over rules; rules with a higher priority win over lower ones and over the defaults."
      >
        {rules.length === 0 ? (
          <EmptyState
            title="No custom rules"
            description="Rules are created through the configuration API: PUT /api/alerts/config with customRules."
          />
        ) : (
          <ul className="divide-y divide-gray-200 dark:divide-gray-800" aria-label="Custom rules">
            {rules.map((rule) => (
              <li key={rule.id} className="flex flex-wrap items-start gap-3 py-3">
                <div className="min-w-0 flex-1">
                  <p className="text-sm font-semibold text-gray-900 dark:text-gray-100">
                    {rule.name}
                    <span className="ml-2 rounded bg-gray-100 px-1.5 text-xs font-normal text-gray-700 tabular-nums dark:bg-gray-800 dark:text-gray-300">
                      Priority {rule.priority}
                    </span>
                  </p>
                  {rule.description && (
                    <p className="text-xs text-gray-600 dark:text-gray-400">{rule.description}</p>
                  )}
                  <p className="mt-1 font-mono text-xs break-all text-gray-700 dark:text-gray-300">
                    {describeRuleFilter(rule) || 'Matches every guest'}
                  </p>
                  <p className="text-xs text-gray-600 dark:text-gray-400">
                    {describeRuleThresholds(rule)}
                  </p>
                </div>
                <div className="flex items-center gap-2">
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
            ))}
          </ul>
        )}
      </Card>
    </div>
  )
}
