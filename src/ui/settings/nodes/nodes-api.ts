// The PVE and PBS tabs' calls (contract nodes-api.md; spec 001 §7, §8 texts). Answers are
// normalised here (missing fields, unexpected types), so the components only see complete
// values; a failure is an Error whose message is the text to show.
import { HttpError, apiFetch, apiJson } from '../../api/http.ts'
import { statusText } from '../../api/errors.ts'
import type {
  ClusterEndpointView,
  DiscoveredServer,
  DiscoveryStatus,
  NodeConfigView,
  NodePayload,
  NodeTestResult,
  NodeType,
  SetupScriptUrl,
  SystemSettings,
} from '../../../shared/model/node-config.ts'
import { isRecord, textOr, toBool, toNumber } from '../../../shared/model/coerce.ts'

// The wire types live in src/shared/model (one contract with the server); the shapes below are
// those types completed with defaults, so the components need no optional checks.
export type {
  ClusterEndpointView,
  DiscoveredServer,
  DiscoveryStatus,
  NodePayload,
  NodeType,
  SetupScriptUrl,
}

/** A configured node as the tabs show it: NodeConfigView with every optional field filled. */
export type NodeView = Required<Omit<NodeConfigView, 'status' | 'temperature'>> & {
  /** The server's status word (NodeStatus, or another one a newer server sends). */
  status: string
  temperatureAvailable: boolean
}

/** A successful connection test (spec 001 §3 Test result); datastoreCount -1 when not reported. */
export type TestSuccess = Required<
  Pick<NodeTestResult, 'message' | 'isCluster' | 'clusterName' | 'nodeCount' | 'datastoreCount'>
>

/** The discovery part of the system settings. */
export type DiscoverySettings = Pick<SystemSettings, 'discoveryEnabled' | 'discoverySubnet'> & {
  /** discoveryEnabled is set by the environment: the toggle is read-only. */
  enabledOverridden: boolean
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

/** One endpoint, keys as spec 001 §3 names them; camelCase from servers before that fix. */
function toEndpoint(raw: Raw): ClusterEndpointView {
  return {
    NodeName: str(raw.NodeName ?? raw.nodeName),
    Host: str(raw.Host ?? raw.host),
    IP: str(raw.IP ?? raw.ip),
    Online: bool(raw.Online ?? raw.online),
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
): Promise<SetupScriptUrl> {
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
  const server: DiscoveredServer = {
    ip: str(raw.ip),
    port: num(raw.port, type === 'pbs' ? 8007 : 8006),
    type,
    version: str(raw.version),
  }
  const hostname = str(raw.hostname)
  const release = str(raw.release)
  if (hostname) server.hostname = hostname
  if (release) server.release = release
  return server
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
