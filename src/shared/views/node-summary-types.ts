// The node summary protocol between the worker and the UI (spec 000 §2.1; ARCHITECTURE.md "The
// worker's view protocol").
import type { Colour } from '../format/thresholds.ts'
import type { SortDirection } from './guest-view-types.ts'

/** Tabs that show a node summary table. */
export const NODE_SUMMARY_TABS = ['dashboard', 'storage', 'backups'] as const
export type NodeSummaryTab = (typeof NODE_SUMMARY_TABS)[number]

/** Count columns: dashboard VMs and Containers, storage Storage and Disks, backups Backups. */
export const NODE_COUNT_KEYS = ['vms', 'containers', 'storage', 'disks', 'backups'] as const
export type NodeCountKey = (typeof NODE_COUNT_KEYS)[number]

/** Sortable columns of the table. */
export const NODE_SUMMARY_SORT_KEYS = [
  'name',
  'uptime',
  'cpu',
  'memory',
  'disk',
  'temperature',
  ...NODE_COUNT_KEYS,
] as const
export type NodeSummarySortKey = (typeof NODE_SUMMARY_SORT_KEYS)[number]

/** A column sort, or null for the default order. */
export type NodeSummarySort = { key: NodeSummarySortKey; direction: SortDirection } | null

/** What the UI asks the worker for. */
export interface NodeSummaryRequest {
  kind: 'nodeSummary'
  tab: NodeSummaryTab
  /** Null: default order (hypervisor nodes first, online first, then by name). */
  sort: NodeSummarySort
}

/** A count column of the current tab. */
export interface NodeCountColumn {
  key: NodeCountKey
  label: string
}

/** Badges of a row (spec 000 §2.1). */
export interface NodeBadges {
  type: 'PVE' | 'PBS'
  /** '8.2.4' for a hypervisor node, the backup server's version as is; '' when unknown. */
  version: string
  /** Cluster name or 'Standalone'; null for a backup server, which has no cluster. */
  cluster: string | null
  /** The alternate display name when it differs materially from the name, else null. */
  displayName: string | null
}

/** One hypervisor node or backup server, formatted for display. */
export interface NodeSummaryRow {
  /** Node id (`<instance>-<name>`) or backup server id (`pbs-<name>`); what selection stores. */
  id: string
  kind: 'pve' | 'pbs'
  name: string
  /** The node's own web interface. */
  href: string
  /** Spec 000 §4 node health; offline rows are dimmed and show '-' for every metric. */
  online: boolean
  uptimeText: string
  /** Uptime under an hour (shown orange). */
  uptimeShort: boolean
  /** Percents are -1 when offline or unavailable (the UI shows '-' instead of a bar). */
  cpuPercent: number
  cpuText: string
  memoryPercent: number
  memoryText: string
  /** 'used / total', '' when unavailable. */
  memoryDetail: string
  diskPercent: number
  diskText: string
  diskDetail: string
  /** CPU package temperature in °C, null when not reported. */
  temperature: number | null
  temperatureText: string
  /** Spec 000 §9: green below 70, yellow 70-79, red 80 or more; null without a temperature. */
  temperatureColour: Colour | null
  badges: NodeBadges
  /** Values of the tab's count columns. */
  counts: Partial<Record<NodeCountKey, number>>
}

/** The node summary as the worker pushes it. */
export interface NodeSummaryModel {
  kind: 'nodeSummary'
  /** Increases with every model the worker pushes; the UI drops older ones. */
  version: number
  tab: NodeSummaryTab
  /** Header of the name column: 'Node', or 'Node / PBS' on the backups tab. */
  nameLabel: string
  /** Header of the disk column: 'Disk', or 'Storage / Disk' on the backups tab. */
  diskLabel: string
  /** True when any node reports a temperature (the Temp column is shown). */
  showTemperature: boolean
  countColumns: NodeCountColumn[]
  /** A first load is still bringing guests: the VM and container counts read as loading. */
  guestsLoading?: boolean
  rows: NodeSummaryRow[]
}

/** A model before the worker stamps its version. */
export type NodeSummaryResult = Omit<NodeSummaryModel, 'version'>
