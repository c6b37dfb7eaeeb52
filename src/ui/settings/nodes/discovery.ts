// Discovery helpers (spec 001 §2 discovery panel, §4 Discovery): the last-scan age and which
// discovered servers are still to be configured. Pure.
import type { DiscoveredServer, NodeType, NodeView } from './nodes-api.ts'

/** Spec 001 §9: discovery refresh, modal polling, and retry after a failed load. */
export const DISCOVERY_REFRESH_MS = 30_000
export const MODAL_POLL_MS = 3_000
export const RETRY_MS = 3_000

const MINUTE = 60
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

/** "just now", "Ns ago", "Nm ago", "Nh ago", then the full local date; '' without a scan. */
export function formatScanAge(at: number, now = Date.now()): string {
  if (!at) return ''
  const seconds = Math.floor((now - at) / 1000)
  if (seconds < 5) return 'just now'
  if (seconds < MINUTE) return `${seconds}s ago`
  if (seconds < HOUR) return `${Math.floor(seconds / MINUTE)}m ago`
  if (seconds < DAY) return `${Math.floor(seconds / HOUR)}h ago`
  return new Date(at).toLocaleString()
}

/** The host name (or IP, without brackets) of a host URL, lower case; '' when unreadable. */
export function hostnameOf(host: string): string {
  const text = host.trim()
  if (!text) return ''
  try {
    const url = new URL(/^[a-z][a-z\d+.-]*:\/\//i.test(text) ? text : `https://${text}`)
    return url.hostname.replace(/^\[|\]$/g, '').toLowerCase()
  } catch {
    return ''
  }
}

/** The addresses by which the configured nodes of `type` are known: host, endpoint hosts and IPs. */
function knownAddresses(nodes: readonly NodeView[], type: NodeType): Set<string> {
  const known = new Set<string>()
  for (const node of nodes) {
    if (node.type !== type) continue
    known.add(hostnameOf(node.host))
    for (const endpoint of node.clusterEndpoints) {
      known.add(endpoint.IP.toLowerCase())
      known.add(hostnameOf(endpoint.Host))
    }
  }
  known.delete('')
  return known
}

/**
 * Spec 001 §4: discovered servers of `type` that are not configured yet (matched by host, IP or
 * cluster endpoint).
 */
export function unconfiguredServers(
  servers: readonly DiscoveredServer[],
  nodes: readonly NodeView[],
  type: NodeType,
): DiscoveredServer[] {
  const known = knownAddresses(nodes, type)
  return servers.filter(
    (server) =>
      server.type === type &&
      !known.has(server.ip.toLowerCase()) &&
      !(server.hostname && known.has(server.hostname.toLowerCase())),
  )
}
