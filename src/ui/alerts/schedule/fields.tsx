// Small building blocks shared by the Schedule tab's cards.
import type { ReactNode } from 'react'
import type { AlertSchedule } from '../../../shared/model/alerts.ts'
import { FOCUS_RING } from '../../components/button-classes.ts'
import { Switch } from '../../components/Switch.tsx'
import { updateAlertConfig } from '../config-store.ts'

export const SELECT = `rounded border border-gray-300 bg-white px-1.5 py-1 text-sm dark:border-gray-600 dark:bg-gray-800 dark:text-gray-100 ${FOCUS_RING}`

export const CHECKBOX = 'size-4 shrink-0 rounded border-gray-300 dark:border-gray-600'

/** Change the working schedule (marks the config dirty unless `change` returns false). */
export function updateSchedule(change: (schedule: AlertSchedule) => boolean | void): void {
  updateAlertConfig((config) => change(config.schedule))
}

/** A label on the left, its control on the right (wrapping under it on a phone). */
export function Row({
  label,
  htmlFor,
  hint,
  wide = false,
  children,
}: {
  label: string
  htmlFor?: string
  hint?: ReactNode
  /** The control takes the whole line on a phone (a long select). */
  wide?: boolean
  children: ReactNode
}) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 py-1.5 text-sm">
      <div className="min-w-0">
        {htmlFor ? (
          <label htmlFor={htmlFor} className="text-gray-800 dark:text-gray-200">
            {label}
          </label>
        ) : (
          <span className="text-gray-800 dark:text-gray-200">{label}</span>
        )}
        {hint && <p className="text-xs text-gray-500 dark:text-gray-400">{hint}</p>}
      </div>
      <div
        className={`flex min-w-0 flex-wrap items-center gap-2 ${wide ? 'w-full sm:w-auto' : ''}`}
      >
        {children}
      </div>
    </div>
  )
}

/** The enable switch of a card, for its actions slot. */
export function CardSwitch({
  label,
  checked,
  onChange,
}: {
  label: string
  checked: boolean
  onChange: (checked: boolean) => void
}) {
  return (
    <span className="flex items-center gap-2 text-xs text-gray-600 dark:text-gray-400">
      {checked ? 'On' : 'Off'}
      <Switch label={label} checked={checked} onChange={onChange} />
    </span>
  )
}

/** A checkbox with its sentence as the label. */
export function CheckRow({
  label,
  checked,
  onChange,
}: {
  label: string
  checked: boolean
  onChange: (checked: boolean) => void
}) {
  return (
    <label className="flex items-start gap-2 py-1 text-sm text-gray-800 dark:text-gray-200">
      <input
        type="checkbox"
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
        className={`mt-0.5 ${CHECKBOX}`}
      />
      <span>{label}</span>
    </label>
  )
}
