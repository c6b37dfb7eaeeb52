import { X } from 'lucide-react'
import { useSnapshot } from 'valtio'
import type { BackupScope } from '../../shared/views/backups-types.ts'
import { FOCUS_RING } from '../components/button-classes.ts'
import { useView } from '../hooks/useView.ts'
import { clearNodeSelection, getSelectedNode, nodeSelection } from '../summary/selection.ts'
import { backupsState } from './backups-state.ts'

const SEP = '\u0000'
const ALL = ''
const SUMMARY = { kind: 'nodeSummary', tab: 'backups', sort: null } as const

function scopeValue(scope: BackupScope): string {
  return ['ns', scope.instance, scope.datastore, scope.namespace].join(SEP)
}

/** Chooses a node (shared with the summary table's selection), a PBS, or one PBS namespace. */
export function SourceSelector({ scopes }: { scopes: readonly BackupScope[] }) {
  const summary = useView(SUMMARY)
  const selected = getSelectedNode(useSnapshot(nodeSelection), 'backups')
  const { scope } = useSnapshot(backupsState)
  const value = scope ? scopeValue(scope) : (selected ?? ALL)
  const rows = summary?.rows ?? []
  return (
    <span className="flex items-center gap-1">
      <label className="flex items-center gap-1 text-xs text-gray-600 dark:text-gray-300">
        Node / namespace
        <select
          aria-label="Node or namespace"
          value={value}
          onChange={(event) => choose(event.target.value, scopes)}
          className={`max-w-64 rounded-md border px-2 py-1 text-xs ${FOCUS_RING} ${
            value === ALL
              ? 'border-gray-300 bg-white dark:border-gray-600 dark:bg-gray-800'
              : 'border-blue-500 bg-blue-50 font-medium text-blue-800 dark:border-blue-400 dark:bg-blue-500/15 dark:text-blue-200'
          }`}
        >
          <option value={ALL}>All nodes</option>
          <optgroup label="PVE nodes">
            {rows
              .filter((row) => row.kind === 'pve')
              .map((row) => (
                <option key={row.id} value={row.id}>
                  {row.name}
                </option>
              ))}
          </optgroup>
          <optgroup label="PBS">
            {rows
              .filter((row) => row.kind === 'pbs')
              .map((row) => (
                <option key={row.id} value={row.id}>
                  {row.name}
                </option>
              ))}
            {scopes.map((item) => (
              <option key={scopeValue(item)} value={scopeValue(item)}>
                {`${item.instance} / ${item.datastore} / ${item.namespace || 'root'}`}
              </option>
            ))}
          </optgroup>
        </select>
      </label>
      {value !== ALL && (
        // A selection narrows every list on the tab: say so, and offer the way out next to it.
        <button
          type="button"
          onClick={() => choose(ALL, scopes)}
          className={`inline-flex items-center gap-0.5 rounded px-1 py-0.5 text-xs text-blue-700 hover:bg-blue-50 dark:text-blue-300 dark:hover:bg-blue-500/15 ${FOCUS_RING}`}
        >
          <X className="size-3" aria-hidden />
          Show all nodes
        </button>
      )}
    </span>
  )
}

/** Applies a choice: a namespace also selects its PBS, which forces the remote view (spec 000 §4). */
function choose(value: string, scopes: readonly BackupScope[]): void {
  const scope = scopes.find((item) => scopeValue(item) === value) ?? null
  backupsState.scope = scope
  backupsState.selectedDay = null
  if (value === ALL) {
    clearNodeSelection()
    return
  }
  nodeSelection.tab = 'backups'
  nodeSelection.nodeId = scope ? `pbs-${scope.instance}` : value
}
