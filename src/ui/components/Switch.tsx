import { FOCUS_RING } from './button-classes.ts'

interface SwitchProps {
  id?: string
  checked: boolean
  onChange: (checked: boolean) => void
  /** Accessible name when no <label htmlFor> names it. */
  label?: string
  disabled?: boolean
  describedBy?: string
}

/** An on/off switch (role switch, aria-checked). */
export function Switch({ id, checked, onChange, label, disabled, describedBy }: SwitchProps) {
  return (
    <button
      id={id}
      type="button"
      role="switch"
      aria-checked={checked}
      aria-label={label}
      aria-describedby={describedBy}
      disabled={disabled}
      onClick={() => onChange(!checked)}
      className={`relative inline-flex h-6 w-11 shrink-0 items-center rounded-full transition-colors disabled:cursor-not-allowed disabled:opacity-60 ${FOCUS_RING} ${
        checked ? 'bg-blue-600' : 'bg-gray-300 dark:bg-gray-600'
      }`}
    >
      <span
        aria-hidden
        className={`inline-block size-5 rounded-full bg-white shadow transition-transform ${
          checked ? 'translate-x-5' : 'translate-x-0.5'
        }`}
      />
    </button>
  )
}
