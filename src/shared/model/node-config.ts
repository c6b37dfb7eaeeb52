// Node management on the wire (spec 001 §3 Node config, Test result, Discovered server,
// Discovery status, System settings). Views never carry secrets: hasPassword / hasToken instead.

export const NODE_TYPES = ['pve', 'pbs'] as const
export type NodeType = (typeof NODE_TYPES)[number]

export const NODE_STATUSES = ['pending', 'connected', 'disconnected', 'error'] as const
export type NodeStatus = (typeof NODE_STATUSES)[number]

/** Feature flags of a PVE node: what the poller collects. */
export const PVE_MONITOR_FLAGS = [
  'monitorVMs',
  'monitorContainers',
  'monitorStorage',
  'monitorBackups',
] as const
/** Feature flags of a PBS node. */
export const PBS_MONITOR_FLAGS = [
  'monitorDatastores',
  'monitorSyncJobs',
  'monitorVerifyJobs',
  'monitorPruneJobs',
  'monitorGarbageJobs',
] as const
export type PveMonitorFlag = (typeof PVE_MONITOR_FLAGS)[number]
export type PbsMonitorFlag = (typeof PBS_MONITOR_FLAGS)[number]
export type PveMonitorFlags = Record<PveMonitorFlag, boolean>
export type PbsMonitorFlags = Record<PbsMonitorFlag, boolean>

/**
 * One member of a PVE cluster as the poller last saw it. PascalCase keys, as spec 001 §3 and the
 * reference send them. Host is the URL we would poll it at; Host and IP are '' when unknown.
 */
export interface ClusterEndpointView {
  NodeName: string
  Host: string
  IP: string
  Online: boolean
}

/** A monitored endpoint as returned by GET /api/config/nodes. */
export interface NodeConfigView extends PveMonitorFlags, PbsMonitorFlags {
  id: string
  type: NodeType
  name: string
  host: string
  user?: string
  tokenName?: string
  hasPassword: boolean
  hasToken: boolean
  fingerprint?: string
  verifySSL: boolean
  status: NodeStatus
  isCluster?: boolean
  clusterName?: string
  clusterEndpoints?: ClusterEndpointView[]
  temperature?: { available: boolean }
  /** Last connection error text, when status is 'error'. */
  error?: string
}

/**
 * Body of POST/PUT /api/config/nodes and POST /api/config/nodes/test-connection. Blank secrets on
 * PUT (or with `id` on test-connection) keep the stored ones. Monitor flags default to true.
 */
export interface NodePayload extends Partial<PveMonitorFlags>, Partial<PbsMonitorFlags> {
  type: NodeType
  name?: string
  host: string
  user?: string
  password?: string
  tokenName?: string
  tokenValue?: string
  fingerprint?: string
  verifySSL?: boolean
  /** test-connection only: the stored node whose secrets fill blank secret fields. */
  id?: string
}

/** Answer of a successful connection test (failures are `{ code, message }` errors). */
export interface NodeTestResult {
  status: 'success'
  message: string
  /** PVE: a `cluster` entry in /cluster/status. */
  isCluster?: boolean
  clusterName?: string
  /** PVE: cluster members (1 for a standalone host). */
  nodeCount?: number
  /** PBS: datastores the credentials can see. */
  datastoreCount?: number
  /** The server's version string from /version. */
  version?: string
}

/** Answer of POST /api/setup-script-url. */
export interface SetupScriptUrl {
  url: string
  /** `curl -fsSL '<url>' | bash` */
  command: string
  /** Epoch seconds after which the one-time code is refused. */
  expires: number
}

/** A Proxmox server found by a discovery scan. */
export interface DiscoveredServer {
  ip: string
  port: number
  type: NodeType
  /** Version when the server revealed it without credentials, else 'unknown'. */
  version: string
  hostname?: string
  release?: string
}

/** Answer of GET/POST /api/discover. */
export interface DiscoveryStatus {
  servers: DiscoveredServer[]
  errors: string[]
  scanning: boolean
  /** The subnet scanned (or being scanned) last, as CIDR. */
  subnet: string
  /** Epoch ms; 0 before the first scan. */
  lastScanStartedAt: number
  /** Epoch ms of the last finished scan; 0 before the first. */
  lastResultAt: number
  /** Background discovery (every 5 minutes) is on. */
  enabled: boolean
}

/** Answer of GET /api/system/settings and POST /api/system/settings/update. */
export interface SystemSettings {
  discoveryEnabled: boolean
  /** 'auto' (loopback only) or an IPv4 CIDR typed by the administrator. */
  discoverySubnet: string
  /** Settings fixed by environment variables (read-only in the UI), e.g. allowedOrigins. */
  envOverrides: Record<string, boolean>
  /** Extra origins accepted on /ws (comma-separated; '*' any; empty: same host only). */
  allowedOrigins: string
  /** Whether other pages may show the app in a frame (off: frame-ancestors 'none'). */
  allowEmbedding: boolean
  /** Comma-separated origins allowed to frame the app besides this one, when embedding is on. */
  allowedEmbedOrigins: string
  // The Version panel's settings (shared/model/updates.ts UpdateSettings) and the stored theme:
  // always sent by the server; optional so older callers' literals stay valid.
  updateChannel?: 'stable' | 'rc'
  autoUpdateEnabled?: boolean
  /** Hours: 6, 12, 24 or 168. */
  autoUpdateCheckInterval?: number
  /** Local 'HH:MM'. */
  autoUpdateTime?: string
  /** The theme saved on the server, '' when none. */
  theme?: 'light' | 'dark' | ''
  /** Minutes of recent metrics history the server keeps in memory (issue 25). */
  historyRetentionMinutes?: number
}
