import { Plus, X } from 'lucide-react'
import { useId } from 'react'
import { GUEST_METRICS } from '../../shared/model/alerts.ts'
import { formatPercent, toPercent } from '../../shared/format/percent.ts'
import { checkDraft, type RuleDraft } from '../../shared/views/rule-edit.ts'
import type { RulePreviewModel } from '../../shared/views/rule-preview.ts'
import { BUTTON, FOCUS_RING } from '../components/button-classes.ts'
import { Card } from '../components/Card.tsx'
import { INPUT } from '../components/TextField.tsx'
import { Switch } from '../components/Switch.tsx'
import { METRIC_LABELS } from './threshold-labels.ts'

interface Props {
  draft: RuleDraft
  onChange: (draft: RuleDraft) => void
  /** The worker's counts and lists for the draft (null until the first answer). */
  preview: RulePreviewModel | null
  /** Default trigger per metric, shown as the placeholder of an inherited threshold. */
  defaults: Readonly<Partial<Record<(typeof GUEST_METRICS)[number], number>>>
  /** Name of a rule by id (for "taken by"). */
  ruleName: (id: string) => string
  onApply: () => void
  onCancel: () => void
}

const SMALL_INPUT = `w-20 rounded border border-gray-300 bg-white px-1.5 py-1 text-right text-sm tabular-nums dark:border-gray-600 dark:bg-gray-800 dark:text-gray-100 ${FOCUS_RING}`

/**
 * One rule's form (issue 28 item 2): name, filters in the dashboard search language combined by
 * AND or OR, priority, thresholds per metric (empty uses the defaults), the email and webhook
 * switches, and the worker's live preview of the guests it matches. Apply writes it into the
 * working config; the unsaved bar saves it.
 */
export function RuleEditor({
  draft,
  onChange,
  preview,
  defaults,
  ruleName,
  onApply,
  onCancel,
}: Props) {
  const id = useId()
  const problems = checkDraft(draft)
  const set = (patch: Partial<RuleDraft>) => onChange({ ...draft, ...patch })
  const setFilter = (index: number, text: string) =>
    set({ filters: draft.filters.map((f, i) => (i === index ? text : f)) })
  const count = preview?.counts.find((c) => c.id === draft.id)
  const error = (key: string) =>
    problems[key] ? (
      <p id={`${id}-${key}-error`} className="text-xs text-red-700 dark:text-red-400">
        {problems[key]}
      </p>
    ) : null
  const describedBy = (key: string) => (problems[key] ? `${id}-${key}-error` : undefined)
  return (
    <Card
      title={draft.isNew ? 'New custom rule' : `Edit rule ${draft.name || ''}`.trim()}
      description="The rule's thresholds apply to the guests its filters match, unless a rule of higher priority matches them first or a guest has its own override."
      className="mb-3"
    >
      <form
        aria-label={draft.isNew ? 'New custom rule' : 'Edit custom rule'}
        className="grid gap-4 p-4 lg:grid-cols-[minmax(0,1fr)_minmax(0,22rem)]"
        onSubmit={(event) => {
          event.preventDefault()
          if (Object.keys(problems).length === 0) onApply()
        }}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            event.stopPropagation()
            onCancel()
          }
        }}
      >
        <div className="flex min-w-0 flex-col gap-4">
          <div className="grid gap-3 sm:grid-cols-[minmax(0,1fr)_8rem]">
            <div className="flex min-w-0 flex-col gap-1">
              <label htmlFor={`${id}-name`} className="text-sm font-medium">
                Name
              </label>
              <input
                id={`${id}-name`}
                className={INPUT}
                value={draft.name}
                aria-invalid={problems.name ? true : undefined}
                aria-describedby={describedBy('name')}
                onChange={(e) => set({ name: e.target.value })}
                autoFocus
              />
              {error('name')}
            </div>
            <div className="flex min-w-0 flex-col gap-1">
              <label htmlFor={`${id}-priority`} className="text-sm font-medium">
                Priority
              </label>
              <input
                id={`${id}-priority`}
                className={INPUT}
                inputMode="numeric"
                value={draft.priority}
                aria-invalid={problems.priority ? true : undefined}
                aria-describedby={describedBy('priority') ?? `${id}-priority-hint`}
                onChange={(e) => set({ priority: e.target.value })}
              />
              <p id={`${id}-priority-hint`} className="text-xs text-gray-600 dark:text-gray-400">
                Higher wins
              </p>
              {error('priority')}
            </div>
          </div>
          <div className="flex min-w-0 flex-col gap-1">
            <label htmlFor={`${id}-description`} className="text-sm font-medium">
              Description <span className="font-normal text-gray-500">(optional)</span>
            </label>
            <input
              id={`${id}-description`}
              className={INPUT}
              value={draft.description}
              onChange={(e) => set({ description: e.target.value })}
            />
          </div>
          <fieldset className="min-w-0" aria-describedby={describedBy('filters')}>
            <legend className="text-sm font-medium">Filters</legend>
            <p className="mb-2 text-xs text-gray-600 dark:text-gray-400">
              The dashboard&apos;s search language: <code>tags:db</code>, <code>node:pve1</code>,{' '}
              <code>cpu&gt;50</code>, <code>web OR mail</code>.
            </p>
            <div className="mb-2 flex items-center gap-2 text-sm">
              <label htmlFor={`${id}-op`}>Guests must match</label>
              <select
                id={`${id}-op`}
                className={`rounded border border-gray-300 bg-white px-1.5 py-1 text-sm dark:border-gray-600 dark:bg-gray-800 ${FOCUS_RING}`}
                value={draft.logicalOperator}
                onChange={(e) => set({ logicalOperator: e.target.value as 'AND' | 'OR' })}
              >
                <option value="AND">every filter (AND)</option>
                <option value="OR">any filter (OR)</option>
              </select>
            </div>
            <ul className="flex flex-col gap-2">
              {draft.filters.map((text, index) => (
                <li key={index} className="flex items-center gap-2">
                  <input
                    className={`${INPUT} font-mono`}
                    aria-label={`Filter ${index + 1}`}
                    placeholder="tags:production"
                    value={text}
                    maxLength={500}
                    onChange={(e) => setFilter(index, e.target.value)}
                  />
                  <button
                    type="button"
                    aria-label={`Remove filter ${index + 1}`}
                    disabled={draft.filters.length === 1}
                    onClick={() => set({ filters: draft.filters.filter((_, i) => i !== index) })}
                    className={`rounded p-1.5 text-gray-500 hover:bg-gray-100 disabled:opacity-40 dark:hover:bg-gray-800 ${FOCUS_RING}`}
                  >
                    <X className="size-4" aria-hidden />
                  </button>
                </li>
              ))}
            </ul>
            <button
              type="button"
              className={`${BUTTON.secondary} mt-2`}
              disabled={draft.filters.length >= 50}
              onClick={() => set({ filters: [...draft.filters, ''] })}
            >
              <Plus className="size-4" aria-hidden /> Add filter
            </button>
            {error('filters')}
          </fieldset>
          <fieldset className="min-w-0">
            <legend className="text-sm font-medium">Thresholds</legend>
            <p className="mb-2 text-xs text-gray-600 dark:text-gray-400">
              Empty uses the default (shown greyed); 0 or -1 turns the metric&apos;s alert off.
            </p>
            <div className="grid grid-cols-[repeat(auto-fill,minmax(11rem,1fr))] gap-x-4 gap-y-2">
              {GUEST_METRICS.map((metric) => (
                <div key={metric} className="flex flex-col">
                  <div className="flex items-center justify-between gap-2 text-sm">
                    <label htmlFor={`${id}-t-${metric}`}>{METRIC_LABELS[metric]}</label>
                    <input
                      id={`${id}-t-${metric}`}
                      className={SMALL_INPUT}
                      inputMode="numeric"
                      placeholder={defaults[metric] === undefined ? '' : String(defaults[metric])}
                      value={draft.thresholds[metric]}
                      aria-invalid={problems[`thresholds.${metric}`] ? true : undefined}
                      aria-describedby={describedBy(`thresholds.${metric}`)}
                      onChange={(e) =>
                        set({ thresholds: { ...draft.thresholds, [metric]: e.target.value } })
                      }
                    />
                  </div>
                  {error(`thresholds.${metric}`)}
                </div>
              ))}
            </div>
          </fieldset>
          <div className="flex flex-wrap gap-x-6 gap-y-2 text-sm">
            <SwitchField
              label="Enabled"
              checked={draft.enabled}
              onChange={(enabled) => set({ enabled })}
            />
            <SwitchField
              label="Email notifications"
              checked={draft.email}
              onChange={(email) => set({ email })}
            />
            <SwitchField
              label="Webhook notifications"
              checked={draft.webhook}
              onChange={(webhook) => set({ webhook })}
            />
          </div>
          <div className="flex flex-wrap gap-2">
            <button
              type="submit"
              className={`${BUTTON.primary} disabled:opacity-60`}
              disabled={Object.keys(problems).length > 0}
            >
              {draft.isNew ? 'Add rule' : 'Apply changes'}
            </button>
            <button type="button" className={BUTTON.secondary} onClick={onCancel}>
              Cancel
            </button>
          </div>
        </div>
        <RulePreviewPanel preview={preview} count={count} ruleName={ruleName} />
      </form>
    </Card>
  )
}

function SwitchField({
  label,
  checked,
  onChange,
}: {
  label: string
  checked: boolean
  onChange: (on: boolean) => void
}) {
  const id = useId()
  return (
    <span className="inline-flex items-center gap-2">
      <Switch id={id} checked={checked} onChange={onChange} />
      <label htmlFor={id}>{label}</label>
    </span>
  )
}

function RulePreviewPanel({
  preview,
  count,
  ruleName,
}: {
  preview: RulePreviewModel | null
  count: RulePreviewModel['counts'][number] | undefined
  ruleName: (id: string) => string
}) {
  const waiting = preview === null || !preview.ready
  return (
    <section
      aria-label="Rule preview"
      aria-live="polite"
      className="min-w-0 rounded-md border border-gray-200 bg-gray-50 p-3 text-sm dark:border-gray-800 dark:bg-gray-950"
    >
      <h3 className="font-semibold">Preview</h3>
      {waiting || !count ? (
        <p className="text-gray-600 dark:text-gray-400">Waiting for the live guests...</p>
      ) : (
        <>
          <p data-testid="rule-preview-count">
            Matches <strong className="tabular-nums">{count.matched.toLocaleString()}</strong> of{' '}
            {preview.total.toLocaleString()} guests
            {count.matched !== count.applies && (
              <>
                {' '}
                · decides <strong className="tabular-nums">{count.applies.toLocaleString()}</strong>
              </>
            )}
            {' · '}
            <span className="tabular-nums">{count.alerts.toLocaleString()}</span> active alert
            {count.alerts === 1 ? '' : 's'}
          </p>
          {preview.alerts.length > 0 && (
            <ul aria-label="Alerts on these guests" className="mt-2 flex flex-col gap-1">
              {preview.alerts.map((alert) => (
                <li key={alert.id} className="truncate text-xs">
                  <span
                    className={`mr-1 rounded px-1 font-medium ${alert.level === 'critical' ? 'bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-300' : 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200'}`}
                  >
                    {alert.level}
                  </span>
                  {alert.resourceName}: {alert.message}
                </li>
              ))}
            </ul>
          )}
          {preview.guests.length > 0 && (
            <ul aria-label="Matching guests" className="mt-2 max-h-72 overflow-y-auto">
              {preview.guests.map((guest) => (
                <li
                  key={guest.id}
                  className="flex items-baseline justify-between gap-2 border-t border-gray-200 py-1 text-xs first:border-t-0 dark:border-gray-800"
                >
                  <span className="min-w-0 truncate">
                    <span className="font-medium">{guest.name || guest.id}</span>{' '}
                    <span className="text-gray-600 dark:text-gray-400">
                      {guest.vmid} · {guest.node}
                      {guest.takenBy && ` · taken by ${ruleName(guest.takenBy)}`}
                    </span>
                  </span>
                  <span className="shrink-0 tabular-nums text-gray-700 dark:text-gray-300">
                    {guest.status === 'running'
                      ? `${formatPercent(toPercent(guest.cpu))} CPU`
                      : guest.status}
                  </span>
                </li>
              ))}
            </ul>
          )}
          {count.matched > preview.guests.length && preview.guests.length > 0 && (
            <p className="mt-1 text-xs text-gray-600 dark:text-gray-400">
              Showing {preview.guests.length} of {count.matched.toLocaleString()}
            </p>
          )}
        </>
      )}
    </section>
  )
}
