import type { ReactNode } from 'react'

interface EmptyStateProps {
  icon?: ReactNode
  title: string
  description?: ReactNode
  actions?: ReactNode
  /** Announce changes politely (loading and connection states). */
  live?: boolean
}

/** A centred message for pages without content: loading, empty, disconnected. */
export function EmptyState({ icon, title, description, actions, live }: EmptyStateProps) {
  return (
    <div
      className="flex flex-col items-center justify-center gap-2 px-4 py-12 text-center"
      role={live ? 'status' : undefined}
    >
      {icon && <div className="text-gray-400 dark:text-gray-500">{icon}</div>}
      <h2 className="text-base font-semibold text-gray-800 dark:text-gray-100">{title}</h2>
      {description && (
        <p className="max-w-md text-sm text-gray-600 dark:text-gray-400">{description}</p>
      )}
      {actions && <div className="mt-2 flex gap-2">{actions}</div>}
    </div>
  )
}
