// Maps GET /cluster/status (reference/proxmox-api.md §2.2). Pure.
import { isRecord, toBool, toOptionalString } from './coerce.ts'

/** One node as /cluster/status lists it. */
export interface ClusterMember {
  name: string
  ip?: string
  online: boolean
}

/** Cluster identity and membership of one PVE endpoint. */
export interface ClusterInfo {
  /** '' for a standalone host. */
  clusterName: string
  isCluster: boolean
  members: ClusterMember[]
}

/** Reads /cluster/status; a standalone host has a single node entry (nodeid 0) and no cluster entry. */
export function toClusterInfo(raw: unknown): ClusterInfo {
  const entries = Array.isArray(raw) ? raw : []
  let clusterName = ''
  let isCluster = false
  const members: ClusterMember[] = []
  for (const entry of entries) {
    if (!isRecord(entry)) continue
    if (entry.type === 'cluster') {
      // Membership is decided by the cluster entry alone: nodeid 0 alone is not reliable.
      isCluster = true
      clusterName = toOptionalString(entry.name) ?? ''
    } else if (entry.type === 'node') {
      const name = toOptionalString(entry.name)
      if (!name) continue
      const ip = toOptionalString(entry.ip)
      members.push({ name, ...(ip ? { ip } : {}), online: toBool(entry.online) })
    }
  }
  return { clusterName, isCluster, members }
}

/** What we assume before /cluster/status was ever read (or when the token may not read it). */
export const STANDALONE_CLUSTER: ClusterInfo = { clusterName: '', isCluster: false, members: [] }
