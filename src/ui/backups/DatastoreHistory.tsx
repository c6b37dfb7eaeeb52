// A PBS's datastores over time (issue 25), under the PBS's own charts when its History is opened
// from the summary row on the Backups tab.
import { datastoreResourceId } from '../../shared/model/history.ts'
import type { BackupScope } from '../../shared/views/backups-types.ts'
import type { NodeSummaryRow } from '../../shared/views/node-summary-types.ts'
import { HistoryPanel } from '../history/HistoryPanel.tsx'

/** One compact history per datastore of the PBS in `row` (none for a PVE node). */
export function DatastoreHistory({
  row,
  scopes,
}: {
  row: NodeSummaryRow
  scopes: readonly BackupScope[]
}) {
  if (row.kind !== 'pbs') return null
  const stores = [...new Set(scopes.filter((s) => s.instance === row.name).map((s) => s.datastore))]
  return stores.map((store) => (
    <div key={store} className="space-y-1">
      <h3 className="text-xs font-semibold text-gray-700 dark:text-gray-300">Datastore {store}</h3>
      <HistoryPanel
        resourceId={datastoreResourceId(row.id, store)}
        title={`datastore ${store} on ${row.name}`}
        kind="datastore"
        compact
      />
    </div>
  ))
}
