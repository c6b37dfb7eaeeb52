// The command palette's request and answer (issue 28 item 6): what the UI asks the worker and
// the ranked, grouped items it gets back, formatted for display.

/**
 * What an item is; the groups are shown in this order when their best matches tie: the few
 * pages, then the estate, then the long tail of settings and the actions.
 */
export const PALETTE_KINDS = [
  'page',
  'guest',
  'node',
  'storage',
  'pbs',
  'alert',
  'setting',
  'action',
] as const
export type PaletteKind = (typeof PALETTE_KINDS)[number]

/** The heading of each kind's group. */
export const PALETTE_GROUP_LABELS: Record<PaletteKind, string> = {
  page: 'Pages',
  setting: 'Settings',
  action: 'Actions',
  guest: 'Guests',
  node: 'Nodes',
  storage: 'Storage',
  pbs: 'Backup servers',
  alert: 'Active alerts',
}

/** What an action item does instead of navigating (the UI runs it). */
export const PALETTE_ACTIONS = ['wall-view', 'exit-wall-view', 'shortcuts', 'theme'] as const
export type PaletteAction = (typeof PALETTE_ACTIONS)[number]

/** One result: a place to go or an action to run. */
export interface PaletteItem {
  kind: PaletteKind
  /** Unique within an answer: `${kind}:${id}`. */
  key: string
  label: string
  /** Secondary text (type, VMID and node of a guest; the message of an alert). */
  detail: string
  /** The route to go to; '' for an action. */
  href: string
  action?: PaletteAction
}

/** The items of one kind, best first, and how many of that kind matched in all. */
export interface PaletteGroup {
  kind: PaletteKind
  label: string
  /** Matches of this kind before the per-kind limit. */
  total: number
  items: PaletteItem[]
}

/** The UI's question: the text typed so far, and whether the wall view is on (its action). */
export interface PaletteRequest {
  query: string
  wallView?: boolean
}

/** The answer: groups in display order (the best match first); the query it answers. */
export interface PaletteResult {
  query: string
  groups: PaletteGroup[]
}
