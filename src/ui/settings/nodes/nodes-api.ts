// The PVE and PBS tabs' calls (contract nodes-api.md; spec 001 §7, §8 texts). Answers are
// normalised here (missing fields, unexpected types), so the components only see complete
// values; a failure is an Error whose message is the text to show.
import { HttpError, apiFetch, apiJson } from '../../api/http.ts'
import { statusText } from '../../api/errors.ts'
import type { NodePayload, NodeType } from '../../../shared/model/node-config.ts'
import { isRecord, textOr, toBool, toNumber } from '../../../shared/model/coerce.ts'

export type { NodePayload, NodeType }

export interface ClusterEndpoint {
  nodeName: string
  host: string
  ip: string
  online: boolean
}

/** A configured node as the tabs show it (spec 001 §3 Node config); never carries a secret. */
export interface NodeView {
  id: string
  type: NodeType
  name: string
  host: string
  user: string
  tokenName: string
  hasPassword: boolean
  hasToken: boolean
  fingerprint: string
  verifySSL: boolean
  /** The server's status word (NodeStatus, or another one a newer server sends). */
  status: string
  monitorVMs: boolean
  monitorContainers: boolean
  monitorStorage: boolean
  monitorBackups: boolean
  monitorDatastores: boolean
  monitorSyncJobs: boolean
  monitorVerifyJobs: boolean
  monitorPruneJobs: boolean
  monitorGarbageJobs: boolean
  isCluster: boolean
  clusterName: string
  clusterEndpoints: ClusterEndpoint[]
  temperatureAvailable: boolean
  /** The last connection error, when status is error. */
  error: string
}

/** A successful connection test (spec 001 §3 Test result). */
export interface TestSuccess {
  message: string
  isCluster: boolean
  clusterName: string
  nodeCount: number
  /** PBS only; -1 when not reported. */
  datastoreCount: number
}

export interface DiscoveredServer {
  ip: string
  port: number
  type: NodeType
  version: string
  hostname: string
  release: string
}

/** GET /api/discover (spec 001 §3 Discovery status). */
export interface DiscoveryStatus {
  servers: DiscoveredServer[]
  errors: string[]
  scanning: boolean
  subnet: string
  lastScanStartedAt: number
  lastResultAt: number
  enabled: boolean
}

export interface DiscoverySettings {
  discoveryEnabled: boolean
  discoverySubnet: string
  /** discoveryEnabled is set by the environment: the toggle is read-only. */
  enabledOverridden: boolean
}

/** POST /api/setup-script-url. */
export interface SetupCommand {
  url: string
  command: string
  /** Epoch seconds; 0 when not given. */
  expires: number
}

type Raw = Record<string, unknown>

// The shared coercers (src/shared/model/coerce.ts) under the short names this reader uses.
const str = (value: unknown): string => textOr(value)
const bool = toBool
const num = toNumber
const records = (value: unknown): Raw[] => (Array.isArray(value) ? value.filter(isRecord) : [])
const nodeType = (value: unknown): NodeType => (value === 'pbs' ? 'pbs' : 'pve')

/** The server's text, or `fallback` when it said nothing useful (a bare status line). */
export function errorText(error: unknown, fallback: string): string {
  if (error instanceof HttpError) {
    return error.message && error.message !== statusText(error.status) ? error.message : fallback
  }
  return fallback
}

/** One endpoint; the spec names the fields NodeName/Host/IP/Online, the contract camelCase. */
function toEndpoint(raw: Raw): ClusterEndpoint {
  return {
    nodeName: str(raw.nodeName ?? raw.NodeName),
    host: str(raw.host ?? raw.Host),
    ip: str(raw.ip ?? raw.IP),
    online: bool(raw.online ?? raw.Online),
  }
}

/** A NodeConfigView of the server, completed with defaults. */
export function toNodeView(raw: Raw): NodeView {
  const temperature = isRecord(raw.temperature) ? raw.temperature : {}
  return {
    id: str(raw.id),
    type: nodeType(raw.type),
    name: str(raw.name),
    host: str(raw.host),
    user: str(raw.user),
    tokenName: str(raw.tokenName),
    hasPassword: bool(raw.hasPassword),
    hasToken: bool(raw.hasToken),
    fingerprint: str(raw.fingerprint),
    verifySSL: bool(raw.verifySSL, true),
    status: str(raw.status) || 'pending',
    monitorVMs: bool(raw.monitorVMs, true),
    monitorContainers: bool(raw.monitorContainers, true),
    monitorStorage: bool(raw.monitorStorage, true),
    monitorBackups: bool(raw.monitorBackups, true),
    monitorDatastores: bool(raw.monitorDatastores, true),
    monitorSyncJobs: bool(raw.monitorSyncJobs, true),
    monitorVerifyJobs: bool(raw.monitorVerifyJobs, true),
    monitorPruneJobs: bool(raw.monitorPruneJobs, true),
    monitorGarbageJobs: bool(raw.monitorGarbageJobs, true),
    isCluster: bool(raw.isCluster),
    clusterName: str(raw.clusterName),
    clusterEndpoints: records(raw.clusterEndpoints).map(toEndpoint),
    temperatureAvailable: bool(temperature.available),
    error: str(raw.error),
  }
}

// ---------------------------------------------------------------------------------------------
// Nodes

const NODES = '/api/config/nodes'

/**
 * GET /api/config/nodes. No automatic 429 retry here: the tab retries itself after 3 s
 * (spec 001 §8), so a refused read does not hold the list.
 */
export async function loadNodes(): Promise<NodeView[]> {
  const answer = await apiJson<unknown>(NODES, { retryRateLimit: false })
  return records(answer)
    .map(toNodeView)
    .filter((node) => node.id)
}

/** POST /api/config/nodes → the saved node (status pending until the first poll). */
export async function addNode(payload: NodePayload): Promise<NodeView | null> {
  try {
    const answer = await apiJson<unknown>(NODES, { method: 'POST', body: payload })
    return isRecord(answer) ? toNodeView(answer) : null
  } catch (error) {
    throw new Error(errorText(error, 'Operation failed'))
  }
}

/** PUT /api/config/nodes/{id}; blank secrets keep the stored ones. */
export async function updateNode(id: string, payload: NodePayload): Promise<NodeView | null> {
  try {
    const answer = await apiJson<unknown>(`${NODES}/${encodeURIComponent(id)}`, {
      method: 'PUT',
      body: payload,
    })
    return isRecord(answer) ? toNodeView(answer) : null
  } catch (error) {
    throw new Error(errorText(error, 'Operation failed'))
  }
}

/** DELETE /api/config/nodes/{id}. */
export async function deleteNode(id: string): Promise<void> {
  try {
    await apiJson(`${NODES}/${encodeURIComponent(id)}`, { method: 'DELETE' })
  } catch (error) {
    throw new Error(errorText(error, 'Failed to delete node'))
  }
}

/**
 * Spec 001 §8: a connection-test error shows the server's message without a leading
 * "API request failed: NNN" (the Proxmox client's wrapper); empty gives "Connection failed".
 */
export function stripTestError(message: string): string {
  const clean = message.replace(/^\s*API request failed:?\s*\d{3}\b[\s:\-–]*/i, '').trim()
  return clean || 'Connection failed'
}

function toTestSuccess(answer: unknown): TestSuccess {
  const raw = isRecord(answer) ? answer : {}
  if (raw.status === 'error') throw new Error(stripTestError(str(raw.message)))
  return {
    message: str(raw.message) || 'Connection successful',
    isCluster: bool(raw.isCluster),
    clusterName: str(raw.clusterName),
    nodeCount: num(raw.nodeCount),
    datastoreCount: num(raw.datastoreCount, -1),
  }
}

/** Runs a test call; every failure becomes an Error with the stripped server text. */
async function runTest(path: string, body: unknown): Promise<TestSuccess> {
  let answer: unknown
  try {
    answer = await apiJson<unknown>(path, { method: 'POST', body })
  } catch (error) {
    const text = error instanceof HttpError ? errorText(error, '') : ''
    throw new Error(stripTestError(text))
  }
  return toTestSuccess(answer)
}

/** POST /api/config/nodes/test-connection: tests the form's settings; nothing is stored. */
export function testNodeConfig(payload: NodePayload): Promise<TestSuccess> {
  return runTest(`${NODES}/test-connection`, payload)
}

/** POST /api/config/nodes/{id}/test: tests the stored node. */
export function testStoredNode(id: string): Promise<TestSuccess> {
  return runTest(`${NODES}/${encodeURIComponent(id)}/test`, {})
}

// ---------------------------------------------------------------------------------------------
// Setup script

/** POST /api/setup-script-url {type, host, backupPerms} → the one-line setup command. */
export async function createSetupCommand(
  type: NodeType,
  host: string,
  backupPerms: boolean,
): Promise<SetupCommand> {
  let answer: Raw | null
  try {
    answer = await apiJson<Raw>('/api/setup-script-url', {
      method: 'POST',
      body: { type, host, backupPerms },
    })
  } catch {
    throw new Error('Failed to generate setup URL')
  }
  const command = str(answer?.command)
  const url = str(answer?.url)
  if (!command && !url) throw new Error('Failed to generate setup URL')
  return {
    url,
    command: command || `curl -fsSL '${url}' | bash`,
    expires: num(answer?.expires),
  }
}

/** The GET /api/setup-script address of spec 001 §7 (type, host, pulse_url, backup_perms). */
export function setupScriptPath(
  type: NodeType,
  host: string,
  backupPerms: boolean,
  pulseUrl = window.location.origin,
): string {
  const query = new URLSearchParams({
    type,
    host,
    pulse_url: pulseUrl,
    backup_perms: String(backupPerms),
  })
  return `/api/setup-script?${query.toString()}`
}

/** GET the setup script's text. */
export async function fetchSetupScript(path: string): Promise<string> {
  let res: Response
  try {
    res = await apiFetch(path, { headers: { Accept: 'text/x-shellscript, text/plain, */*' } })
  } catch {
    throw new Error('Failed to download script. Please check your connection.')
  }
  const text = res.ok ? await res.text() : ''
  if (!text.trim()) throw new Error('Failed to download script. Please check your connection.')
  return text
}

// ---------------------------------------------------------------------------------------------
// Discovery

function toServer(raw: Raw): DiscoveredServer {
  const type = nodeType(raw.type)
  return {
    ip: str(raw.ip),
    port: num(raw.port, type === 'pbs' ? 8007 : 8006),
    type,
    version: str(raw.version),
    hostname: str(raw.hostname),
    release: str(raw.release),
  }
}

/** A /api/discover answer, completed with defaults. */
export function toDiscoveryStatus(answer: unknown): DiscoveryStatus {
  const raw = isRecord(answer) ? answer : {}
  return {
    servers: records(raw.servers)
      .map(toServer)
      .filter((server) => server.ip),
    errors: Array.isArray(raw.errors) ? raw.errors.map(String).filter(Boolean) : [],
    scanning: bool(raw.scanning),
    subnet: str(raw.subnet),
    lastScanStartedAt: num(raw.lastScanStartedAt),
    lastResultAt: num(raw.lastResultAt ?? raw.timestamp),
    enabled: bool(raw.enabled, true),
  }
}

/** GET /api/discover. */
export async function loadDiscovery(): Promise<DiscoveryStatus> {
  return toDiscoveryStatus(await apiJson<unknown>('/api/discover', { retryRateLimit: false }))
}

/**
 * POST /api/discover {subnet}: starts a background scan (up to a minute). The answer is the
 * status with scanning on; null when the server sent no body.
 */
export async function startDiscovery(subnet: string): Promise<DiscoveryStatus | null> {
  let answer: unknown
  try {
    answer = await apiJson<unknown>('/api/discover', {
      method: 'POST',
      body: { subnet: subnet || 'auto' },
    })
  } catch {
    throw new Error('Failed to start discovery scan')
  }
  return isRecord(answer) ? toDiscoveryStatus(answer) : null
}

function toDiscoverySettings(answer: unknown): DiscoverySettings {
  const raw = isRecord(answer) ? answer : {}
  const overrides = raw.envOverrides
  const overridden = Array.isArray(overrides)
    ? overrides.includes('discoveryEnabled')
    : isRecord(overrides) && Boolean(overrides.discoveryEnabled)
  return {
    discoveryEnabled: bool(raw.discoveryEnabled),
    discoverySubnet: str(raw.discoverySubnet),
    enabledOverridden: overridden,
  }
}

/** GET /api/system/settings: the discovery switch and subnet. */
export async function loadDiscoverySettings(): Promise<DiscoverySettings> {
  return toDiscoverySettings(await apiJson<unknown>('/api/system/settings'))
}

/** POST /api/system/settings/update {discoveryEnabled} → the saved settings (null: no body). */
export async function setDiscoveryEnabled(enabled: boolean): Promise<DiscoverySettings | null> {
  let answer: unknown
  try {
    answer = await apiJson<unknown>('/api/system/settings/update', {
      method: 'POST',
      body: { discoveryEnabled: enabled },
    })
  } catch {
    throw new Error('Failed to update discovery setting')
  }
  return isRecord(answer) && 'discoveryEnabled' in answer ? toDiscoverySettings(answer) : null
}
