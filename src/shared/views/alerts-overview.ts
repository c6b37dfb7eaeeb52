// The Alerts overview pipeline (spec 001 §2 Alerts: overview): count, order critical first then
// newest first, hide acknowledged alerts on request, and format only the rows in the window.
import type { AlertMetadata } from '../model/alerts.ts'
import type { Entity } from '../model/state.ts'
import { alertMessageText } from './alert-message.ts'
import { toNoteViews } from './alert-notes.ts'
import { memoizeStage } from './memo.ts'
import type {
  AlertsOverviewModel,
  AlertsOverviewRequest,
  AlertsOverviewRow,
} from './alerts-overview-types.ts'

/** What the view reads: active alerts with pending acks applied, and which acks are pending. */
export interface AlertsOverviewInput {
  alerts: readonly Entity[]
  pending: ReadonlySet<string>
  /** Epoch ms, used when the request does not carry `now`. */
  now: number
}

export type AlertsOverviewResult = Omit<AlertsOverviewModel, 'version'>

/** A memoized overview: equal inputs and request give the identical result object. */
export interface AlertsOverviewView {
  compute(input: AlertsOverviewInput, request: AlertsOverviewRequest): AlertsOverviewResult
}

const DEFAULT_WINDOW = { start: 0, count: 200 }
const MINUTE_MS = 60_000

/** Create a memoized overview view (one per subscription). */
export function createAlertsOverviewView(): AlertsOverviewView {
  const order = memoizeStage(orderAlerts)
  const counts = memoizeStage(countAlerts)
  const visible = memoizeStage(hideAcknowledged)
  const searched = memoizeStage(searchAlerts)
  const idsOf = memoizeStage((alerts: readonly Entity[], shown: Uint32Array) =>
    Array.from(shown, (i) => alerts[i]!.id),
  )
  const format = memoizeStage(formatWindow)
  const toResult = memoizeStage(
    (
      tally: { active: number; acknowledged: number; occurrences: number },
      shown: Uint32Array,
      start: number,
      rows: AlertsOverviewRow[],
      ids: string[] | null,
    ): AlertsOverviewResult => ({
      kind: 'alertsOverview',
      ...tally,
      rowCount: shown.length,
      start,
      rows,
      ...(ids ? { matchingIds: ids } : {}),
    }),
  )
  return {
    compute(input, request) {
      const sorted = order(input.alerts)
      const kept = visible(input.alerts, sorted, request.showAcknowledged)
      const shown = searched(input.alerts, kept, request.search?.trim().toLowerCase() ?? '')
      const { start, count } = request.window ?? DEFAULT_WINDOW
      // To the minute: the 'since' texts change no oftener, so an idle flush pushes nothing.
      const now = request.now ?? Math.floor(input.now / MINUTE_MS) * MINUTE_MS
      const rows = format(input.alerts, shown, start, count, input.pending, now)
      const ids = request.withIds ? idsOf(input.alerts, shown) : null
      return toResult(counts(input.alerts), shown, start, rows, ids)
    },
  }
}

/** Positions of `alerts`: critical before warning, then newest start first, then arrival order. */
export function orderAlerts(alerts: readonly Entity[]): Uint32Array {
  const n = alerts.length
  // Keys read once into typed arrays: the comparator runs n log n times at 100k alerts.
  const key = new Float64Array(n)
  for (let i = 0; i < n; i++) {
    const alert = alerts[i]!
    const start = typeof alert.startTime === 'string' ? Date.parse(alert.startTime) : NaN
    // Unreadable start times sort last within their level.
    const time = Number.isFinite(start) ? start : -1e14
    // Level weight above any time gap, and the sum exact in a double (below 2^53).
    key[i] = (alert.level === 'critical' ? 0 : 1) * 1e15 - time
  }
  const out = new Uint32Array(n)
  for (let i = 0; i < n; i++) out[i] = i
  out.sort((a, b) => key[a]! - key[b]! || a - b)
  return out
}

function countAlerts(alerts: readonly Entity[]): {
  active: number
  acknowledged: number
  occurrences: number
} {
  let acknowledged = 0
  // Order-free sum of a hash of each occurrence (id and start): changes when one alert resolves
  // and another fires in the same poll, which leaves both counts as they were.
  let occurrences = 0
  for (const alert of alerts) {
    if (alert.acknowledged === true) acknowledged++
    occurrences = (occurrences + hashText(`${alert.id}@${text(alert.startTime)}`)) | 0
  }
  return { active: alerts.length - acknowledged, acknowledged, occurrences }
}

/** FNV-1a of a string, as a 32-bit integer. */
function hashText(value: string): number {
  let hash = 0x811c9dc5
  for (let i = 0; i < value.length; i++) {
    hash ^= value.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193)
  }
  return hash | 0
}

function hideAcknowledged(
  alerts: readonly Entity[],
  order: Uint32Array,
  showAcknowledged: boolean,
): Uint32Array {
  if (showAcknowledged) return order
  return order.filter((i) => alerts[i]!.acknowledged !== true)
}

/** The positions of `order` whose alert holds every word of `search` (lower case). */
function searchAlerts(alerts: readonly Entity[], order: Uint32Array, search: string): Uint32Array {
  if (search === '') return order
  const words = search.split(/\s+/)
  return order.filter((i) => {
    const a = alerts[i]!
    const haystack =
      `${text(a.resourceName)}\n${text(a.resourceId)}\n${text(a.node)}\n${text(a.instance)}\n${text(a.type)}\n${text(a.level)}\n${text(a.message)}`.toLowerCase()
    return words.every((word) => haystack.includes(word))
  })
}

function formatWindow(
  alerts: readonly Entity[],
  shown: Uint32Array,
  start: number,
  count: number,
  pending: ReadonlySet<string>,
  now: number,
): AlertsOverviewRow[] {
  const from = Math.max(0, Math.min(start, shown.length))
  const to = Math.min(shown.length, from + Math.max(0, count))
  const rows: AlertsOverviewRow[] = []
  for (let i = from; i < to; i++) rows.push(toOverviewRow(alerts[shown[i]!]!, pending, now))
  return rows
}

/** One alert as the overview lists it. */
export function toOverviewRow(
  alert: Entity,
  pending: ReadonlySet<string>,
  now: number,
): AlertsOverviewRow {
  const type = text(alert.type)
  const unit = unitOf(alert, type)
  const startTime = text(alert.startTime)
  return {
    id: alert.id,
    level: alert.level === 'critical' ? 'critical' : 'warning',
    type,
    resourceName: text(alert.resourceName) || text(alert.resourceId),
    resourceId: text(alert.resourceId),
    node: text(alert.node),
    instance: text(alert.instance),
    message: alertMessageText({
      type,
      message: text(alert.message),
      value: typeof alert.value === 'number' ? alert.value : Number.NaN,
      metadata: alert.metadata as AlertMetadata | undefined,
    }),
    valueText: unit === null ? '' : formatValue(alert.value, unit),
    thresholdText: unit === null ? '' : formatValue(alert.threshold, unit),
    startTime,
    sinceText: formatSince(Date.parse(startTime), now),
    acknowledged: alert.acknowledged === true,
    ackUser: text(alert.ackUser),
    ackTime: text(alert.ackTime),
    stale: alert.stale === true,
    flapping: alert.flapping === true,
    ...silenceOf(alert.silenced, now),
    resourceType: text((alert.metadata as AlertMetadata | undefined)?.resourceType),
    pending: pending.has(alert.id),
    notes: toNoteViews(alert.notes),
  }
}

const PERCENT_TYPES: ReadonlySet<string> = new Set(['cpu', 'memory', 'disk', 'usage'])
const RATE_TYPES: ReadonlySet<string> = new Set([
  'diskRead',
  'diskWrite',
  'networkIn',
  'networkOut',
])

/** The unit of a metric alert's value; null for state alerts, which have no value to show. */
function unitOf(alert: Entity, type: string): string | null {
  const metadata = alert.metadata
  if (metadata && typeof metadata === 'object' && 'unit' in metadata) {
    const unit = (metadata as { unit?: unknown }).unit
    if (typeof unit === 'string') return unit
  }
  if (PERCENT_TYPES.has(type)) return '%'
  if (RATE_TYPES.has(type)) return ' MB/s'
  if (type === 'temperature') return '°C'
  return null
}

function formatValue(value: unknown, unit: string): string {
  if (typeof value !== 'number' || !Number.isFinite(value)) return ''
  // The server's metadata gives 'MB/s' bare; a rate reads better spaced from its number.
  const suffix = unit === 'MB/s' ? ' MB/s' : unit
  return `${value.toFixed(1)}${suffix}`
}

/** How long ago `startMs` was: 'just now', '5m ago', '2h 5m ago', '3d 4h ago'. */
export function formatSince(startMs: number, now: number): string {
  if (!Number.isFinite(startMs)) return ''
  const minutes = Math.floor(Math.max(0, now - startMs) / MINUTE_MS)
  if (minutes < 1) return 'just now'
  if (minutes < 60) return `${minutes}m ago`
  const hours = Math.floor(minutes / 60)
  if (hours < 24) return `${hours}h ${minutes % 60}m ago`
  return `${Math.floor(hours / 24)}d ${hours % 24}h ago`
}

/** The silence covering an alert, as the row shows it. */
function silenceOf(value: unknown, now: number): { silenceId: string; silencedText: string } {
  if (!value || typeof value !== 'object') return { silenceId: '', silencedText: '' }
  const { silenceId, until } = value as { silenceId?: unknown; until?: unknown }
  if (typeof silenceId !== 'string' || silenceId === '') return { silenceId: '', silencedText: '' }
  return {
    silenceId,
    silencedText: formatLeft(typeof until === 'string' ? Date.parse(until) : NaN, now),
  }
}

/** '43m left', '2h 5m left', '3d 4h left', 'under a minute left'; 'until ended' without an end. */
export function formatLeft(untilMs: number, now: number): string {
  if (!Number.isFinite(untilMs)) return 'until ended'
  const minutes = Math.floor(Math.max(0, untilMs - now) / MINUTE_MS)
  if (minutes < 1) return 'under a minute left'
  if (minutes < 60) return `${minutes}m left`
  const hours = Math.floor(minutes / 60)
  if (hours < 24) return `${hours}h ${minutes % 60}m left`
  return `${Math.floor(hours / 24)}d ${hours % 24}h left`
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : ''
}
