// Wire types of the alerts area (spec 000 §3 Alert; spec 001 §3 Alert rule, Threshold override,
// Alert config, Active alert, History alert; reference/wire-protocol.md §2.9, §3.6, §5).
// Pure types and constants: imported by the server, the worker and the UI alike.

import type { AlertSilenced } from './silences.ts'

export type AlertLevel = 'warning' | 'critical'

/** Metrics compared against a trigger/clear pair. Guest I/O is in MB/s (bytes / 1,048,576). */
export const ALERT_METRICS = [
  'cpu',
  'memory',
  'disk',
  'diskRead',
  'diskWrite',
  'networkIn',
  'networkOut',
  'usage',
  'temperature',
] as const
export type AlertMetric = (typeof ALERT_METRICS)[number]

/** Guest metrics (spec 001 §2 Thresholds, VMs & Containers table). */
export const GUEST_METRICS = [
  'cpu',
  'memory',
  'disk',
  'diskRead',
  'diskWrite',
  'networkIn',
  'networkOut',
] as const satisfies readonly AlertMetric[]
export type GuestMetric = (typeof GUEST_METRICS)[number]

/** Node metrics (Proxmox Nodes table); PBS uses cpu and memory only, storage usage only. */
export const NODE_METRICS = [
  'cpu',
  'memory',
  'disk',
  'temperature',
] as const satisfies readonly AlertMetric[]
export type NodeMetric = (typeof NODE_METRICS)[number]
export const PBS_METRICS = ['cpu', 'memory'] as const satisfies readonly AlertMetric[]
export const STORAGE_METRICS = ['usage'] as const satisfies readonly AlertMetric[]

/**
 * What an alert is about. Metric alerts carry the metric's name (a guest filesystem is 'disk');
 * the others as the reference names them (wire-protocol.md §5.2).
 */
export type AlertType =
  | AlertMetric
  | 'connectivity'
  | 'offline'
  | 'powered-off'
  | 'disk-health'
  | 'disk-wearout'
  | 'zfs-pool-state'
  | 'zfs-pool-errors'
  | 'zfs-device'
  // Issue 26: backups (BACKUP_ALERT_TYPES).
  | 'backup-age'
  | 'backup-uncovered'
  | 'backup-failed'
  | 'pbs-job-failed'
  | 'pbs-job-overdue'
  | 'backup-verify-failed'
  | 'backup-orphaned'

/** Issue 26: the backup alert kinds. */
export const BACKUP_ALERT_TYPES = [
  'backup-age',
  'backup-uncovered',
  'backup-failed',
  'pbs-job-failed',
  'pbs-job-overdue',
  'backup-verify-failed',
  'backup-orphaned',
] as const satisfies readonly AlertType[]
export type BackupAlertType = (typeof BACKUP_ALERT_TYPES)[number]

/**
 * Issue 26: backup alerting, per resource (a guest's override, a custom rule, or a PBS's override).
 * An unset field falls through: override, then the highest-priority matching rule, then defaults.
 */
export interface BackupAlertOverride {
  /** false: no backup alerts at all for this resource. */
  enabled?: boolean
  /** Days since the newest backup; 0 switches that level off. */
  ageWarningDays?: number
  ageCriticalDays?: number
  /** Raise 'backup-uncovered' when no enabled job selects the guest. */
  notBackedUp?: boolean
}

/** Issue 26: the backup alert defaults (AlertConfig.backups). */
export interface BackupAlertConfig {
  /** Master switch of every backup alert kind. */
  enabled: boolean
  /** Backup age: days since a guest's newest backup (or never backed up); 0 switches a level off. */
  ageWarningDays: number
  ageCriticalDays: number
  /** Guests covered by no enabled backup job (off by default; on per guest or per rule). */
  notBackedUp: boolean
  /** A vzdump task that failed for a guest (critical). */
  failedJobs: boolean
  /** PBS sync / verify / prune / GC jobs that failed or are overdue. */
  pbsJobs: boolean
  /** Minutes a PBS job's next run may be past, with no run since, before it is overdue. */
  overdueGraceMinutes: number
  /** PBS snapshots whose verification failed. */
  verification: boolean
  /** Backups of VMIDs no monitored instance has (one summary per instance; off by default). */
  orphaned: boolean
}
/** Resource classes with their own alert delay (spec 001 §9 time thresholds). */
export const RESOURCE_CLASSES = ['guest', 'node', 'storage', 'pbs'] as const
export type ResourceClass = (typeof RESOURCE_CLASSES)[number]

export type AlertResourceType = 'VM' | 'Container' | 'Node' | 'PBS' | 'Storage' | 'Disk'

export type AlertMetadata = {
  resourceType: AlertResourceType
  /** The clear level in force when the alert was last evaluated (metric alerts). */
  clearThreshold?: number
  /** 'MB/s', '°C' or '%'. */
  unit?: string
  /** Guest filesystem alerts. */
  mountpoint?: string
  device?: string
  /** Physical disk alerts. */
  diskPath?: string
  diskModel?: string
}

/** Issue 28: a note on one occurrence of an alert (it stays with the occurrence in History). */
export interface AlertNote {
  /** The signed-in user or the token's name, never a body field. */
  author: string
  /** ISO 8601. */
  at: string
  text: string
}

/** At most this many notes per occurrence, each of 1 to ALERT_NOTE_MAX characters. */
export const ALERT_NOTES_MAX = 100
export const ALERT_NOTE_MAX = 2000

/**
 * An active alert as the API and the socket carry it. A `type` alias (not an interface) so that it
 * is assignable to the live state's `Entity`.
 */
export type Alert = {
  /** A pure function of resource identity and condition (wire-protocol.md §5.2). */
  id: string
  type: AlertType
  level: AlertLevel
  resourceId: string
  resourceName: string
  node: string
  instance: string
  message: string
  /** The latest value (metric alerts); 0 for state alerts. */
  value: number
  threshold: number
  /** The highest value seen while active. */
  peak: number
  /** ISO 8601. When the condition began (the first exceedance, before any delay). */
  startTime: string
  /** ISO 8601. The last poll that confirmed the condition. */
  lastSeen: string
  acknowledged: boolean
  ackTime?: string
  ackUser?: string
  /** Ours: the source stopped answering; the alert is held as it was, not resolved. */
  stale?: boolean
  /** Ours: the alert changed state too often; held active as one alert until it settles. */
  flapping?: boolean
  /** Ours (issue 28): an active silence covers it: shown, but no notification goes out. */
  silenced?: AlertSilenced
  /** Ours (issue 28): notes on this occurrence, oldest first; absent when none. */
  notes?: AlertNote[]
  metadata?: AlertMetadata
}

/** How an alert left the active list. */
export type AlertEndReason =
  /** The value fell to or below clear, or the state condition ended. */
  | 'resolved'
  /** Cleared by hand (POST /api/alerts/{id}/clear). */
  | 'cleared'
  /** The resource, metric or class was disabled, or a config save raised the threshold. */
  | 'disabled'
  /** The resource is gone from a source that answered (deleted, migrated). */
  | 'removed'
  /** A guest that stopped running: no metric alerts for it. */
  | 'stopped'

/** A recently resolved alert (socket `recentlyResolved`): the active form plus when it ended. */
export type ResolvedAlert = Alert & { resolvedTime: string; endReason: AlertEndReason }

/** Status of a history row (spec 001 §3 History alert, derived status). */
export type HistoryStatus = 'active' | 'acknowledged' | 'resolved'

/** One occurrence of an alert in the history store. */
export type HistoryAlert = Omit<Alert, 'stale' | 'flapping'> & {
  /** Row id in the history store (an alert id recurs; each occurrence is one row). */
  historyId: number
  /** ISO 8601; absent while active. */
  endTime?: string
  endReason?: AlertEndReason
  /** Milliseconds from start to end (or to now while active). */
  duration: number
  status: HistoryStatus
  /** VM, CT, Node, Storage or Unknown (spec 001 §3). */
  resourceType: 'VM' | 'CT' | 'Node' | 'Storage' | 'PBS' | 'Unknown'
}

/** GET /api/alerts/history query. Times are epoch ms or ISO 8601; all optional. */
export interface AlertHistoryQuery {
  /** Default 100, at most 10,000 (the history screen asks for 1,000). */
  limit?: number
  offset?: number
  /** Occurrences that started at or after / before these times. */
  since?: number
  until?: number
  severity?: AlertLevel
  /** Text in the message, resource name, node, type or id (case-insensitive). */
  q?: string
  resourceId?: string
}

/** GET /api/alerts/history/summary: counts for the overview counter and the frequency chart. */
export interface AlertHistorySummary {
  total: number
  /** Occurrences started in the last 24 hours (unfiltered). */
  last24h: number
  buckets: { start: number; end: number; count: number; critical: number; warning: number }[]
}

/** A trigger/clear pair. trigger <= 0 disables the metric; resolves only at or below clear. */
export interface ThresholdPair {
  trigger: number
  clear: number
}

/** Per-resource override (spec 001 §3 Threshold override row; raw config per resource id). */
export interface ThresholdOverride {
  disabled?: boolean
  disableConnectivity?: boolean
  poweredOffSeverity?: AlertLevel
  cpu?: ThresholdPair
  memory?: ThresholdPair
  disk?: ThresholdPair
  diskRead?: ThresholdPair
  diskWrite?: ThresholdPair
  networkIn?: ThresholdPair
  networkOut?: ThresholdPair
  usage?: ThresholdPair
  temperature?: ThresholdPair
  /** Issue 26: backup alerting of this guest (or, for a PBS id, its job alerts via `enabled`). */
  backup?: BackupAlertOverride
}

export interface AlertRuleFilter {
  type: 'metric' | 'text'
  field: string
  operator?: string
  value: string | number
  /** The filter in our search language (e.g. `tags:db`, `cpu>50`); this is what is matched. */
  rawText: string
}

/** A custom rule (spec 001 §3 Alert rule): thresholds for the guests its filters match. */
export interface AlertRule {
  id: string
  name: string
  description: string
  enabled: boolean
  /** Higher first (spec 001 §4 Rules precedence). */
  priority: number
  filterConditions: { logicalOperator: 'AND' | 'OR'; filters: AlertRuleFilter[] }
  thresholds: Partial<Record<GuestMetric, ThresholdPair>>
  /** Issue 26: backup alerting of the guests the rule matches. */
  backup?: BackupAlertOverride
  notifications: { email?: { enabled: boolean }; webhook?: { enabled: boolean } }
  createdAt?: string
  updatedAt?: string
}

export const WEEKDAYS = [
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
] as const
export type Weekday = (typeof WEEKDAYS)[number]

/** Notification schedule (spec 001 §3 Alert config schedule). Delivered by the notifications issue. */
export interface AlertSchedule {
  quietHours: {
    enabled: boolean
    /** 'HH:MM'. */
    start: string
    end: string
    /** IANA time zone. */
    timezone: string
    days: Record<Weekday, boolean>
    /**
     * Quiet hours always hold warnings and send critical alerts; a set flag holds the critical
     * alerts of its category too (the reference's meaning; notify/quiet-hours.ts).
     */
    suppress: { performance: boolean; storage: boolean; offline: boolean }
  }
  /** Minutes between repeats of one occurrence of an alert (never a new one); 0 = off. */
  cooldown: number
  /** Seconds. */
  groupingWindow: number
  maxAlertsHour: number
  escalation: { enabled: boolean; levels: { after: number; notify: 'email' | 'webhook' | 'all' }[] }
  grouping: { enabled: boolean; window: number; byNode: boolean; byGuest: boolean }
  /**
   * Storm control: when more than `threshold` alerts fire within one grouping window (per
   * destination and group), one summary message replaces the individual ones.
   */
  storm: { enabled: boolean; threshold: number }
}

/** The saved alert configuration (spec 001 §3 Alert config; GET/PUT /api/alerts/config). */
export interface AlertConfig {
  enabled: boolean
  guestDefaults: { poweredOffSeverity: AlertLevel } & Record<GuestMetric, ThresholdPair>
  /** Nodes; PBS servers use its cpu and memory unless overridden (as the reference does). */
  nodeDefaults: { poweredOffSeverity: AlertLevel } & Record<NodeMetric, ThresholdPair>
  storageDefault: ThresholdPair
  /** Points: a re-fire within suppressionWindow needs to differ by this much (see the engine). */
  minimumDelta: number
  /** Minutes. */
  suppressionWindow: number
  /** Points: the clear level of a pair saved without one is trigger minus this. */
  hysteresisMargin: number
  /** Seconds; the fallback delay when a class has none. */
  timeThreshold: number
  /** Seconds each class's condition must hold before the alert fires; 0 fires at once. */
  timeThresholds: Record<ResourceClass, number>
  /** Seconds per class and metric (or 'default'), overriding timeThresholds. */
  metricTimeThresholds: Partial<Record<ResourceClass, Record<string, number>>>
  /** Keyed by resource id (guest, node, storage id; `pbs-<name>` for PBS). */
  overrides: Record<string, ThresholdOverride>
  customRules: AlertRule[]
  schedule: AlertSchedule
  aggregation: { enabled: boolean; window: number; count: number; similarity: number }
  flapping: {
    enabled: boolean
    /** State changes allowed within `window` minutes before the alert counts as flapping. */
    threshold: number
    window: number
    /** Minutes an alert is held as flapping. */
    suppression: number
    minStability: number
  }
  ioNormalization: {
    enabled: boolean
    vmDiskMax: number
    containerDiskMax: number
    networkMax: number
  }
  disableAllNodes: boolean
  disableAllGuests: boolean
  disableAllStorage: boolean
  disableAllPBS: boolean
  disableAllNodesOffline: boolean
  disableAllGuestsOffline: boolean
  disableAllPBSOffline: boolean
  /** Issue 26: backup alert defaults. */
  backups: BackupAlertConfig
  /** Ours: history retention in days and a row cap (oldest rows go first). */
  history: { retentionDays: number; maxRows: number }
}

/** Bulk routes' answer (wire-protocol.md §3.6). */
export interface BulkAlertResult {
  results: { alertId: string; success: boolean; error?: string }[]
}

/** Socket `alert` message data: the alert that fired or escalated. */
export type AlertMessageData = Alert
/** Socket `alertResolved` message data. */
export interface AlertResolvedMessageData {
  alertId: string
  resolvedTime: string
}
