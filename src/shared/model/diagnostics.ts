// Diagnostics report (spec 001 §2 Diagnostics tab, §7; wire-protocol.md §3.10). The field names
// follow the reference's GET /api/diagnostics so older clients read it; `connection`,
// `recommendations` and `checkedAt` are ours.

/** How a node authenticates; 'none' when its stored credentials are incomplete. */
export type DiagnosticsAuthMethod = 'api_token' | 'username_password' | 'none'

/** One permission check: ok, failed (with why), or skipped (nothing to test with). */
export interface PermissionCheck {
  status: 'ok' | 'failed' | 'skipped'
  message: string
}

/** Guest agent reads (disk usage inside VMs); needs VM.GuestAgent.Audit on PVE 9, VM.Monitor on 8. */
export interface VmDiskCheck {
  vmsFound: number
  testVMID?: number
  testVMName?: string
  testResult: PermissionCheck
  /** The privilege the node's PVE version needs for guest agent reads. */
  permission: string
}

/** Physical disk listing (/nodes/{node}/disks/list, Sys.Audit). */
export interface PhysicalDiskCheck {
  nodesChecked: number
  nodesWithDisks: number
  totalDisks: number
  testResult: PermissionCheck
}

/** One PVE endpoint's live result. */
export interface PveDiagnostics {
  id: string
  name: string
  host: string
  type: 'pve'
  authMethod: DiagnosticsAuthMethod
  connected: boolean
  error?: string
  details?: { node_count?: number; version?: string }
  clusterInfo?: { name?: string; nodes: number }
  vmDiskCheck?: VmDiskCheck
  backupListing?: PermissionCheck
  physicalDisks?: PhysicalDiskCheck
}

/** One PBS endpoint's live result. */
export interface PbsDiagnostics {
  id: string
  name: string
  host: string
  type: 'pbs'
  authMethod: DiagnosticsAuthMethod
  connected: boolean
  error?: string
  details?: { version?: string; datastores?: number }
}

/** What the server knows of its own sockets and the estate. */
export interface DiagnosticsConnection {
  port: number
  websocketClients: number
  pveNodes: number
  pbsNodes: number
  vms: number
  containers: number
}

/** GET /api/diagnostics. */
export interface DiagnosticsReport {
  version: string
  runtime: string
  /** Seconds since the server started. */
  uptime: number
  /** Epoch ms the checks finished. */
  checkedAt: number
  connection: DiagnosticsConnection
  nodes: PveDiagnostics[]
  pbs: PbsDiagnostics[]
  system: { os: string; arch: string; nodeVersion: string; numCPU: number; memoryMB: number }
  recommendations: string[]
  errors: string[]
}
