// Display rules of the backups tab (spec 000 §9): age and size colours, bar colours, text
// truncation, the average deduplication factor and the row formatting. Pure.
import { formatBytes } from '../format/bytes.ts'
import type { Colour } from '../format/thresholds.ts'
import type { PbsInstance } from '../model/state.ts'
import type { BackupClass, BackupRecord, BackupRow, BackupScope } from './backups-types.ts'

const DAY = 86_400
const GIB = 1024 ** 3

/** Backup age colour: under 3 days green, under 7 yellow, under 30 orange, else red. */
export function getBackupAgeColour(ageSeconds: number): Colour {
  const days = ageSeconds / DAY
  if (days < 3) return 'green'
  if (days < 7) return 'yellow'
  if (days < 30) return 'orange'
  return 'red'
}

/** 'just now', '5m ago', '3h ago', '4d ago', '2mo ago', '1y ago'; future times read 'just now'. */
export function formatBackupAge(epochSeconds: number, nowMs: number): string {
  const age = Math.max(0, nowMs / 1000 - epochSeconds)
  if (age < 60) return 'just now'
  if (age < 3600) return `${Math.floor(age / 60)}m ago`
  if (age < 86_400) return `${Math.floor(age / 3600)}h ago`
  if (age < 30 * 86_400) return `${Math.floor(age / 86_400)}d ago`
  if (age < 365 * 86_400) return `${Math.floor(age / (30 * 86_400))}mo ago`
  return `${Math.floor(age / (365 * 86_400))}y ago`
}

/** Backup size colour: under 5 GB green, under 20 yellow, under 50 orange, else red; 0 grey. */
export function getBackupSizeColour(bytes: number): Colour {
  if (!(bytes > 0)) return 'grey'
  const gib = bytes / GIB
  if (gib < 5) return 'green'
  if (gib < 20) return 'yellow'
  if (gib < 50) return 'orange'
  return 'red'
}

/** Chart bar colours by daily count (spec 000 §9): 1-5 blue, 6-10 green, above 10 violet. */
export type BarColour = 'blue' | 'green' | 'violet' | 'none'

/** Colour of a chart bar with `count` backups. */
export function getBarColour(count: number): BarColour {
  if (count <= 0) return 'none'
  if (count <= 5) return 'blue'
  if (count <= 10) return 'green'
  return 'violet'
}

/** Truncate to `max` characters: the first max-3 and '...' (spec 000 §9: 35 = 32 plus an ellipsis). */
export function truncateText(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 3)}...` : text
}

/** Details column: 35 characters (32 plus an ellipsis). */
export const DETAILS_MAX = 35
/** Local backup names: 30 characters. */
export const LOCAL_NAME_MAX = 30

/** Average PBS deduplication factor over datastores that report one, '3.2x'; null when none. */
export function formatDedupFactor(pbs: readonly PbsInstance[]): string | null {
  let sum = 0
  let count = 0
  for (const instance of pbs) {
    for (const store of instance.datastores ?? []) {
      const factor = store.deduplicationFactor
      if (typeof factor === 'number' && Number.isFinite(factor) && factor > 0) {
        sum += factor
        count++
      }
    }
  }
  return count === 0 ? null : `${(sum / count).toFixed(1)}x`
}

const CLASS_LABEL: Record<BackupClass, string> = {
  snapshot: 'Snapshot',
  local: 'PVE',
  remote: 'PBS',
}

/** Where a record lives: storage, 'datastore' or 'datastore/namespace', the node for a snapshot. */
function locationOf(record: BackupRecord): string {
  if (record.backupType === 'local') return record.storage
  if (record.backupType === 'remote') {
    return record.namespace ? `${record.datastore}/${record.namespace}` : record.datastore
  }
  return record.node
}

/** One record as a display row. `key` is unique within the normalised list. */
export function toBackupRow(record: BackupRecord, key: string): BackupRow {
  const details = record.description.replace(/\s+/g, ' ').trim()
  return {
    kind: 'backup',
    key,
    backupType: record.backupType,
    classLabel: CLASS_LABEL[record.backupType],
    vmid: record.vmid,
    type: record.type,
    name: record.name,
    node: record.node,
    owner: record.owner,
    backupTime: record.backupTime,
    size: record.size,
    sizeText: record.size > 0 ? formatBytes(record.size) : '-',
    sizeColour: getBackupSizeColour(record.size),
    backupName:
      record.backupType === 'local'
        ? truncateText(record.backupName, LOCAL_NAME_MAX)
        : record.backupName,
    backupNameFull: record.backupName,
    location: locationOf(record),
    verified: record.verified,
    protected: record.protected,
    encrypted: record.encrypted,
    details: truncateText(details, DETAILS_MAX),
    detailsFull: details,
  }
}

/** Every datastore namespace of the PBS instances ('' is the root), in instance order. */
export function listBackupScopes(pbs: readonly PbsInstance[]): BackupScope[] {
  const scopes: BackupScope[] = []
  for (const instance of pbs) {
    for (const store of instance.datastores ?? []) {
      const paths = new Set<string>([''])
      for (const ns of store.namespaces ?? []) paths.add(ns.path)
      for (const namespace of [...paths].sort()) {
        scopes.push({ instance: instance.name, datastore: store.name, namespace })
      }
    }
  }
  return scopes
}
