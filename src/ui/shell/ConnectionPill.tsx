import type { ConnectionStatus } from '../../worker/api-types.ts'

/**
 * The pill's label for a connection status (spec 001 §2 Shell). The page's first connection reads
 * 'Connecting...': 'Reconnecting...' before anything was ever connected reads as trouble.
 */
export function pillLabel(status: ConnectionStatus): string {
  if (status === 'connected') return 'Connected'
  if (status === 'disconnected') return 'Disconnected'
  if (status === 'connecting') return 'Connecting...'
  return 'Reconnecting...'
}

const WAITING = {
  pill: 'bg-amber-50 text-amber-700 ring-amber-600/20 dark:bg-amber-500/10 dark:text-amber-300',
  dot: 'bg-amber-500 animate-pulse',
}

const LOOK: Record<
  'Connected' | 'Connecting...' | 'Reconnecting...' | 'Disconnected',
  { pill: string; dot: string }
> = {
  Connected: {
    pill: 'bg-emerald-50 text-emerald-700 ring-emerald-600/20 dark:bg-emerald-500/10 dark:text-emerald-300',
    dot: 'bg-emerald-500',
  },
  'Connecting...': WAITING,
  'Reconnecting...': WAITING,
  Disconnected: {
    pill: 'bg-red-50 text-red-700 ring-red-600/20 dark:bg-red-500/10 dark:text-red-300',
    dot: 'bg-red-500',
  },
}

/** Connection status pill in the header. */
export function ConnectionPill({ status }: { status: ConnectionStatus }) {
  const label = pillLabel(status) as keyof typeof LOOK
  const look = LOOK[label]
  return (
    <span
      role="status"
      aria-label={`Connection: ${label}`}
      className={`inline-flex items-center gap-1.5 rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${look.pill}`}
    >
      <span className={`size-1.5 rounded-full ${look.dot}`} aria-hidden />
      {label}
    </span>
  )
}
