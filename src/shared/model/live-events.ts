// Socket events the UI acts on (spec 000 §7, spec 001 §2 Shell and §4 Discovery): validated by
// the worker, delivered to the UI through its event channel. Names are the wire's.
import type { NodeType } from './node-config.ts'
import type { Theme } from './theme.ts'

/** The event types delivered to the UI, as named on the wire. */
export const LIVE_EVENT_TYPES = [
  'node_auto_registered',
  'node_deleted',
  'nodes_changed',
  'discovery_started',
  'discovery_update',
  'discovery_complete',
  'settingsUpdate',
  'update:progress',
] as const
export type LiveEventType = (typeof LIVE_EVENT_TYPES)[number]

export type LiveEvent =
  | { type: 'node_auto_registered'; data: { type: NodeType; name: string; host: string } }
  | { type: 'node_deleted'; data: { id: string; nodeType: string } }
  | { type: 'nodes_changed'; data: Record<string, never> }
  | { type: 'discovery_started'; data: { subnet: string; timestamp: number } }
  /** The discovery status, as sent (GET /api/discover's shape, or the reference's). */
  | { type: 'discovery_update'; data: Record<string, unknown> }
  | { type: 'discovery_complete'; data: { timestamp: number } }
  /** `theme` is absent when the saved settings carry none. */
  | { type: 'settingsUpdate'; data: { theme?: Theme } }
  | { type: 'update:progress'; data: Record<string, unknown> }

/** The event of type `T`. */
export type LiveEventOf<T extends LiveEventType> = Extract<LiveEvent, { type: T }>
