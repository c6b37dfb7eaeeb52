// Domain module for monitored nodes: validation, storage, the views the API shows, connection
// tests, and the endpoints the poller monitors. The HTTP layer reaches the store only through this.
import { AppError } from '../../shared/model/errors.ts'
import type {
  ClusterEndpointView,
  NodeConfigView,
  NodeStatus,
  NodeTestResult,
  PbsMonitorFlags,
} from '../../shared/model/node-config.ts'
import type { MonitoredEndpoint } from '../collect/poller.ts'
import type { PveAuth } from '../collect/pve-client.ts'
import {
  ALL_PBS_FLAGS,
  type NodesRepo,
  type NewNode,
  type StoredNode,
} from '../store/nodes-repo.ts'
import { testConnection, type ConnectionTarget } from './connection-test.ts'
import {
  formatFingerprint,
  normalizeHost,
  parseNodeInput,
  resolveCredentials,
  type NodeCredentials,
  type NodeInput,
} from './node-input.ts'

export interface NodeService {
  list(): NodeConfigView[]
  /** One node's view; NODE_NOT_FOUND when missing. */
  get(id: string): NodeConfigView
  /** Validate a payload as `add` would, without storing it; throws FIELD_INVALID. */
  validate(body: unknown): void
  /** Validate and store a new node (201 body). */
  add(body: unknown): NodeConfigView
  /** Validate and replace a stored node; blank secrets keep the stored ones. */
  update(id: string, body: unknown): NodeConfigView
  /** Delete a node; NODE_NOT_FOUND when missing. */
  remove(id: string): void
  /** Test a payload (with `id`, blank secrets come from that stored node). Stores nothing. */
  testPayload(body: unknown): Promise<NodeTestResult>
  /** Test a stored node as it is. */
  testStored(id: string): Promise<NodeTestResult>
  /** Insert or refresh a node by name (the demo registers its simulator this way). */
  upsert(node: NewNode): StoredNode
  /**
   * Several at once, the poller told once: a collector taking over registers its simulator
   * without a poll in between that would still see the previous collector's endpoints.
   */
  upsertAll(nodes: readonly NewNode[]): StoredNode[]
  /** What the poller should monitor now. */
  endpoints(): MonitoredEndpoint[]
  /** The store changed underneath (a configuration import): hand the poller the new nodes. */
  reload(): void
}

/** What the poller knows about a node's cluster (auto-detected; PVE only). */
export interface NodeClusterInfo {
  isCluster: boolean
  clusterName?: string
  clusterEndpoints?: ClusterEndpointView[]
}

export interface NodeServiceDeps {
  repo: NodesRepo
  now: () => number
  /** Called after any change, so the poller picks it up without a restart. */
  onChange: () => void
  /** Socket announcement (nodes_changed, node_deleted); absent in tests that do not care. */
  broadcast?: (type: string, data?: unknown) => void
  status: (id: string) => NodeStatus
  /** Last connection error text of a node, shown while its status is 'error'. */
  lastError?: (id: string) => string | undefined
  clusterInfo?: (id: string) => NodeClusterInfo | undefined
  temperature?: (id: string) => { available: boolean } | undefined
  /** Per-request timeout of connection tests (default 10 s). */
  testTimeoutMs?: number
}

/** Shape a stored node for an API answer: flags instead of secrets. */
export function toNodeView(
  node: StoredNode,
  status: NodeStatus,
  pbsFlags: PbsMonitorFlags = ALL_PBS_FLAGS,
): NodeConfigView {
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
    ...pbsFlags,
  }
  if (node.user) view.user = node.user
  if (node.tokenName) view.tokenName = node.tokenName
  if (node.fingerprint) view.fingerprint = node.fingerprint
  return view
}

/** Credentials of a stored node as the client takes them, or null when incomplete. */
function toAuth(node: NodeCredentials): PveAuth | null {
  if (node.tokenName && node.tokenValue) {
    return { kind: 'token', tokenId: node.tokenName, secret: node.tokenValue }
  }
  if (node.user && node.password) {
    return { kind: 'password', username: node.user, password: node.password }
  }
  return null
}

/** The poller's view of a stored node (PVE and PBS); a PBS carries its job monitor flags. */
export function toEndpoint(
  node: StoredNode,
  pbsFlags: PbsMonitorFlags = ALL_PBS_FLAGS,
): MonitoredEndpoint | null {
  const auth = toAuth(node)
  if (!auth) return null
  const endpoint: MonitoredEndpoint = {
    id: node.id,
    name: node.name,
    type: node.type,
    host: node.host,
    auth,
    verifySSL: node.verifySSL,
  }
  if (node.fingerprint) endpoint.fingerprint = node.fingerprint
  if (node.type === 'pbs') {
    endpoint.pbsJobs = {
      sync: pbsFlags.monitorSyncJobs,
      verify: pbsFlags.monitorVerifyJobs,
      prune: pbsFlags.monitorPruneJobs,
      gc: pbsFlags.monitorGarbageJobs,
    }
  }
  return endpoint
}

function nameFromHost(host: string): string {
  return new URL(host).hostname.replace(/^\[|\]$/g, '')
}

/** The stored form of a validated payload. */
function toNewNode(input: NodeInput, host: string, creds: NodeCredentials, source: string) {
  const node: NewNode = {
    type: input.type,
    name: input.name ?? nameFromHost(host),
    host,
    ...creds,
    fingerprint: input.fingerprint ? formatFingerprint(input.fingerprint) : null,
    verifySSL: input.verifySSL,
    monitorVMs: input.monitorVMs,
    monitorContainers: input.monitorContainers,
    monitorStorage: input.monitorStorage,
    monitorBackups: input.monitorBackups,
    source,
  }
  const pbs: PbsMonitorFlags = {
    monitorDatastores: input.monitorDatastores,
    monitorSyncJobs: input.monitorSyncJobs,
    monitorVerifyJobs: input.monitorVerifyJobs,
    monitorPruneJobs: input.monitorPruneJobs,
    monitorGarbageJobs: input.monitorGarbageJobs,
  }
  return { node, pbs }
}

/** Create the node service. */
export function createNodeService(deps: NodeServiceDeps): NodeService {
  const { repo, now } = deps
  const find = (id: string): StoredNode => {
    const node = repo.get(id)
    if (!node) throw new AppError('NODE_NOT_FOUND', { id })
    return node
  }
  const view = (node: StoredNode, flags: Map<string, PbsMonitorFlags>): NodeConfigView => {
    const v = toNodeView(node, deps.status(node.id), flags.get(node.id))
    const cluster = deps.clusterInfo?.(node.id)
    if (cluster) {
      v.isCluster = cluster.isCluster
      if (cluster.clusterName) v.clusterName = cluster.clusterName
      if (cluster.clusterEndpoints) v.clusterEndpoints = cluster.clusterEndpoints
    }
    const temperature = deps.temperature?.(node.id)
    if (temperature) v.temperature = temperature
    const error = v.status === 'error' ? deps.lastError?.(node.id) : undefined
    if (error) v.error = error
    return v
  }
  const viewOf = (node: StoredNode) => view(node, repo.pbsFlags())
  const changed = () => {
    deps.onChange()
    deps.broadcast?.('nodes_changed')
  }
  const assertNameFree = (name: string, id?: string) => {
    const holder = repo.findByName(name)
    if (holder && holder.id !== id) throw new AppError('NODE_NAME_TAKEN', { name })
  }
  const runTest = (target: ConnectionTarget) =>
    testConnection(target, { timeoutMs: deps.testTimeoutMs })
  const targetOf = (node: StoredNode | NewNode): ConnectionTarget => {
    const auth = toAuth(node)
    if (!auth) {
      throw new AppError('FIELD_INVALID', {
        field: 'tokenName',
        problem: 'give an API token (Token ID and token value) or a username and password',
      })
    }
    const target: ConnectionTarget = {
      type: node.type,
      host: node.host,
      auth,
      verifySSL: node.verifySSL,
    }
    if (node.fingerprint) target.fingerprint = node.fingerprint
    return target
  }

  return {
    list() {
      const flags = repo.pbsFlags()
      return repo.list().map((node) => view(node, flags))
    },
    get: (id) => viewOf(find(id)),
    validate(body) {
      const input = parseNodeInput(body)
      normalizeHost(input.host, input.type)
      resolveCredentials(input)
    },
    add(body) {
      const input = parseNodeInput(body)
      const host = normalizeHost(input.host, input.type)
      const { node, pbs } = toNewNode(input, host, resolveCredentials(input), 'user')
      assertNameFree(node.name)
      const stored = repo.insert(node, now())
      repo.setPbsFlags(stored.id, pbs)
      changed()
      return viewOf(stored)
    },
    update(id, body) {
      const existing = find(id)
      const input = parseNodeInput(body)
      if (input.type !== existing.type) {
        throw new AppError('FIELD_INVALID', {
          field: 'type',
          problem: `cannot change from ${existing.type}; delete the node and add it again`,
        })
      }
      const host = normalizeHost(input.host, input.type)
      const creds = resolveCredentials(input, existing)
      const { node, pbs } = toNewNode(input, host, creds, existing.source)
      assertNameFree(node.name, id)
      const stored = repo.update(id, node, now())
      repo.setPbsFlags(id, pbs)
      changed()
      return viewOf(stored)
    },
    remove(id) {
      const node = find(id)
      repo.remove(id)
      deps.onChange()
      deps.broadcast?.('node_deleted', { id, nodeType: node.type })
      deps.broadcast?.('nodes_changed')
    },
    async testPayload(body) {
      const input = parseNodeInput(body)
      const host = normalizeHost(input.host, input.type)
      const stored = input.id ? find(input.id) : undefined
      const { node } = toNewNode(input, host, resolveCredentials(input, stored), 'test')
      return runTest(targetOf(node))
    },
    testStored: (id) => runTest(targetOf(find(id))),
    upsert(node) {
      const existing = repo.findByName(node.name)
      const stored = existing ? repo.update(existing.id, node, now()) : repo.insert(node, now())
      deps.onChange()
      return stored
    },
    upsertAll(nodes) {
      const stored = nodes.map((node) => {
        const existing = repo.findByName(node.name)
        return existing ? repo.update(existing.id, node, now()) : repo.insert(node, now())
      })
      deps.onChange()
      return stored
    },
    endpoints: () => {
      const flags = repo.pbsFlags()
      return repo
        .list()
        .map((node) => toEndpoint(node, flags.get(node.id)))
        .filter((e): e is MonitoredEndpoint => e !== null)
    },
    reload: () => deps.onChange(),
  }
}
