// Maps /nodes/{n}/storage entries and /cluster/resources storage entries to Storage
// (reference/proxmox-api.md §2.3 and §2.8, wire-protocol.md §2.4). Pure.
import type { Storage } from '../../shared/model/state.ts'
import {
  isRecord,
  toBool,
  toNumber,
  toOptionalNumber,
  toOptionalString,
  toPercent,
} from './coerce.ts'

/** Where a storage entry was read. */
export interface StorageContext {
  instance: string
  node: string
}

/** Storage id per wire-protocol §0.3: `<instance>-<node>-<storage>`. */
export function toStorageId(instance: string, node: string, name: string): string {
  return `${instance}-${node}-${name}`
}

/** A content list ("rootdir,images" or an array) as a sorted, de-duplicated comma list. */
export function normalizeContent(value: unknown): string {
  const parts = Array.isArray(value) ? value.map(String) : String(value ?? '').split(',')
  const set = new Set(parts.map((p) => p.trim()).filter((p) => p !== ''))
  return [...set].sort().join(',')
}

/** Disabled beats inactive: a disabled storage is never activated, so it is never "inactive". */
export function toStorageStatus(enabled: boolean, active: boolean): string {
  if (!enabled) return 'disabled'
  return active ? 'available' : 'inactive'
}

/** Maps one /nodes/{n}/storage entry; undefined when it has no storage name. */
export function toStorage(entry: unknown, ctx: StorageContext): Storage | undefined {
  if (!isRecord(entry)) return undefined
  const name = toOptionalString(entry.storage)
  if (!name) return undefined
  // `enabled` and `active` are always sent by PVE 6-9; a missing key is read as the common case.
  const enabled = entry.enabled === undefined ? true : toBool(entry.enabled)
  const active = entry.active === undefined ? false : toBool(entry.active)
  const total = toNumber(entry.total)
  const used = toNumber(entry.used)
  const free = toOptionalNumber(entry.avail) ?? Math.max(0, total - used)
  return {
    id: toStorageId(ctx.instance, ctx.node, name),
    name,
    node: ctx.node,
    instance: ctx.instance,
    type: toOptionalString(entry.type) ?? 'unknown',
    content: normalizeContent(entry.content),
    status: toStorageStatus(enabled, active),
    shared: toBool(entry.shared),
    enabled,
    active,
    total,
    used,
    free,
    usage: toPercent(used, total),
  }
}

/** Maps a /nodes/{n}/storage answer, sorted by storage name. */
export function toStorageList(raw: unknown, ctx: StorageContext): Storage[] {
  return (Array.isArray(raw) ? raw : [])
    .map((e) => toStorage(e, ctx))
    .filter((s): s is Storage => s !== undefined)
    .sort((a, b) => a.name.localeCompare(b.name))
}

/** True for a /cluster/resources storage entry. */
export function isResourceStorage(entry: unknown): entry is Record<string, unknown> {
  return isRecord(entry) && entry.type === 'storage'
}

/**
 * Maps a /cluster/resources storage entry (the fallback when /nodes/{n}/storage fails). It has no
 * `enabled`/`active`: status "available" means active; "unknown" comes without disk/maxdisk.
 * PVE 6.2 omits `plugintype` and `content`; `last` (the node's last good entry) fills them.
 */
export function toStorageFromResource(
  entry: Record<string, unknown>,
  instance: string,
  last?: Storage,
): Storage | undefined {
  const name = toOptionalString(entry.storage)
  const node = toOptionalString(entry.node)
  if (!name || !node) return undefined
  const available = entry.status === 'available'
  const known = toOptionalNumber(entry.maxdisk) !== undefined
  const total = known ? toNumber(entry.maxdisk) : (last?.total ?? 0)
  const used = known ? toNumber(entry.disk) : (last?.used ?? 0)
  const free = known ? Math.max(0, total - used) : (last?.free ?? 0)
  const content =
    entry.content === undefined ? (last?.content ?? '') : normalizeContent(entry.content)
  return {
    id: toStorageId(instance, node, name),
    name,
    node,
    instance,
    type: toOptionalString(entry.plugintype) ?? last?.type ?? 'unknown',
    content,
    status: available ? 'available' : 'unknown',
    shared: entry.shared === undefined ? (last?.shared ?? false) : toBool(entry.shared),
    enabled: last?.enabled ?? true,
    active: available,
    total,
    used,
    free,
    usage: toPercent(used, total),
  }
}

/**
 * A node's storage from this cycle's /cluster/resources (fresh every cycle, unlike the node's
 * own answer when it failed), each entry completed by the node's last good one of that name.
 */
export function storageFromResources(
  resources: readonly unknown[],
  instance: string,
  node: string,
  last?: readonly Storage[],
): Storage[] {
  const out: Storage[] = []
  for (const entry of resources) {
    if (!isResourceStorage(entry) || entry.node !== node) continue
    const previous = last?.find((s) => s.name === entry.storage)
    const storage = toStorageFromResource(entry, instance, previous)
    if (storage) out.push(storage)
  }
  return out.sort((a, b) => a.name.localeCompare(b.name))
}

/** A node's last known storage, re-marked as unknown because the node is offline. */
export function markStorageUnknown(list: readonly Storage[]): Storage[] {
  return list.map((s) => (s.status === 'unknown' ? s : { ...s, status: 'unknown', active: false }))
}

/** True when a storage's content list includes backups. */
export function hasBackupContent(storage: Storage): boolean {
  return storage.content.split(',').includes('backup')
}

/**
 * Reads /storage (the datacenter config): storage name -> ZFS pool name for zfspool storages.
 * `pool` may be a dataset ("rpool/data"); the pool is the part before the first '/'.
 */
export function readZfsPoolNames(config: unknown): Map<string, string> {
  const pools = new Map<string, string>()
  if (!Array.isArray(config)) return pools
  for (const entry of config) {
    if (!isRecord(entry) || entry.type !== 'zfspool') continue
    const name = toOptionalString(entry.storage)
    const pool = toOptionalString(entry.pool)?.split('/')[0]
    if (name && pool) pools.set(name, pool)
  }
  return pools
}
