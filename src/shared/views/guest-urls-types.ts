// The Guest URLs tab protocol between the worker and the UI (spec 001 §2 Guest URLs tab, §3 Guest
// for URLs). The worker filters and groups the guests; the URLs themselves stay in the UI (they
// are sparse, and edits must not cross the boundary on every keystroke).
import type { ViewWindow } from './guest-view-types.ts'

export interface GuestUrlsViewRequest {
  kind: 'guestUrls'
  /** Every word must appear in the guest's name, VMID, node, instance or type (VM, LXC). */
  search: string
  /** Rows (node headers included) the UI wants. */
  window: ViewWindow
}

/** Spec 001 §3 Guest (for URLs), with the keys its metadata may be stored under. */
export interface GuestUrlRow {
  kind: 'guest'
  /** The metadata key the tab saves under: the guest id, else instance-node-vmid. */
  id: string
  /** The dashboard's fallback key (spec 000 §3): a URL stored under it shows too. */
  nodeVmidKey: string
  instance: string
  node: string
  vmid: number
  name: string
  type: 'VM' | 'LXC'
}

/** A node header; guests follow it until the next header. */
export interface GuestUrlGroupRow {
  kind: 'group'
  key: string
  label: string
  /** The instance (cluster) when it differs from the node name, else ''. */
  sublabel: string
  guestCount: number
}

export type GuestUrlViewRow = GuestUrlRow | GuestUrlGroupRow

export interface GuestUrlsViewModel {
  kind: 'guestUrls'
  version: number
  /** The search the rows answer (the UI shows its results only while they match its box). */
  search: string
  /** Guests in the estate, and those the search keeps. */
  total: number
  matched: number
  /** Rows, node headers included. */
  rowCount: number
  /** The rows from `window.start`, at most `window.count`. */
  window: ViewWindow
  rows: GuestUrlViewRow[]
}
