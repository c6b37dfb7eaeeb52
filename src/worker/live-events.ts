// Turns well-formed socket messages that are not state into the UI's live events (spec 000 §7).
// Runs inside the worker. Imports only src/shared and src/worker.
import type { LiveEvent } from '../shared/model/live-events.ts'
import { isTheme } from '../shared/model/theme.ts'
import { isRecord } from './normalize.ts'

/** What `toLiveEvent` made of a message: an event, a malformed one, or one the UI does not use. */
export type LiveEventResult =
  { kind: 'event'; event: LiveEvent } | { kind: 'malformed'; reason: string } | { kind: 'ignored' }

// Spec 001 §4 names of the same announcements (the reference UI's): accepted as synonyms.
const ALIASES: Record<string, string> = {
  discovery_updated: 'discovery_update',
  discovery_status: 'discovery_update',
  refresh_nodes: 'nodes_changed',
}

/** The live event a server message `type` with body `message` carries, if any. */
export function toLiveEvent(type: string, message: Record<string, unknown>): LiveEventResult {
  // The reference wraps background discovery in `custom` ({type, data}); unwrap it.
  if (type === 'custom') {
    const inner = message.data
    if (!isRecord(inner) || typeof inner.type !== 'string') return { kind: 'ignored' }
    return toLiveEvent(inner.type, { type: inner.type, data: inner.data })
  }
  const name = ALIASES[type] ?? type
  const data = message.data
  const bad = (reason: string): LiveEventResult => ({
    kind: 'malformed',
    reason: `${type} ${reason}`,
  })
  const event = (value: LiveEvent): LiveEventResult => ({ kind: 'event', event: value })
  switch (name) {
    case 'node_auto_registered': {
      if (!isRecord(data)) return bad('without an object data')
      const { type: nodeType, name: nodeName, host } = data
      if (nodeType !== 'pve' && nodeType !== 'pbs') return bad('with a bad node type')
      if (typeof host !== 'string') return bad('without a host')
      const label = typeof nodeName === 'string' && nodeName ? nodeName : host
      return event({ type: name, data: { type: nodeType, name: label, host } })
    }
    case 'node_deleted': {
      if (data !== undefined && !isRecord(data)) return bad('with a bad data')
      const id = isRecord(data) && typeof data.id === 'string' ? data.id : ''
      const nodeType = isRecord(data) && typeof data.nodeType === 'string' ? data.nodeType : ''
      return event({ type: name, data: { id, nodeType } })
    }
    case 'nodes_changed':
      return event({ type: name, data: {} })
    case 'discovery_started': {
      if (data !== undefined && !isRecord(data)) return bad('with a bad data')
      const subnet = isRecord(data) && typeof data.subnet === 'string' ? data.subnet : ''
      return event({ type: name, data: { subnet, timestamp: timestampOf(data) } })
    }
    case 'discovery_update':
      if (!isRecord(data)) return bad('without an object data')
      if (data.servers !== undefined && !Array.isArray(data.servers)) return bad('with bad servers')
      return event({ type: name, data })
    case 'discovery_complete':
      if (data !== undefined && !isRecord(data)) return bad('with a bad data')
      return event({ type: name, data: { timestamp: timestampOf(data) } })
    case 'settingsUpdate': {
      if (!isRecord(data)) return bad('without an object data')
      // An empty theme means "none stored": nothing to follow.
      if (data.theme === undefined || data.theme === '') return event({ type: name, data: {} })
      if (!isTheme(data.theme)) return bad('with an unknown theme')
      return event({ type: name, data: { theme: data.theme } })
    }
    case 'update:progress':
      if (!isRecord(data)) return bad('without an object data')
      return event({ type: name, data })
    default:
      return { kind: 'ignored' }
  }
}

// Epoch ms; the reference sends seconds, ours ms (anything below 1e12 is taken as seconds).
function timestampOf(data: unknown): number {
  const value = isRecord(data) ? (data.timestamp ?? data.lastResultAt) : undefined
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) return 0
  return value < 1e12 ? value * 1000 : value
}
