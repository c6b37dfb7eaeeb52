// How a configured node is summarised in the list (spec 001 §2 PVE and PBS tabs): the status dot,
// the feature badges and the authentication line. Pure.
import type { NodeView } from './nodes-api.ts'

export type DotTone = 'red' | 'yellow' | 'green' | 'amber' | 'grey'

/**
 * Spec 001 §2: red for unhealthy, error or offline; yellow for degraded; green for online,
 * healthy or connected; pulsing amber for pending or disconnected; grey otherwise.
 */
export function statusTone(status: string): DotTone {
  switch (status.toLowerCase()) {
    case 'unhealthy':
    case 'error':
    case 'offline':
      return 'red'
    case 'degraded':
      return 'yellow'
    case 'online':
    case 'healthy':
    case 'connected':
      return 'green'
    case 'pending':
    case 'disconnected':
      return 'amber'
    default:
      return 'grey'
  }
}

/** The dot's classes per tone; amber pulses (waiting for the first or next answer). */
export const DOT_CLASS: Record<DotTone, string> = {
  red: 'bg-red-500',
  yellow: 'bg-yellow-400',
  green: 'bg-emerald-500',
  amber: 'bg-amber-500 animate-pulse',
  grey: 'bg-gray-400 dark:bg-gray-500',
}

/** The words read out for the dot. */
export function statusLabel(status: string): string {
  const word = status.trim() || 'unknown'
  return word.charAt(0).toUpperCase() + word.slice(1)
}

/**
 * The PBS features the collector really reads, each with the flag that turns it on. A badge
 * names only what is collected (issue 26): since the PBS job collector, that is every flag, the
 * garbage collection included. A flag for something not collected gets no badge.
 */
export const PBS_FEATURES = [
  ['monitorDatastores', 'Datastores'],
  ['monitorSyncJobs', 'Sync Jobs'],
  ['monitorVerifyJobs', 'Verify Jobs'],
  ['monitorPruneJobs', 'Prune Jobs'],
  ['monitorGarbageJobs', 'Garbage Collection'],
] as const

/** The feature badges of a node: what it monitors, plus Temperature when available. */
export function featureBadges(node: NodeView): string[] {
  const flags: [boolean, string][] =
    node.type === 'pve'
      ? [
          [node.monitorVMs, 'VMs'],
          [node.monitorContainers, 'Containers'],
          [node.monitorStorage, 'Storage'],
          [node.monitorBackups, 'Backups'],
        ]
      : PBS_FEATURES.map(([flag, label]) => [node[flag], label])
  const badges = flags.filter(([on]) => on).map(([, label]) => label)
  if (node.temperatureAvailable) badges.push('Temperature')
  return badges
}

/** How the node signs in: the token id or the user, never a secret. */
export function authSummary(node: NodeView): string {
  if (node.hasToken || (node.tokenName && !node.hasPassword)) {
    return node.tokenName ? `API token: ${node.tokenName}` : 'API token'
  }
  if (node.user) return `User: ${node.user}`
  return node.hasPassword ? 'Password' : 'No credentials'
}
