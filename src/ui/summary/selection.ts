// The node selected in a tab's node summary table (spec 000 §2.1): filters that tab's view.
import { proxy } from 'valtio'

/** Tabs that show a node summary table. */
export type SummaryTab = 'dashboard' | 'storage' | 'backups'

/** One selection for the whole app: it belongs to the tab it was made on. */
export const nodeSelection = proxy<{ tab: SummaryTab | null; nodeId: string | null }>({
  tab: null,
  nodeId: null,
})

/** The node selected on `tab`, or null. */
export function getSelectedNode(
  selection: { tab: SummaryTab | null; nodeId: string | null },
  tab: SummaryTab,
): string | null {
  return selection.tab === tab ? selection.nodeId : null
}

/** Select `nodeId` on `tab`, or deselect it when it is already selected. */
export function toggleNodeSelection(tab: SummaryTab, nodeId: string): void {
  const same = nodeSelection.tab === tab && nodeSelection.nodeId === nodeId
  nodeSelection.tab = same ? null : tab
  nodeSelection.nodeId = same ? null : nodeId
}

/** Drop any selection (Escape, tab change). Returns true when there was one. */
export function clearNodeSelection(): boolean {
  const had = nodeSelection.nodeId !== null
  nodeSelection.tab = null
  nodeSelection.nodeId = null
  return had
}
