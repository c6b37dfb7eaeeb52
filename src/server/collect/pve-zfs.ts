// Maps /nodes/{n}/disks/zfs and /nodes/{n}/disks/zfs/{pool} to ZfsPool (reference/proxmox-api.md
// §2.12) and attaches pools to zfspool storage entries. Pure.
//
// The detail is PVE's parse of `zpool status -P`: a tree whose first child is the pool's own row,
// followed by section rows (logs, cache, spares, special) that carry no state.
import type { Storage, ZfsDevice, ZfsPool } from '../../shared/model/state.ts'
import { isRecord, toOptionalNumber, toOptionalString } from './coerce.ts'

const COUNT_SUFFIX: Record<string, number> = { K: 1e3, M: 1e6, G: 1e9, T: 1e12 }

/** A zpool error count: a number, or zpool's abbreviated text ("1.2K") that PVE passes through. */
export function toZfsCount(value: unknown): number {
  const direct = toOptionalNumber(value)
  if (direct !== undefined) return Math.max(0, direct)
  if (typeof value !== 'string') return 0
  const match = /^\s*([\d.]+)\s*([KMGT])\s*$/i.exec(value)
  if (!match) return 0
  const base = Number(match[1])
  const scale = COUNT_SUFFIX[match[2]!.toUpperCase()] ?? 1
  return Number.isFinite(base) ? Math.round(base * scale) : 0
}

/** The pool names of /nodes/{n}/disks/zfs, with the health it reports for each. */
export function readZfsPoolList(raw: unknown): Map<string, string> {
  const pools = new Map<string, string>()
  if (!Array.isArray(raw)) return pools
  for (const entry of raw) {
    if (!isRecord(entry)) continue
    const name = toOptionalString(entry.name)
    if (name) pools.set(name, toOptionalString(entry.health) ?? 'UNKNOWN')
  }
  return pools
}

interface ZfsTotals {
  read: number
  write: number
  cksum: number
}

/** Maps a pool detail; `listHealth` (from the pool list) is used when the detail has no state. */
export function toZfsPool(detail: unknown, name: string, listHealth?: string): ZfsPool {
  const root = isRecord(detail) ? detail : {}
  const devices: ZfsDevice[] = []
  const totals: ZfsTotals = { read: 0, write: 0, cksum: 0 }
  const children = Array.isArray(root.children) ? root.children : []
  children.forEach((child, index) => {
    // The first child is the pool's own row: counted, but not listed as a device.
    const isPoolRow = index === 0 && isRecord(child) && child.name === (root.name ?? name)
    walkVdev(child, !isPoolRow, devices, totals)
  })
  const status = toOptionalString(root.status)
  const scan = toOptionalString(root.scan)
  const errorsText = toOptionalString(root.errors)
  return {
    name: toOptionalString(root.name) ?? name,
    state: toOptionalString(root.state) ?? listHealth ?? 'UNKNOWN',
    ...(status ? { status } : {}),
    ...(scan ? { scan } : {}),
    ...(errorsText ? { errorsText } : {}),
    readErrors: totals.read,
    writeErrors: totals.write,
    checksumErrors: totals.cksum,
    devices,
  }
}

// Depth-first, parents before children, so a mirror is followed by its disks. Rows without a
// state are section headers (logs, cache, spares): descended into, not listed.
function walkVdev(node: unknown, list: boolean, out: ZfsDevice[], totals: ZfsTotals): void {
  if (!isRecord(node)) return
  const state = toOptionalString(node.state)
  const read = toZfsCount(node.read)
  const write = toZfsCount(node.write)
  const cksum = toZfsCount(node.cksum)
  totals.read += read
  totals.write += write
  totals.cksum += cksum
  const name = toOptionalString(node.name)
  if (list && state && name) {
    const message = toOptionalString(node.msg)?.trim()
    out.push({
      name,
      state,
      readErrors: read,
      writeErrors: write,
      checksumErrors: cksum,
      errors: read + write + cksum,
      ...(message ? { message } : {}),
    })
  }
  if (Array.isArray(node.children)) {
    for (const child of node.children) walkVdev(child, true, out, totals)
  }
}

/** A minimal pool from the list alone, when the detail call failed and nothing better is known. */
export function toZfsPoolFromList(name: string, health: string): ZfsPool {
  return { name, state: health, readErrors: 0, writeErrors: 0, checksumErrors: 0, devices: [] }
}

/** The ZFS pool a zfspool storage sits on: from the storage config, else its own name. */
export function zfsPoolNameOf(storage: Storage, configured: ReadonlyMap<string, string>): string {
  return configured.get(storage.name) ?? storage.name
}

/**
 * Returns the storage list with each zfspool entry carrying its node's matching pool. Entries
 * are copied only when the attached pool changes, so unchanged entries keep their identity.
 */
export function attachZfsPools(
  storage: readonly Storage[],
  poolsByNode: ReadonlyMap<string, readonly ZfsPool[]>,
  configured: ReadonlyMap<string, string>,
): Storage[] {
  return storage.map((s) => {
    if (s.type !== 'zfspool') return s
    const poolName = zfsPoolNameOf(s, configured)
    const pool = poolsByNode.get(s.node)?.find((p) => p.name === poolName)
    if (pool === s.zfsPool) return s
    if (!pool) {
      const { zfsPool: _dropped, ...rest } = s
      return rest
    }
    return { ...s, zfsPool: pool }
  })
}
