// Runs the Diagnostics tab's checks: every configured PVE and PBS endpoint at once (a slow node
// must not hold up the others), plus what the server knows of itself and its sockets.
import os from 'node:os'
import type {
  DiagnosticsAuthMethod,
  DiagnosticsReport,
  PbsDiagnostics,
  PveDiagnostics,
} from '../../shared/model/diagnostics.ts'
import type { NodeConfigView } from '../../shared/model/node-config.ts'
import type { State } from '../../shared/model/state.ts'
import type { MonitoredEndpoint } from '../collect/poller.ts'
import { checkPbs, checkPve, type CheckOptions } from './endpoint-checks.ts'

/** What a run reads; passed in so tests and the route share one path. */
export interface DiagnosticsSources {
  version: string
  port: number
  startedAt: number
  now: () => number
  nodes: () => NodeConfigView[]
  endpoints: () => MonitoredEndpoint[]
  state: () => State
  websocketClients: () => number
  checks?: CheckOptions
}

function authMethodOf(endpoint: MonitoredEndpoint | undefined): DiagnosticsAuthMethod {
  if (!endpoint) return 'none'
  return endpoint.auth.kind === 'token' ? 'api_token' : 'username_password'
}

/** Run every check and build the report. */
export async function runDiagnostics(src: DiagnosticsSources): Promise<DiagnosticsReport> {
  const endpoints = new Map(src.endpoints().map((e) => [e.id, e]))
  const configured = src.nodes()
  const pve: Array<Promise<PveDiagnostics>> = []
  const pbs: Array<Promise<PbsDiagnostics>> = []
  for (const node of configured) {
    const endpoint = endpoints.get(node.id)
    const base = {
      id: node.id,
      name: node.name,
      host: node.host,
      authMethod: authMethodOf(endpoint),
    }
    const missing = { ...base, connected: false, error: 'No complete credentials stored' }
    if (node.type === 'pve') {
      pve.push(
        endpoint
          ? checkPve(base, endpoint, src.checks)
          : Promise.resolve({ ...missing, type: 'pve' }),
      )
    } else {
      pbs.push(
        endpoint
          ? checkPbs(base, endpoint, src.checks)
          : Promise.resolve({ ...missing, type: 'pbs' }),
      )
    }
  }
  const [nodes, backupServers] = await Promise.all([Promise.all(pve), Promise.all(pbs)])
  const state = src.state()
  const now = src.now()
  const report: DiagnosticsReport = {
    version: src.version,
    runtime: `node ${process.version}`,
    uptime: Math.round((now - src.startedAt) / 1000),
    checkedAt: now,
    connection: {
      port: src.port,
      websocketClients: src.websocketClients(),
      pveNodes: nodes.length,
      pbsNodes: backupServers.length,
      vms: state.vms.length,
      containers: state.containers.length,
    },
    nodes,
    pbs: backupServers,
    system: {
      os: `${os.type()} ${os.release()}`,
      arch: process.arch,
      nodeVersion: process.version,
      numCPU: os.cpus().length,
      memoryMB: Math.round(process.memoryUsage().rss / (1024 * 1024)),
    },
    recommendations: [],
    errors: [],
  }
  report.recommendations = recommend(report)
  for (const n of [...nodes, ...backupServers]) {
    if (n.error) report.errors.push(`${n.name}: ${n.error}`)
  }
  return report
}

/** Advice for what the checks found; an empty list means nothing to do. */
export function recommend(report: Pick<DiagnosticsReport, 'nodes' | 'pbs'>): string[] {
  const out: string[] = []
  if (report.nodes.length === 0 && report.pbs.length === 0) {
    out.push('No nodes are configured: add a PVE node in Settings → PVE Nodes.')
  }
  for (const n of [...report.nodes, ...report.pbs]) {
    if (n.authMethod === 'none') {
      out.push(`${n.name}: store an API token (or a username and password) for this node.`)
    } else if (!n.connected) {
      out.push(`${n.name}: check the host, port, firewall and credentials; run its Test button.`)
    } else if (n.authMethod === 'username_password') {
      out.push(`${n.name}: an API token is recommended over a password (no ticket renewal).`)
    }
  }
  for (const n of report.nodes) {
    const agent = n.vmDiskCheck
    if (agent?.testResult.status === 'failed') {
      out.push(
        `${n.name}: grant ${agent.permission} to the token's role so VM disk usage comes from the guest agent.`,
      )
    }
    if (n.backupListing?.status === 'failed') {
      out.push(`${n.name}: grant Datastore.Audit on /storage so backups are listed.`)
    }
    if (n.physicalDisks?.testResult.status === 'failed') {
      out.push(`${n.name}: grant Sys.Audit on / so physical disks and SMART data are read.`)
    }
  }
  return out
}
