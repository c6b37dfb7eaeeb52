import { memo } from 'react'
import type { NodeSummaryModel } from '../../shared/views/node-summary-types.ts'
import { uiState } from '../state.ts'

/**
 * Memoised on the model: it re-renders once per poll, not on every keystroke or scroll step.
 * Spec 000 §2.2: a hidden, disabled node table (Node, Status, CPU, Memory, Disk, VMs, Containers,
 * Uptime) from the node summary model. Clicking a node there toggles a node:<name> search term.
 */
export const HiddenNodeTable = memo(function HiddenNodeTable({
  model,
}: {
  model: NodeSummaryModel
}) {
  return (
    <table hidden aria-label="Nodes (compact)" data-testid="hidden-node-table">
      <thead>
        <tr>
          {['Node', 'Status', 'CPU', 'Memory', 'Disk', 'VMs', 'Containers', 'Uptime'].map(
            (label) => (
              <th key={label} scope="col">
                {label}
              </th>
            ),
          )}
        </tr>
      </thead>
      <tbody>
        {model.rows.map((row) => (
          <tr key={row.id}>
            <td>
              <button type="button" onClick={() => toggleNodeFilter(row.name)}>
                {row.name}
              </button>
            </td>
            <td>{row.online ? 'online' : 'offline'}</td>
            <td>{row.cpuText}</td>
            <td>{row.memoryText}</td>
            <td>{row.diskText}</td>
            <td>{row.counts.vms ?? 0}</td>
            <td>{row.counts.containers ?? 0}</td>
            <td>{row.uptimeText}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
})

/** Add `node:<name>` to the dashboard search (space-separated), or remove it when present. */
function toggleNodeFilter(name: string): void {
  const term = `node:${name}`
  const words = uiState.dashboard.search.split(/\s+/).filter(Boolean)
  const kept = words.filter((word) => word.toLowerCase() !== term.toLowerCase())
  uiState.dashboard.search = (kept.length === words.length ? [...words, term] : kept).join(' ')
}
