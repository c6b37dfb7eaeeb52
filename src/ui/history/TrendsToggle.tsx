// The filter bar's switch for the trend column (issue 25); one saved preference for every table.
import { useId } from 'react'
import { useSnapshot } from 'valtio'
import { Switch } from '../components/Switch.tsx'
import { uiState } from '../state.ts'

/** "Trends" on/off: the last hour's sparkline in the guest, node and storage tables. */
export function TrendsToggle() {
  const on = useSnapshot(uiState).trends
  const id = useId()
  return (
    <span
      className="inline-flex items-center gap-2 text-xs text-gray-700 dark:text-gray-300"
      title="A sparkline of the last hour in each row on screen"
    >
      <Switch
        id={id}
        checked={on}
        onChange={(checked) => {
          uiState.trends = checked
        }}
      />
      <label htmlFor={id}>Trends</label>
    </span>
  )
}
