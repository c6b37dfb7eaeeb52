// STAND-IN: replaced by the engine branch. Only what the store/service tests need.
import type { AlertConfig } from '../../shared/model/alerts.ts'

const pair = (trigger: number) => ({ trigger, clear: Math.max(0, trigger - 5) })
const off = { trigger: 0, clear: 0 }

export const DEFAULT_ALERT_CONFIG: AlertConfig = {
  enabled: true,
  guestDefaults: {
    poweredOffSeverity: 'warning',
    cpu: pair(80),
    memory: pair(85),
    disk: pair(90),
    diskRead: off,
    diskWrite: off,
    networkIn: off,
    networkOut: off,
  },
  nodeDefaults: {
    poweredOffSeverity: 'warning',
    cpu: pair(80),
    memory: pair(85),
    disk: pair(90),
    temperature: pair(80),
  },
  storageDefault: pair(85),
  minimumDelta: 2,
  suppressionWindow: 5,
  hysteresisMargin: 5,
  timeThreshold: 10,
  timeThresholds: { guest: 10, node: 15, storage: 30, pbs: 30 },
  metricTimeThresholds: {},
  overrides: {},
  customRules: [],
  schedule: {
    quietHours: {
      enabled: false,
      start: '22:00',
      end: '08:00',
      timezone: 'UTC',
      days: {
        monday: true,
        tuesday: true,
        wednesday: true,
        thursday: true,
        friday: true,
        saturday: false,
        sunday: false,
      },
      suppress: { performance: false, storage: false, offline: false },
    },
    cooldown: 30,
    groupingWindow: 300,
    maxAlertsHour: 3,
    escalation: { enabled: false, levels: [] },
    grouping: { enabled: true, window: 300, byNode: true, byGuest: false },
  },
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
  history: { retentionDays: 90, maxRows: 1_000_000 },
}
