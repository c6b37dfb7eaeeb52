import { Activity } from 'lucide-react'
import type { ReactNode } from 'react'

/** The centred card of the screens shown before the app: logo, title, subtitle, content. */
export function AuthCard({
  title,
  subtitle,
  children,
  wide = false,
}: {
  title: string
  subtitle?: ReactNode
  children: ReactNode
  wide?: boolean
}) {
  return (
    <div className="flex min-h-full items-center justify-center overflow-auto px-4 py-8">
      <div
        className={`w-full ${wide ? 'max-w-lg' : 'max-w-sm'} rounded-lg border border-gray-200 bg-white p-5 shadow-sm sm:p-6 dark:border-gray-800 dark:bg-gray-900`}
      >
        <div className="mb-5 flex flex-col items-center gap-2 text-center">
          <span className="grid size-10 place-items-center rounded-lg bg-blue-600 text-white">
            <Activity className="size-5" aria-hidden />
          </span>
          <h1 className="text-lg font-semibold tracking-tight">{title}</h1>
          {subtitle && <p className="text-sm text-gray-600 dark:text-gray-400">{subtitle}</p>}
        </div>
        {children}
      </div>
    </div>
  )
}

/** A red error panel announced to screen readers. */
export function ErrorPanel({ children }: { children: ReactNode }) {
  return (
    <div
      role="alert"
      className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700 dark:border-red-900 dark:bg-red-950 dark:text-red-300"
    >
      {children}
    </div>
  )
}
