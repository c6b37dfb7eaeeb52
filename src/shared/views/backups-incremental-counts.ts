// The running counts and column buffers of the incremental backup normaliser
// (backups-incremental.ts): records per place (PVE node, PBS instance) and per class and day.
import type { BackupClassCounts, BackupNodeCounts } from './backups-normalize.ts'
import type { BackupClass, BackupRecord } from './backups-types.ts'

/** Count a record at its place: PVE instance and node, or its PBS instance. */
export function countPlace(counts: BackupNodeCounts, record: BackupRecord, by: number): void {
  if (record.backupType === 'remote') {
    const count = (counts.pbs.get(record.instance) ?? 0) + by
    if (count > 0) counts.pbs.set(record.instance, count)
    else counts.pbs.delete(record.instance)
    return
  }
  let byNode = counts.pve.get(record.instance)
  if (!byNode) counts.pve.set(record.instance, (byNode = new Map()))
  const count = (byNode.get(record.node) ?? 0) + by
  if (count > 0) byNode.set(record.node, count)
  else byNode.delete(record.node)
  if (byNode.size === 0) counts.pve.delete(record.instance)
}

const CLASS_SLOT: Readonly<Record<BackupClass, number>> = { snapshot: 0, local: 1, remote: 2 }

export function createClassCounts(): BackupClassCounts {
  return { total: { snapshot: 0, local: 0, remote: 0 }, byDay: new Map() }
}

/** Count a record in its class, in all and on its local day. */
export function countClass(
  counts: BackupClassCounts,
  kind: BackupClass,
  day: number,
  by: number,
): void {
  counts.total[kind] += by
  let perDay = counts.byDay.get(day)
  if (!perDay) counts.byDay.set(day, (perDay = new Int32Array(3)))
  perDay[CLASS_SLOT[kind]] = perDay[CLASS_SLOT[kind]]! + by
  if (perDay[0] === 0 && perDay[1] === 0 && perDay[2] === 0) counts.byDay.delete(day)
}

/** Column buffers, at least as long as the records written into them. */
export interface Columns {
  records: BackupRecord[]
  classes: BackupClass[]
  nodeIds: string[]
  days: Int32Array
  times: Float64Array
  groups: Int32Array
}

export function createColumns(capacity: number): Columns {
  return {
    records: [],
    classes: [],
    nodeIds: [],
    days: new Int32Array(capacity),
    times: new Float64Array(capacity),
    groups: new Int32Array(capacity),
  }
}
