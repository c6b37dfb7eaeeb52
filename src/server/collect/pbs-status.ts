// Pure mappers for the PBS answers polled every cycle: /version, /nodes/localhost/status and
// /status/datastore-usage (reference/proxmox-api.md §3.1, §3.2, §3.6). PBS sends kebab-case keys
// and real booleans, but the mappers still parse defensively (strings for numbers, -1 sizes).
import type { PbsDatastore } from '../../shared/model/state.ts'
import {
  clampNumber,
  isRecord,
  toNumber,
  toOptionalNumber,
  toOptionalString,
  toPercent,
} from './coerce.ts'

/** What the instance shows from /nodes/localhost/status. */
export interface PbsNodeFigures {
  /** Percent 0-100. */
  cpu: number
  /** Percent 0-100. */
  memory: number
  memoryUsed: number
  memoryTotal: number
  /** Seconds. */
  uptime: number
}

/** Figures of a host we have no status for (a token without Sys.Audit gets 403 there). */
export const NO_NODE_FIGURES: PbsNodeFigures = {
  cpu: 0,
  memory: 0,
  memoryUsed: 0,
  memoryTotal: 0,
  uptime: 0,
}

/**
 * The full version text. PBS puts major.minor in `version` and the patch in `release`
 * ({version:'3.3', release:'6'} is 3.3.6), the other way round from PVE.
 */
export function toPbsVersion(data: unknown): string {
  if (!isRecord(data)) return ''
  const version = toOptionalString(data.version) ?? ''
  const release = toOptionalString(data.release)
  // Already complete ('3.3.6'), or no numeric patch level to add.
  if (version === '' || version.split('.').length >= 3) return version
  return release !== undefined && /^\d+$/.test(release) ? `${version}.${release}` : version
}

/** CPU, memory and uptime from /nodes/localhost/status. */
export function toPbsNodeFigures(data: unknown): PbsNodeFigures {
  if (!isRecord(data)) return NO_NODE_FIGURES
  const memory = isRecord(data.memory) ? data.memory : {}
  const total = toNumber(memory.total)
  const used = clampNumber(
    toOptionalNumber(memory.used) ?? total - toNumber(memory.free, total),
    0,
    total,
  )
  const cpu = clampNumber(toNumber(data.cpu), 0, 1)
  return {
    cpu: Math.round(cpu * 10_000) / 100,
    memory: toPercent(used, total),
    memoryUsed: used,
    memoryTotal: total,
    uptime: Math.max(0, toNumber(data.uptime)),
  }
}

/** Datastores from /status/datastore-usage, without namespaces (they come from another call). */
export function toPbsDatastores(data: unknown): PbsDatastore[] {
  if (!Array.isArray(data)) return []
  const out: PbsDatastore[] = []
  for (const entry of data) {
    const store = toPbsDatastore(entry)
    if (store !== undefined) out.push(store)
  }
  return out
}

/** One datastore-usage entry; undefined when it names no store. */
export function toPbsDatastore(entry: unknown): PbsDatastore | undefined {
  if (!isRecord(entry)) return undefined
  const name = toOptionalString(entry.store)
  if (name === undefined) return undefined
  // With `error` set the size fields are missing or -1: read them as 0.
  const total = toSize(entry.total)
  const used = toSize(entry.used)
  const free = toOptionalNumber(entry.avail) ?? -1
  const error = readStoreError(entry)
  const dedup = toDedupFactor(entry['gc-status'])
  return {
    name,
    total,
    used,
    free: free >= 0 ? free : Math.max(0, total - used),
    usage: toPercent(used, total),
    status: error === undefined ? 'available' : 'error',
    ...(error !== undefined ? { error } : {}),
    namespaces: [],
    ...(dedup !== undefined ? { deduplicationFactor: dedup } : {}),
  }
}

/**
 * Deduplication factor as the PBS GUI computes it: logical bytes the indexes reference over
 * bytes the chunks take on disk, from the last GC. Undefined before the first GC.
 */
export function toDedupFactor(gcStatus: unknown): number | undefined {
  if (!isRecord(gcStatus)) return undefined
  const indexBytes = toNumber(gcStatus['index-data-bytes'])
  const diskBytes = toNumber(gcStatus['disk-bytes'])
  if (indexBytes <= 0 || diskBytes <= 0) return undefined
  return Math.round((indexBytes / diskBytes) * 100) / 100
}

function toSize(value: unknown): number {
  const n = toOptionalNumber(value)
  return n !== undefined && n >= 0 ? n : 0
}

// A removable store that is not plugged in has no usage and no error text of its own.
function readStoreError(entry: Record<string, unknown>): string | undefined {
  const error = toOptionalString(entry.error)
  if (error !== undefined) return error
  return entry['mount-status'] === 'notmounted' ? 'datastore is not mounted' : undefined
}
