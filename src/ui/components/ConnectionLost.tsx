import { WifiOff } from 'lucide-react'
import { useWorker } from '../worker-context.ts'
import { BUTTON } from './button-classes.ts'
import { EmptyState } from './EmptyState.tsx'

/**
 * The 'Connection lost' state of a live tab (spec 000 §8): while the worker retries it says so,
 * otherwise it offers 'Reconnect now'.
 */
export function ConnectionLost({ reconnecting }: { reconnecting: boolean }) {
  const api = useWorker()
  return (
    <EmptyState
      live
      icon={<WifiOff className="size-8 text-red-500" aria-hidden />}
      title="Connection lost"
      description={
        reconnecting ? 'Attempting to reconnect…' : 'Unable to connect to the backend server'
      }
      actions={
        reconnecting ? undefined : (
          <button type="button" className={BUTTON.primary} onClick={() => void api.reconnectNow()}>
            Reconnect now
          </button>
        )
      }
    />
  )
}
