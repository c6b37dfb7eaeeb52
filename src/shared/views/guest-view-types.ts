// The guest view protocol between the worker and the UI (ARCHITECTURE.md "The worker's view protocol").
import type { GuestAlertState } from './guest-alerts.ts'
import type { GuestDetail } from './guest-detail.ts'

export const GUEST_VIEW_MODES = ['all', 'vm', 'lxc'] as const
export type GuestViewMode = (typeof GUEST_VIEW_MODES)[number]
export const GUEST_STATUS_MODES = ['all', 'running', 'stopped'] as const
export type GuestStatusMode = (typeof GUEST_STATUS_MODES)[number]
export const GUEST_GROUPINGS = ['grouped', 'flat'] as const
export type GuestGrouping = (typeof GUEST_GROUPINGS)[number]
export const GUEST_SORT_KEYS = [
  'name',
  'type',
  'vmid',
  'uptime',
  'cpu',
  'memory',
  'disk',
  'diskRead',
  'diskWrite',
  'networkIn',
  'networkOut',
] as const
export type GuestSortKey = (typeof GUEST_SORT_KEYS)[number]
export type SortDirection = 'asc' | 'desc'

export interface ViewWindow {
  start: number
  count: number
}

export interface GuestViewRequest {
  kind: 'guests'
  search: string
  viewMode: GuestViewMode
  statusMode: GuestStatusMode
  grouping: GuestGrouping
  sort: { key: GuestSortKey; direction: SortDirection }
  /** Node id to restrict the view to, or null. */
  selectedNode: string | null
  /** Rows (group headers included) the UI wants; the worker adds no overscan itself. */
  window: ViewWindow
}

/** A node header row in grouped mode. */
export interface GuestGroupRow {
  kind: 'group'
  key: string
  nodeId: string
  label: string
  /** Cluster or instance name shown beside the node. */
  sublabel: string
  online: boolean
  guestCount: number
}

/** One guest, formatted for display. Numbers are for bars and colour classes. */
export interface GuestRow {
  kind: 'guest'
  key: string
  /** Metadata key (spec 000 §3): the guest id, else its identity key. */
  id: string
  /** Fallback metadata key: `<node>-<vmid>`. */
  nodeVmidKey: string
  name: string
  typeLabel: 'VM' | 'LXC'
  vmid: number
  node: string
  status: string
  /** Running on an online node (spec 000 §4 guest activity). */
  active: boolean
  tags: string[]
  uptimeText: string
  /** Uptime under an hour (shown orange). */
  uptimeShort: boolean
  cpuPercent: number
  cpuText: string
  memoryPercent: number
  memoryText: string
  /** -1 when unavailable. */
  diskPercent: number
  diskText: string
  /** Optional (added by the worker slice): memory 'used / total' text, active guests only. */
  memoryDetail?: string
  /** Optional (added by the worker slice): disk 'used / total' text, when available and active. */
  diskDetail?: string
  diskReadText: string
  diskWriteText: string
  networkInText: string
  networkOutText: string
  diskRead: number
  diskWrite: number
  networkIn: number
  networkOut: number
  /** Alert styling (spec 000 §4): red, yellow, the 'Ack' marker, or null without alerts. */
  alert: GuestAlertState | null
  /** Why disk usage is unavailable (spec 000 §8); set only when diskPercent < 0. */
  diskReason?: string
  /** The expandable detail panel (spec 000 §2.2), or null when there is nothing to show. */
  detail: GuestDetail | null
}

export type GuestViewRow = GuestGroupRow | GuestRow

export interface GuestViewModel {
  kind: 'guests'
  /** Increases with every model the worker pushes; the UI drops older ones. */
  version: number
  totals: { guests: number; running: number; stopped: number; matched: number }
  /** Total rows (group headers included) for the virtualiser. */
  rowCount: number
  /** First row index of `rows`. */
  start: number
  rows: GuestViewRow[]
  /** Epoch ms of the data the view was computed from. */
  lastUpdate: number
}

/** The dashboard's defaults (spec 000 §2.2 Reset: vmid ascending, all, grouped) with a first window. */
export const DEFAULT_GUEST_VIEW_REQUEST: Readonly<GuestViewRequest> = {
  kind: 'guests',
  search: '',
  viewMode: 'all',
  statusMode: 'all',
  grouping: 'grouped',
  sort: { key: 'vmid', direction: 'asc' },
  selectedNode: null,
  window: { start: 0, count: 60 },
}
