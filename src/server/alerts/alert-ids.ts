// Alert ids and messages (reference/wire-protocol.md §5.1-5.2). An id is a pure function of the
// resource's identity and the condition, never of values or time, so a config save, a restart or a
// re-evaluation finds the same alert again.
import type { AlertMetric, AlertResourceType } from '../../shared/model/alerts.ts'
import type { GuestDisk } from '../../shared/model/state.ts'

export const metricAlertId = (resourceId: string, metric: AlertMetric): string =>
  `${resourceId}-${metric}`

/** `'/'` is `root`; anything but letters, digits, `_` and `.` becomes `-`, trimmed of `-`. */
export function sanitizeKey(text: string): string {
  if (text === '/') return 'root'
  return text.replace(/[^A-Za-z0-9_.]+/g, '-').replace(/^-+|-+$/g, '')
}

/** The key of a guest filesystem: its mountpoint, then its device when known. */
export function filesystemKey(disk: GuestDisk, index: number): string {
  const parts: string[] = []
  if (disk.mountpoint) parts.push(sanitizeKey(disk.mountpoint))
  if (disk.device) parts.push(sanitizeKey(disk.device))
  const key = parts.filter(Boolean).join('-')
  return key || `disk${index}`
}

export const filesystemAlertId = (guestId: string, key: string): string =>
  `${guestId}-disk-${key}-disk`
export const nodeOfflineId = (nodeId: string): string => `node-offline-${nodeId}`
export const pbsOfflineId = (pbsId: string): string => `pbs-offline-${pbsId}`
export const storageOfflineId = (storageId: string): string => `storage-offline-${storageId}`
export const poweredOffId = (guestId: string): string => `guest-powered-off-${guestId}`
export const diskHealthId = (instance: string, node: string, devPath: string): string =>
  `disk-health-${instance}-${node}-${devPath}`
export const diskWearoutId = (instance: string, node: string, devPath: string): string =>
  `disk-wearout-${instance}-${node}-${devPath}`
export const zfsStateId = (storageId: string): string => `zfs-pool-state-${storageId}`
export const zfsErrorsId = (storageId: string): string => `zfs-pool-errors-${storageId}`
export const zfsDeviceId = (storageId: string, device: string): string =>
  `zfs-device-${storageId}-${device}`

/** The unit of a metric alert's value. */
export function metricUnit(metric: AlertMetric): string {
  if (metric === 'temperature') return '°C'
  if (metric === 'diskRead' || metric === 'diskWrite') return 'MB/s'
  if (metric === 'networkIn' || metric === 'networkOut') return 'MB/s'
  return '%'
}

const LABELS: Record<AlertResourceType, string> = {
  VM: 'VM',
  Container: 'Container',
  Node: 'Node',
  PBS: 'PBS',
  Storage: 'Storage',
  Disk: 'Disk',
}

/** `VM cpu at 91.3%`, `Storage at 88.0%`, `VM disk (/var) at 93.1%`, `Node temperature at 82.0°C`. */
export function metricMessage(
  type: AlertResourceType,
  metric: AlertMetric,
  value: number,
  mountpoint?: string,
): string {
  const unit = metricUnit(metric)
  const amount = `${value.toFixed(1)}${unit === 'MB/s' ? ' MB/s' : unit}`
  if (type === 'Storage') return `Storage at ${amount}`
  const what = mountpoint ? `${metric} (${mountpoint})` : metric
  return `${LABELS[type]} ${what} at ${amount}`
}

// Issue 26: backup alert ids. Guest kinds are keyed by the guest id, PBS job kinds by the job id
// (`${pbsId}-${kind}-${jobId}`), the orphan summary by the instance (or PBS id) holding the backups.
export const backupAgeId = (guestId: string): string => `backup-age-${guestId}`
export const backupUncoveredId = (guestId: string): string => `backup-uncovered-${guestId}`
export const backupFailedId = (guestId: string): string => `backup-failed-${guestId}`
export const backupVerifyFailedId = (guestId: string): string => `backup-verify-failed-${guestId}`
export const pbsJobFailedId = (jobId: string): string => `pbs-job-failed-${jobId}`
export const pbsJobOverdueId = (jobId: string): string => `pbs-job-overdue-${jobId}`
export const backupOrphanedId = (instance: string): string => `backup-orphaned-${instance}`

/** `VM 'web01' (101)`: how a backup alert names its guest. */
export function backupGuestLabel(type: 'VM' | 'Container', name: string, vmid: number): string {
  return `${type} '${name}' (${vmid})`
}

/** `VM 'web01' (101): last backup 9.2 days ago`, or `... has never been backed up`. */
export function backupAgeMessage(label: string, ageDays: number | null): string {
  if (ageDays === null) return `${label} has never been backed up`
  return `${label}: last backup ${ageDays.toFixed(1)} days ago`
}
