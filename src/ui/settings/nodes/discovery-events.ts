// Discovery status from the socket's events (spec 001 §4 Discovery live events). Pure.
import type { LiveEventOf } from '../../../shared/model/live-events.ts'
import { toDiscoveryStatus, type DiscoveryStatus } from './nodes-api.ts'

type DiscoveryEvent = LiveEventOf<'discovery_started' | 'discovery_update' | 'discovery_complete'>

/** The reference sends epoch seconds, our server epoch ms. */
function toMs(value: unknown): number | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) return undefined
  return value < 1e12 ? value * 1000 : value
}

/**
 * The status after `event`: started sets scanning (and the subnet), complete clears it, an
 * update replaces what it carries; with `immediate` its servers are merged into the known ones.
 */
export function applyDiscoveryEvent(
  prev: DiscoveryStatus | null,
  event: DiscoveryEvent,
): DiscoveryStatus {
  const base: DiscoveryStatus = prev ?? toDiscoveryStatus({})
  switch (event.type) {
    case 'discovery_started':
      return {
        ...base,
        scanning: true,
        subnet: event.data.subnet || base.subnet,
        lastScanStartedAt: event.data.timestamp || base.lastScanStartedAt,
      }
    case 'discovery_complete':
      return {
        ...base,
        scanning: false,
        lastResultAt: event.data.timestamp || base.lastResultAt,
      }
    case 'discovery_update': {
      const data = event.data
      const lastResultAt = toMs(data.lastResultAt) ?? toMs(data.timestamp) ?? base.lastResultAt
      const next = toDiscoveryStatus({ ...base, ...data, lastResultAt })
      // The reference omits `enabled`; toDiscoveryStatus would default it.
      if (data.enabled === undefined) next.enabled = base.enabled
      if (data.immediate !== true) return next
      const seen = new Set(next.servers.map((server) => `${server.ip}:${server.port}`))
      const kept = base.servers.filter((server) => !seen.has(`${server.ip}:${server.port}`))
      return { ...next, servers: [...kept, ...next.servers] }
    }
  }
}
