// Domain module for monitored nodes: validation, storage, the views the API shows, and the
// endpoints the poller monitors. The HTTP layer reaches the store only through this.
import { AppError } from '../../shared/model/errors.ts'
import type { NodeConfigView } from '../../shared/model/node-config.ts'
import type { NodesRepo, StoredNode, NewNode } from '../store/nodes-repo.ts'
import type { MonitoredEndpoint } from '../collect/poller.ts'
import { checkCredentials, normalizeHost, parseNodeInput } from './node-input.ts'

export interface NodeService {
  list(): NodeConfigView[]
  add(body: unknown): NodeConfigView
  /** Insert or refresh a node by name (the demo registers its simulator this way). */
  upsert(node: NewNode): StoredNode
  /** What the poller should monitor now. */
  endpoints(): MonitoredEndpoint[]
  /** The store changed underneath (a configuration import): hand the poller the new nodes. */
  reload(): void
}

export interface NodeServiceDeps {
  repo: NodesRepo
  now: () => number
  /** Called after any change, so the poller picks it up without a restart. */
  onChange: () => void
  status: (id: string) => NodeConfigView['status']
  cluster?: (id: string) => { isCluster: boolean; clusterName: string } | undefined
}

/** Shape a stored node for an API answer: flags instead of secrets. */
export function toNodeView(node: StoredNode, status: NodeConfigView['status']): NodeConfigView {
  const view: NodeConfigView = {
    id: node.id,
    type: node.type,
    name: node.name,
    host: node.host,
    hasPassword: Boolean(node.password),
    hasToken: Boolean(node.tokenValue),
    verifySSL: node.verifySSL,
    status,
    monitorVMs: node.monitorVMs,
    monitorContainers: node.monitorContainers,
    monitorStorage: node.monitorStorage,
    monitorBackups: node.monitorBackups,
  }
  if (node.user) view.user = node.user
  if (node.tokenName) view.tokenName = node.tokenName
  if (node.fingerprint) view.fingerprint = node.fingerprint
  return view
}

/** The poller's view of a stored node (PVE only in this slice). */
export function toEndpoint(node: StoredNode): MonitoredEndpoint | null {
  if (node.type !== 'pve') return null
  const auth =
    node.tokenName && node.tokenValue
      ? { kind: 'token' as const, tokenId: node.tokenName, secret: node.tokenValue }
      : node.user && node.password
        ? { kind: 'password' as const, username: node.user, password: node.password }
        : null
  if (!auth) return null
  const endpoint: MonitoredEndpoint = {
    id: node.id,
    name: node.name,
    type: 'pve',
    host: node.host,
    auth,
    verifySSL: node.verifySSL,
  }
  if (node.fingerprint) endpoint.fingerprint = node.fingerprint
  return endpoint
}

function nameFromHost(host: string): string {
  return new URL(host).hostname
}

/** Create the node service. */
export function createNodeService(deps: NodeServiceDeps): NodeService {
  const { repo, now, onChange } = deps
  const view = (node: StoredNode) => {
    const v = toNodeView(node, deps.status(node.id))
    const cluster = deps.cluster?.(node.id)
    if (cluster) {
      v.isCluster = cluster.isCluster
      if (cluster.clusterName) v.clusterName = cluster.clusterName
    }
    return v
  }
  return {
    list: () => repo.list().map(view),
    add(body) {
      const input = parseNodeInput(body)
      const host = normalizeHost(input.host, input.type)
      const mode = checkCredentials(input)
      const name = input.name ?? nameFromHost(host)
      if (repo.findByName(name)) throw new AppError('NODE_NAME_TAKEN', { name })
      const stored = repo.insert(
        {
          type: input.type,
          name,
          host,
          user: mode === 'password' ? (input.user ?? null) : null,
          password: mode === 'password' ? (input.password ?? null) : null,
          tokenName: mode === 'token' ? (input.tokenName ?? null) : null,
          tokenValue: mode === 'token' ? (input.tokenValue ?? null) : null,
          fingerprint: input.fingerprint ?? null,
          verifySSL: input.verifySSL,
          monitorVMs: input.monitorVMs,
          monitorContainers: input.monitorContainers,
          monitorStorage: input.monitorStorage,
          monitorBackups: input.monitorBackups,
          source: 'user',
        },
        now(),
      )
      onChange()
      return view(stored)
    },
    upsert(node) {
      const existing = repo.findByName(node.name)
      const stored = existing ? repo.update(existing.id, node, now()) : repo.insert(node, now())
      onChange()
      return stored
    },
    endpoints: () =>
      repo
        .list()
        .map(toEndpoint)
        .filter((e): e is MonitoredEndpoint => e !== null),
    reload: () => onChange(),
  }
}
