import { useId, type ReactNode } from 'react'

interface CardProps {
  title: string
  /** Icon shown before the title. */
  icon?: ReactNode
  description?: ReactNode
  /** Buttons at the right of the title row (below it on a phone). */
  actions?: ReactNode
  children?: ReactNode
  className?: string
}

/** A titled settings section: a labelled region with a header and content. */
export function Card({ title, icon, description, actions, children, className = '' }: CardProps) {
  const titleId = useId()
  return (
    <section
      aria-labelledby={titleId}
      className={`min-w-0 rounded-lg border border-gray-200 bg-white dark:border-gray-800 dark:bg-gray-900 ${className}`}
    >
      <div className="flex flex-wrap items-start gap-x-3 gap-y-2 border-b border-gray-200 px-4 py-3 dark:border-gray-800">
        <div className="flex min-w-0 flex-1 items-start gap-2">
          {icon && <span className="mt-0.5 text-gray-500 dark:text-gray-400">{icon}</span>}
          <div className="min-w-0">
            <h2 id={titleId} className="text-sm font-semibold text-gray-900 dark:text-gray-100">
              {title}
            </h2>
            {description && (
              <p className="mt-0.5 text-xs text-gray-600 dark:text-gray-400">{description}</p>
            )}
          </div>
        </div>
        {actions && <div className="flex flex-wrap gap-2">{actions}</div>}
      </div>
      {children !== undefined && <div className="px-4 py-3">{children}</div>}
    </section>
  )
}
