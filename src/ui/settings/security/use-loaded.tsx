// A settings card's list as it loads (the users, API tokens and sessions cards): the fetch's
// state, a reload, and the line shown while loading or after a failure.
import { Loader2 } from 'lucide-react'
import { useCallback, useEffect, useState } from 'react'
import { ErrorPanel } from '../../auth/AuthCard.tsx'

export type Loaded<T> =
  { kind: 'loading' } | { kind: 'error'; message: string } | { kind: 'loaded'; value: T }

const message = (error: unknown) => (error instanceof Error ? error.message : String(error))

/**
 * Run `fetch` now and on each reload (and again when `fetch` changes); a reload keeps the list
 * shown until the new one arrives, and an answer older than the newest request is dropped.
 */
export function useLoaded<T>(fetch: () => Promise<T>): { load: Loaded<T>; reload: () => void } {
  const [load, setLoad] = useState<Loaded<T>>({ kind: 'loading' })
  const [generation, setGeneration] = useState(0)
  useEffect(() => {
    let current = true
    fetch()
      .then((value) => current && setLoad({ kind: 'loaded', value }))
      .catch((error: unknown) => current && setLoad({ kind: 'error', message: message(error) }))
    return () => {
      current = false
    }
  }, [fetch, generation])
  const reload = useCallback(() => setGeneration((n) => n + 1), [])
  return { load, reload }
}

/** "Loading the <what>..." or "Failed to load the <what>: <why>"; nothing once loaded. */
export function LoadStatus({ load, what }: { load: Loaded<unknown>; what: string }) {
  if (load.kind === 'loading') {
    return (
      <p role="status" className="flex items-center gap-2 text-sm text-gray-600 dark:text-gray-400">
        <Loader2 className="size-4 animate-spin" aria-hidden />
        Loading the {what}...
      </p>
    )
  }
  if (load.kind === 'error') {
    return (
      <ErrorPanel>
        Failed to load the {what}: {load.message}
      </ErrorPanel>
    )
  }
  return null
}
