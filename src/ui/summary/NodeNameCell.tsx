// A node summary row's name cell (spec 000 §2.1): status, name, web UI link, history button, a
// link to its page (issue 25) and badges.
import { ExternalLink } from 'lucide-react'
import { resourcePagePath } from '../../shared/model/history.ts'
import type { NodeSummaryRow } from '../../shared/views/node-summary-types.ts'
import { FOCUS_RING } from '../components/button-classes.ts'
import { HistoryToggle } from '../history/HistoryToggle.tsx'
import { PageLink } from '../resource/PageLink.tsx'

const PILL =
  'inline-flex shrink-0 items-center rounded px-1.5 py-px text-[10px] leading-4 font-medium'

/**
 * Status dot, the name (part of the row: a click selects the node), an icon linking to the node's
 * web UI in a new tab, a button opening the node's history (issue 25), and the badges. On a phone
 * the link icon shows on the selected row only: the width goes to the name.
 */
export function NameCell({
  row,
  selected,
  historyOpen,
  onHistory,
}: {
  row: NodeSummaryRow
  selected: boolean
  historyOpen: boolean
  onHistory: (id: string) => void
}) {
  const { badges } = row
  return (
    <div className="flex min-w-0 items-center gap-1.5">
      <span
        role="img"
        aria-label={row.online ? 'online' : 'offline'}
        className={`size-2 shrink-0 rounded-full ${row.online ? 'bg-emerald-500' : 'bg-red-500'}`}
      />
      {/* On a phone a long name wraps onto a second line (the row is tall enough) rather than
          losing its end: the nodes of one cluster differ only there (alpha-pve1, alpha-pve2). */}
      <span
        className="truncate font-medium text-gray-900 max-sm:line-clamp-2 max-sm:leading-4 max-sm:break-words max-sm:whitespace-normal dark:text-gray-100"
        title={row.name}
        data-name=""
      >
        {row.name}
      </span>
      <a
        href={row.href}
        target="_blank"
        rel="noopener noreferrer"
        aria-label={`Open ${row.name} in the Proxmox web interface`}
        title={`Open ${row.name} in the Proxmox web interface`}
        className={`shrink-0 rounded p-0.5 ${selected ? '' : 'max-sm:hidden'} text-gray-400 hover:text-blue-700 dark:text-gray-500 dark:hover:text-blue-300 ${FOCUS_RING}`}
      >
        <ExternalLink className="size-3.5" aria-hidden />
      </a>
      <HistoryToggle name={row.name} open={historyOpen} onToggle={() => onHistory(row.id)} />
      <span className={`shrink-0 ${selected ? '' : 'max-sm:hidden'}`}>
        <PageLink
          href={resourcePagePath(row.kind === 'pbs' ? 'pbs' : 'node', row.id)}
          label={`Open the page of ${row.name}`}
        />
      </span>
      <span
        className={`${PILL} max-sm:hidden ${
          badges.type === 'PVE'
            ? 'bg-blue-100 text-blue-700 dark:bg-blue-500/15 dark:text-blue-300'
            : 'bg-violet-100 text-violet-700 dark:bg-violet-500/15 dark:text-violet-300'
        }`}
      >
        {badges.type}
      </span>
      {badges.version && (
        <span
          className={`${PILL} max-sm:hidden bg-gray-100 text-gray-600 dark:bg-gray-800 dark:text-gray-300`}
        >
          v{badges.version}
        </span>
      )}
      {badges.cluster && (
        <span
          className={`${PILL} max-sm:hidden bg-indigo-50 text-indigo-700 dark:bg-indigo-500/15 dark:text-indigo-300`}
        >
          {badges.cluster}
        </span>
      )}
      {badges.displayName && (
        <span
          className={`${PILL} max-sm:hidden truncate bg-gray-100 text-gray-500 italic dark:bg-gray-800 dark:text-gray-400`}
          title="Display name"
        >
          {badges.displayName}
        </span>
      )}
    </div>
  )
}
