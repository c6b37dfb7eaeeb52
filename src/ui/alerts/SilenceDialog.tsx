import { BellOff } from 'lucide-react'
import { useId, useMemo, useState, type FormEvent } from 'react'
import { WEEKDAYS } from '../../shared/model/alerts.ts'
import { SHORT_DAY } from '../../shared/views/schedule-summary.ts'
import type { SilenceTarget, SilenceTargetKind } from '../../shared/model/silences.ts'
import type { AlertsOverviewRow } from '../../shared/views/alerts-overview-types.ts'
import {
  defaultWindow,
  describeTarget,
  silenceBody,
  targetsOfAlert,
  type SilenceDuration,
  type SilenceForm,
} from '../../shared/views/silence-form.ts'
import { apiJson } from '../api/http.ts'
import { FOCUS_RING } from '../components/button-classes.ts'
import { Modal } from '../components/Modal.tsx'
import { ModalActions } from '../components/ModalActions.tsx'
import { INPUT } from '../components/TextField.tsx'
import { ToggleGroup } from '../components/ToggleGroup.tsx'
import { showToast } from '../components/toast-store.ts'
import { SELECT } from './schedule/fields.tsx'
import { browserZone, ZoneSelect } from './schedule/ZoneSelect.tsx'

const DURATIONS: readonly { value: SilenceDuration; label: string }[] = [
  { value: '60', label: '1 h' },
  { value: '240', label: '4 h' },
  { value: '1440', label: '24 h' },
  { value: 'until', label: 'Until…' },
]
const WEEKLY_ENDS: readonly { value: SilenceDuration; label: string }[] = [
  { value: 'open', label: 'Until ended' },
  { value: 'until', label: 'Until…' },
]

const KINDS: readonly { value: Exclude<SilenceTargetKind, 'alert'>; label: string }[] = [
  { value: 'node', label: 'Node' },
  { value: 'guest', label: 'Guest' },
  { value: 'storage', label: 'Storage' },
  { value: 'pbs', label: 'PBS' },
  { value: 'tag', label: 'Tag' },
  { value: 'search', label: 'Search' },
]

const LABEL = 'text-sm font-medium text-gray-700 dark:text-gray-300'

/** A `datetime-local` value for `t` in the browser's zone. */
function localInput(t: number): string {
  const d = new Date(t - new Date(t).getTimezoneOffset() * 60_000)
  return d.toISOString().slice(0, 16)
}

function emptyTarget(kind: Exclude<SilenceTargetKind, 'alert'>): SilenceTarget {
  switch (kind) {
    case 'node':
      return { kind, instance: '', node: '' }
    case 'guest':
    case 'storage':
      return { kind, id: '' }
    case 'pbs':
      return { kind, instance: '' }
    case 'tag':
      return { kind, tag: '' }
    case 'search':
      return { kind, query: '' }
  }
}

interface Props {
  /** Silence from this alert (its targets to choose from); a free silence when absent. */
  alert?: AlertsOverviewRow
  onClose: () => void
  /** A silence was created. */
  onCreated: () => void
}

/**
 * Create a silence (issue 28): from an alert (this alert, or its guest, node, storage or PBS; for
 * 1 h, 4 h, 24 h or until a time), or of any node, guest, storage, PBS, tag or dashboard search,
 * once or as a weekly maintenance window in a time zone. Matching alerts stay listed, marked
 * silenced; no notification goes out for them until the silence ends.
 */
export function SilenceDialog({ alert, onClose, onCreated }: Props) {
  const id = useId()
  const choices = useMemo(() => (alert ? targetsOfAlert(alert) : []), [alert])
  const [form, setForm] = useState<SilenceForm>(() => ({
    target: choices[1] ?? choices[0] ?? emptyTarget('node'),
    ...(alert ? { label: alert.resourceName } : {}),
    duration: '60',
    until: Date.now() + 2 * 3_600_000,
    comment: '',
    weekly: false,
    window: defaultWindow(browserZone()),
  }))
  const [busy, setBusy] = useState(false)
  const [problem, setProblem] = useState<{ field: string; message: string } | null>(null)
  const update = (change: Partial<SilenceForm>) => {
    setProblem(null)
    setForm((prev) => ({ ...prev, ...change }))
  }
  const setTarget = (target: SilenceTarget) => update({ target })

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const built = silenceBody(form, Date.now())
    if (!built.ok) return setProblem(built)
    setBusy(true)
    apiJson('/api/alerts/silences', { method: 'POST', body: built.body }).then(
      () => {
        showToast('Silence created', 'success')
        onCreated()
        onClose()
      },
      (err: unknown) => {
        setBusy(false)
        setProblem({ field: 'server', message: err instanceof Error ? err.message : String(err) })
      },
    )
  }

  const t = form.target
  const field = (
    label: string,
    value: string,
    set: (value: string) => void,
    placeholder: string,
    key: string,
  ) => (
    <div className="flex min-w-0 flex-1 flex-col gap-1">
      <label htmlFor={`${id}-${key}`} className={LABEL}>
        {label}
      </label>
      <input
        id={`${id}-${key}`}
        value={value}
        placeholder={placeholder}
        onChange={(event) => set(event.target.value)}
        className={INPUT}
      />
    </div>
  )

  return (
    <Modal
      title={alert ? `Silence: ${alert.resourceName}` : 'New silence'}
      onClose={onClose}
      dismissible={!busy}
      footer={
        <ModalActions
          onCancel={onClose}
          busy={busy}
          formId={`${id}-form`}
          submitLabel="Silence"
          busyLabel="Silencing..."
          icon={<BellOff className="size-4" aria-hidden />}
        />
      }
    >
      <form id={`${id}-form`} onSubmit={submit} className="flex flex-col gap-4">
        <p className="text-xs text-gray-600 dark:text-gray-400">
          Matching alerts stay listed, marked silenced; no notification goes out for them. When the
          silence ends, an alert still firing is notified once.
        </p>
        {alert ? (
          <fieldset className="flex flex-col gap-1.5">
            <legend className={`${LABEL} mb-1`}>Silence</legend>
            {choices.map((choice) => {
              const checked = JSON.stringify(choice) === JSON.stringify(t)
              return (
                <label key={JSON.stringify(choice)} className="flex items-center gap-2 text-sm">
                  <input
                    type="radio"
                    name={`${id}-target`}
                    checked={checked}
                    onChange={() => setTarget(choice)}
                  />
                  {describeTarget(choice, { alert: alert.message, resource: alert.resourceName })}
                </label>
              )
            })}
          </fieldset>
        ) : (
          <div className="flex flex-col gap-2">
            <div className="flex flex-col gap-1">
              <span id={`${id}-kind`} className={LABEL}>
                What
              </span>
              <div aria-labelledby={`${id}-kind`} className="overflow-x-auto">
                <ToggleGroup
                  label="What to silence"
                  value={t.kind === 'alert' ? 'node' : t.kind}
                  options={KINDS}
                  onChange={(kind) => setTarget(emptyTarget(kind))}
                />
              </div>
            </div>
            <div className="flex flex-col gap-2 sm:flex-row">
              {t.kind === 'node' && (
                <>
                  {field(
                    'Cluster or instance',
                    t.instance,
                    (v) => setTarget({ ...t, instance: v }),
                    'lab',
                    'instance',
                  )}
                  {field('Node', t.node, (v) => setTarget({ ...t, node: v }), 'pve3', 'node')}
                </>
              )}
              {(t.kind === 'guest' || t.kind === 'storage') &&
                field(
                  t.kind === 'guest' ? 'Guest id' : 'Storage id',
                  t.id,
                  (v) => setTarget({ ...t, id: v }),
                  t.kind === 'guest' ? 'lab-pve1-101' : 'lab-pve1-local',
                  'id',
                )}
              {t.kind === 'pbs' &&
                field(
                  'PBS instance',
                  t.instance,
                  (v) => setTarget({ ...t, instance: v }),
                  'pbs1',
                  'pbs',
                )}
              {t.kind === 'tag' &&
                field('Tag', t.tag, (v) => setTarget({ ...t, tag: v }), 'db', 'tag')}
              {t.kind === 'search' &&
                field(
                  'Search expression',
                  t.query,
                  (v) => setTarget({ ...t, query: v }),
                  'node:pve3 AND tags:db',
                  'query',
                )}
            </div>
            {problem?.field === 'target' && <Problem text={problem.message} />}
          </div>
        )}

        {!alert && (
          <label className="flex items-center gap-2 text-sm text-gray-800 dark:text-gray-200">
            <input
              type="checkbox"
              checked={form.weekly}
              onChange={(event) =>
                update({
                  weekly: event.target.checked,
                  duration: event.target.checked ? 'open' : '60',
                })
              }
              className="size-4"
            />
            Weekly maintenance window
          </label>
        )}

        {form.weekly && (
          <div className="flex flex-col gap-2 rounded-md border border-gray-200 p-3 dark:border-gray-700">
            <div role="group" aria-label="Days" className="grid grid-cols-7 gap-1">
              {WEEKDAYS.map((day) => {
                const on = form.window.days[day]
                return (
                  <button
                    key={day}
                    type="button"
                    aria-pressed={on}
                    onClick={() =>
                      update({
                        window: { ...form.window, days: { ...form.window.days, [day]: !on } },
                      })
                    }
                    className={`rounded-md border px-1 py-1.5 text-xs font-medium ${FOCUS_RING} ${
                      on
                        ? 'border-blue-600 bg-blue-600 text-white'
                        : 'border-gray-300 bg-white text-gray-700 dark:border-gray-600 dark:bg-gray-800 dark:text-gray-300'
                    }`}
                  >
                    {SHORT_DAY[day]}
                  </button>
                )
              })}
            </div>
            <div className="flex flex-wrap items-end gap-3">
              <label className="flex flex-col gap-1 text-sm">
                <span className={LABEL}>From</span>
                <input
                  type="time"
                  value={form.window.start}
                  onChange={(event) =>
                    event.target.value &&
                    update({ window: { ...form.window, start: event.target.value } })
                  }
                  className={SELECT}
                />
              </label>
              <label className="flex flex-col gap-1 text-sm">
                <span className={LABEL}>To</span>
                <input
                  type="time"
                  value={form.window.end}
                  onChange={(event) =>
                    event.target.value &&
                    update({ window: { ...form.window, end: event.target.value } })
                  }
                  className={SELECT}
                />
              </label>
              <label className="flex min-w-0 flex-col gap-1 text-sm">
                <span className={LABEL}>Time zone</span>
                <ZoneSelect
                  value={form.window.timezone}
                  onChange={(timezone) => update({ window: { ...form.window, timezone } })}
                  className="max-w-full sm:max-w-xs"
                />
              </label>
            </div>
            {problem?.field === 'window' && <Problem text={problem.message} />}
          </div>
        )}

        <div className="flex flex-col gap-1">
          <span id={`${id}-for`} className={LABEL}>
            {form.weekly ? 'Repeat' : 'For'}
          </span>
          <div aria-labelledby={`${id}-for`}>
            <ToggleGroup
              label={form.weekly ? 'Repeat until' : 'Silence for'}
              value={form.duration}
              options={form.weekly ? WEEKLY_ENDS : DURATIONS}
              onChange={(duration) => update({ duration })}
            />
          </div>
          {form.duration === 'until' && (
            <input
              type="datetime-local"
              aria-label="Silence until"
              value={Number.isFinite(form.until) ? localInput(form.until) : ''}
              onChange={(event) => update({ until: new Date(event.target.value).getTime() })}
              className={`${INPUT} mt-1 sm:w-64`}
            />
          )}
          {problem?.field === 'until' && <Problem text={problem.message} />}
        </div>

        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-comment`} className={LABEL}>
            Comment
          </label>
          <textarea
            id={`${id}-comment`}
            value={form.comment}
            maxLength={1000}
            rows={2}
            placeholder="Rebooting for kernel updates"
            onChange={(event) => update({ comment: event.target.value })}
            className={INPUT}
          />
        </div>
        {problem?.field === 'server' && <Problem text={problem.message} />}
      </form>
    </Modal>
  )
}

function Problem({ text }: { text: string }) {
  return (
    <p role="alert" className="text-xs text-red-700 dark:text-red-400">
      {text}
    </p>
  )
}
