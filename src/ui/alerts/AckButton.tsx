import type { AlertsOverviewRow } from '../../shared/views/alerts-overview-types.ts'
import { useRole } from '../auth/useRole.ts'
import { BUTTON } from '../components/button-classes.ts'
import type { AckPhase } from './useAlertAck.ts'

/**
 * Acknowledge / Unacknowledge of one alert (spec 001 §4: 'Processing...' while it is sent). Absent
 * for a viewer (issue 29 item 6).
 */
export function AckButton({
  row,
  busy,
  onToggle,
}: {
  row: Pick<AlertsOverviewRow, 'id' | 'acknowledged' | 'resourceName' | 'message'>
  busy: AckPhase | undefined
  onToggle: (alertId: string, acknowledged: boolean) => void
}) {
  const { can } = useRole()
  if (!can('operator')) return null
  const sending = busy === 'sending'
  const label = sending ? 'Processing...' : row.acknowledged ? 'Unacknowledge' : 'Acknowledge'
  return (
    <button
      type="button"
      disabled={busy !== undefined}
      aria-label={sending ? undefined : `${label} ${row.resourceName}: ${row.message}`}
      onClick={() => onToggle(row.id, row.acknowledged)}
      className={`${BUTTON.secondary} px-2 py-1 text-xs disabled:cursor-wait disabled:opacity-60`}
    >
      {label}
    </button>
  )
}
