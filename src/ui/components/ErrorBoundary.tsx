import { AlertTriangle } from 'lucide-react'
import { Component, type ErrorInfo, type ReactNode } from 'react'
import { BUTTON } from './button-classes.ts'

interface Props {
  children: ReactNode
}

interface State {
  error: Error | null
  showDetails: boolean
}

/** Catches render errors below it and offers Try Again (re-render) or Reload Page. */
export class ErrorBoundary extends Component<Props, State> {
  override state: State = { error: null, showDetails: false }

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error: error instanceof Error ? error : new Error(String(error)) }
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error('UI error', error, info.componentStack)
  }

  override render() {
    const { error, showDetails } = this.state
    if (!error) return this.props.children
    return (
      <div
        role="alert"
        className="mx-auto flex max-w-xl flex-col items-center gap-3 p-8 text-center"
      >
        <AlertTriangle className="size-10 text-red-500" aria-hidden />
        <h2 className="text-lg font-semibold">Something went wrong</h2>
        <p className="text-sm text-gray-600 dark:text-gray-400">An unexpected error occurred</p>
        <p className="font-mono text-sm text-red-700 dark:text-red-400">{error.message}</p>
        <div className="flex gap-2">
          <button
            type="button"
            className={BUTTON.primary}
            onClick={() => this.setState({ error: null, showDetails: false })}
          >
            Try Again
          </button>
          <button type="button" className={BUTTON.secondary} onClick={() => location.reload()}>
            Reload Page
          </button>
        </div>
        <button
          type="button"
          className="text-xs text-gray-500 underline hover:text-gray-700 dark:text-gray-400"
          aria-expanded={showDetails}
          onClick={() => this.setState({ showDetails: !showDetails })}
        >
          {showDetails ? 'Hide error details' : 'Show error details'}
        </button>
        {showDetails && (
          <pre className="max-h-64 w-full overflow-auto rounded bg-gray-100 p-3 text-left text-xs dark:bg-gray-800">
            {error.stack ?? error.message}
          </pre>
        )}
      </div>
    )
  }
}
