import { AckButton } from '../alerts/AckButton.tsx'
import { useAlertAck } from '../alerts/useAlertAck.ts'
import { BADGE, PILL } from '../components/colours.ts'
import { useView } from '../hooks/useView.ts'

const LEVEL_BADGE = { critical: BADGE.red, warning: BADGE.yellow } as const

/**
 * A guest's active alerts in its detail panel, each with Acknowledge / Unacknowledge (issue 28
 * item 3): from the worker's resource view, the same rows the guest's page lists. Nothing is
 * shown while the guest has no alert.
 */
export function GuestActiveAlerts({ guestId }: { guestId: string }) {
  const model = useView({ kind: 'resource', resourceKind: 'guest', id: guestId })
  const { busy, toggle } = useAlertAck()
  const rows = model?.alerts ?? []
  if (rows.length === 0) return null
  return (
    <section
      aria-label="Active alerts"
      className="min-w-0 space-y-1 rounded border border-gray-200 bg-white p-2 dark:border-gray-700 dark:bg-gray-900"
    >
      <h3 className="text-[11px] font-semibold tracking-wide text-gray-500 uppercase dark:text-gray-400">
        Active alerts <span className="tabular-nums">{rows.length}</span>
      </h3>
      <ul className="space-y-1">
        {rows.map((row) => (
          <li key={row.id} className="flex flex-wrap items-center gap-x-2 gap-y-1">
            <span className={`${PILL} ${LEVEL_BADGE[row.level]}`}>{row.level}</span>
            <span className="min-w-0 flex-1">{row.message}</span>
            {row.acknowledged && <span className={`${PILL} ${BADGE.grey}`}>Ack</span>}
            <AckButton row={row} busy={busy.get(row.id)} onToggle={toggle} />
          </li>
        ))}
      </ul>
    </section>
  )
}
