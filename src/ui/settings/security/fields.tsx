import type { ReactNode } from 'react'

/** A neutral note explaining why a button is disabled (the button points at it). */
export function Requirement({ id, children }: { id?: string; children: ReactNode }) {
  return (
    <p id={id} data-requirement="" className="text-xs text-gray-600 dark:text-gray-400">
      {children}
    </p>
  )
}

/** A coloured notice inside the tab: info (blue), warning (amber), danger (red). */
export function Notice({
  tone,
  icon,
  children,
  label,
}: {
  tone: 'info' | 'warning' | 'danger' | 'success'
  icon?: ReactNode
  children: ReactNode
  /** Accessible name of the note. */
  label?: string
}) {
  const look = {
    info: 'border-blue-200 bg-blue-50 text-blue-900 dark:border-blue-900 dark:bg-blue-950 dark:text-blue-200',
    warning:
      'border-amber-300 bg-amber-50 text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-200',
    danger:
      'border-red-200 bg-red-50 text-red-800 dark:border-red-900 dark:bg-red-950 dark:text-red-200',
    success:
      'border-emerald-200 bg-emerald-50 text-emerald-900 dark:border-emerald-900 dark:bg-emerald-950 dark:text-emerald-200',
  }[tone]
  return (
    <div
      role="note"
      aria-label={label}
      className={`flex items-start gap-2 rounded-md border px-3 py-2 text-sm ${look}`}
    >
      {icon && <span className="mt-0.5 shrink-0">{icon}</span>}
      <div className="min-w-0 flex-1">{children}</div>
    </div>
  )
}
