// The diagnostics export (spec 001 §7): the last report, the configured nodes without secrets,
// the first 10 backups of each kind and 20 active alerts. "Export for GitHub" runs the whole
// document through one sanitizer, so a host keeps one placeholder across every section.
import type { DiagnosticsReport } from '../../shared/model/diagnostics.ts'
import type { NodeConfigView } from '../../shared/model/node-config.ts'
import type { State } from '../../shared/model/state.ts'
import { createSanitizer, type SensitiveValues } from './sanitize.ts'

export const BACKUPS_PER_KIND = 10
export const ACTIVE_ALERTS = 20

/** The downloaded document. */
export interface DiagnosticsExport {
  kind: 'pulse-diagnostics'
  sanitized: boolean
  exportedAt: string
  report: DiagnosticsReport
  nodes: NodeConfigView[]
  backups: {
    storageBackups: unknown[]
    pbsBackups: unknown[]
    guestSnapshots: unknown[]
    backupTasks: unknown[]
  }
  activeAlerts: unknown[]
  counts: Record<string, number>
}

function hostnameOf(url: string): string | undefined {
  try {
    return new URL(url).hostname.replace(/^\[|\]$/g, '')
  } catch {
    return url || undefined
  }
}

/** Every name, host and token id of the estate: what the sanitizer must find. */
export function collectSensitive(
  nodes: readonly NodeConfigView[],
  state: State,
  secrets: readonly string[] = [],
): SensitiveValues {
  const hosts = new Set<string>()
  const nodeNames = new Set<string>()
  const tokens = new Set<string>()
  const guests = new Set<string>()
  for (const n of nodes) {
    nodeNames.add(n.name)
    const host = hostnameOf(n.host)
    if (host) hosts.add(host)
    if (n.tokenName) tokens.add(n.tokenName)
    for (const member of n.clusterEndpoints ?? []) {
      for (const value of Object.values(member)) {
        if (typeof value === 'string' && value) nodeNames.add(hostnameOf(value) ?? value)
      }
    }
    if (n.clusterName) nodeNames.add(n.clusterName)
  }
  // O(guests): one pass, no per-guest work beyond a Set insert.
  for (const n of state.nodes) {
    nodeNames.add(n.name)
    nodeNames.add(n.instance)
    if (n.clusterName) nodeNames.add(n.clusterName)
    const host = hostnameOf(n.host)
    if (host) hosts.add(host)
  }
  for (const p of state.pbs) {
    nodeNames.add(p.name)
    const host = hostnameOf(p.host)
    if (host) hosts.add(host)
  }
  for (const list of [state.vms, state.containers]) {
    for (const g of list) if (g.name) guests.add(g.name)
  }
  return { hosts, nodes: nodeNames, tokens, guests, secrets }
}

/** Build the export; `sanitize` redacts the estate's identifying values. */
export function buildDiagnosticsExport(input: {
  report: DiagnosticsReport
  nodes: NodeConfigView[]
  state: State
  now: number
  sanitize: boolean
  /** Secret values that must not appear even if some text quoted them. */
  secrets?: readonly string[]
}): DiagnosticsExport {
  const { state } = input
  const doc: DiagnosticsExport = {
    kind: 'pulse-diagnostics',
    sanitized: input.sanitize,
    exportedAt: new Date(input.now).toISOString(),
    report: input.report,
    nodes: input.nodes,
    backups: {
      storageBackups: state.storageBackups.slice(0, BACKUPS_PER_KIND),
      pbsBackups: state.pbsBackups.slice(0, BACKUPS_PER_KIND),
      guestSnapshots: state.guestSnapshots.slice(0, BACKUPS_PER_KIND),
      backupTasks: state.backupTasks.slice(0, BACKUPS_PER_KIND),
    },
    activeAlerts: state.activeAlerts.slice(0, ACTIVE_ALERTS),
    counts: {
      nodes: state.nodes.length,
      vms: state.vms.length,
      containers: state.containers.length,
      storage: state.storage.length,
      storageBackups: state.storageBackups.length,
      pbsBackups: state.pbsBackups.length,
      guestSnapshots: state.guestSnapshots.length,
      activeAlerts: state.activeAlerts.length,
    },
  }
  if (!input.sanitize) return doc
  const sanitizer = createSanitizer(collectSensitive(input.nodes, state, input.secrets))
  return sanitizer.value(doc) as DiagnosticsExport
}
