// The alert configuration a fresh install starts with (spec 001 §9; reference/wire-protocol.md
// §3.6.1). Pure data. `aggregation` and `ioNormalization` are stored only: the engine does not read
// them (the notifications issue may use aggregation).
import type { AlertConfig, ThresholdPair } from '../../shared/model/alerts.ts'
import { DEFAULT_BACKUP_ALERTS } from '../../shared/views/alert-threshold-backups.ts'
import { defaultSchedule } from '../../shared/views/schedule-rules.ts'

const pair = (trigger: number, clear: number): ThresholdPair => ({ trigger, clear })

/** Defaults of every field. Treat as read-only; `createDefaultAlertConfig()` gives a fresh copy. */
export const DEFAULT_ALERT_CONFIG: AlertConfig = {
  enabled: true,
  guestDefaults: {
    poweredOffSeverity: 'warning',
    cpu: pair(80, 75),
    memory: pair(85, 80),
    disk: pair(90, 85),
    // Guest I/O is off on load (spec 001 §9); the Thresholds card's reset gives RESET_GUEST_IO.
    diskRead: pair(0, 0),
    diskWrite: pair(0, 0),
    networkIn: pair(0, 0),
    networkOut: pair(0, 0),
  },
  nodeDefaults: {
    poweredOffSeverity: 'warning',
    cpu: pair(80, 75),
    memory: pair(85, 80),
    disk: pair(90, 85),
    temperature: pair(80, 75),
  },
  storageDefault: pair(85, 80),
  minimumDelta: 2,
  suppressionWindow: 5,
  hysteresisMargin: 5,
  timeThreshold: 10,
  timeThresholds: { guest: 10, node: 15, storage: 30, pbs: 30 },
  metricTimeThresholds: {},
  overrides: {},
  customRules: [],
  // One definition with the Schedule tab's Reset defaults (issue 24 item 39).
  schedule: defaultSchedule('UTC'),
  aggregation: { enabled: false, window: 10, count: 3, similarity: 5 },
  flapping: { enabled: true, threshold: 5, window: 10, suppression: 30, minStability: 0.8 },
  ioNormalization: { enabled: false, vmDiskMax: 500, containerDiskMax: 300, networkMax: 1000 },
  disableAllNodes: false,
  disableAllGuests: false,
  disableAllStorage: false,
  disableAllPBS: false,
  disableAllNodesOffline: false,
  disableAllGuestsOffline: false,
  disableAllPBSOffline: false,
  // Issue 26: one definition with the Thresholds tab's Backups card reset.
  backups: { ...DEFAULT_BACKUP_ALERTS },
  history: { retentionDays: 90, maxRows: 1_000_000 },
}

/**
 * What the Thresholds card's reset-to-defaults puts in the guest I/O columns. Spec 001 §9 reads
 * "150 and 200 for the IO and related values": the reference's old I/O defaults were 150 MB/s for
 * disk read/write and 200 MB/s for network in/out, so those are the pairs (clear = trigger - 5).
 */
export const RESET_GUEST_IO: Pick<
  AlertConfig['guestDefaults'],
  'diskRead' | 'diskWrite' | 'networkIn' | 'networkOut'
> = {
  diskRead: pair(150, 145),
  diskWrite: pair(150, 145),
  networkIn: pair(200, 195),
  networkOut: pair(200, 195),
}

/** A deep copy of the defaults, safe to mutate. */
export function createDefaultAlertConfig(): AlertConfig {
  return structuredClone(DEFAULT_ALERT_CONFIG)
}
