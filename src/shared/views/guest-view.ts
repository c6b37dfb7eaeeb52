// The guest view pipeline: filter → sort → group → window, each stage memoized on input identity.
// Pure: the worker owns one pipeline per subscription and calls `compute` on data or request change.
import type { Entity, Guest, PveNode } from '../model/state.ts'
import type { GuestViewModel, GuestViewRequest } from './guest-view-types.ts'
import { memoizeStage } from './memo.ts'
import { indexGuestNodes } from './guest-nodes.ts'
import { compileGuestMatcher } from './guest-matcher.ts'
import { filterGuests } from './guest-filter.ts'
import { sortGuests } from './guest-sort.ts'
import { groupGuests } from './guest-group.ts'
import { formatWindow } from './guest-rows.ts'
import { indexGuestAlerts, type GuestAlertIndex } from './guest-alerts.ts'

const NO_ALERTS: readonly Entity[] = Object.freeze([])

/** Stages of the guest pipeline, in order. */
export const GUEST_STAGES = [
  'nodes',
  'matcher',
  'filter',
  'sort',
  'group',
  'alerts',
  'window',
  'model',
] as const
export type GuestStage = (typeof GUEST_STAGES)[number]

/** Live data the pipeline reads. Arrays must keep their identity while unchanged. */
export interface GuestViewInput {
  /** VMs and containers together. */
  guests: readonly Guest[]
  nodes: readonly PveNode[]
  /** Active alerts (spec 000 §3 Alert); absent means none. */
  alerts?: readonly Entity[]
  lastUpdate: number
}

/** A view model before the worker stamps its version. */
export type GuestViewResult = Omit<GuestViewModel, 'version'>

/** A memoized pipeline; `runs` counts how often each stage actually ran (tests and benches). */
export interface GuestViewPipeline {
  compute(input: GuestViewInput, request: GuestViewRequest): GuestViewResult
  readonly runs: Readonly<Record<GuestStage, number>>
}

/** Create a pipeline. Equal inputs give the identical result object, so callers can skip pushes. */
export function createGuestViewPipeline(): GuestViewPipeline {
  const runs = Object.fromEntries(GUEST_STAGES.map((stage) => [stage, 0])) as Record<
    GuestStage,
    number
  >
  const counted = <A extends readonly unknown[], R>(stage: GuestStage, run: (...args: A) => R) =>
    memoizeStage(run, () => runs[stage]++)

  const indexNodes = counted('nodes', indexGuestNodes)
  const compileMatcher = counted('matcher', compileGuestMatcher)
  const filter = counted(
    'filter',
    (
      guests: readonly Guest[],
      nodes: ReturnType<typeof indexGuestNodes>,
      viewMode: GuestViewRequest['viewMode'],
      statusMode: GuestViewRequest['statusMode'],
      selectedNode: string | null,
      matcher: ReturnType<typeof compileGuestMatcher>,
    ) => filterGuests(guests, nodes, { viewMode, statusMode, selectedNode, matcher }),
  )
  const sort = counted('sort', sortGuests)
  const indexAlerts = counted('alerts', indexGuestAlerts)
  const group = counted('group', groupGuests)
  const windowRows = counted(
    'window',
    (
      guests: readonly Guest[],
      layout: ReturnType<typeof groupGuests>,
      nodes: ReturnType<typeof indexGuestNodes>,
      start: number,
      count: number,
      alerts: GuestAlertIndex,
    ) => formatWindow(guests, layout, nodes, { start, count }, alerts),
  )
  const toModel = counted(
    'model',
    (
      guestCount: number,
      filtered: ReturnType<typeof filterGuests>,
      layout: ReturnType<typeof groupGuests>,
      slice: ReturnType<typeof formatWindow>,
      lastUpdate: number,
    ): GuestViewResult => ({
      kind: 'guests',
      totals: {
        guests: guestCount,
        running: filtered.running,
        stopped: filtered.stopped,
        matched: filtered.order.length,
      },
      rowCount: layout.entries.length,
      start: slice.start,
      rows: slice.rows,
      lastUpdate,
    }),
  )

  return {
    runs,
    compute(input, request) {
      const nodes = indexNodes(input.nodes)
      const matcher = compileMatcher(request.search)
      const filtered = filter(
        input.guests,
        nodes,
        request.viewMode,
        request.statusMode,
        request.selectedNode,
        matcher,
      )
      const sorted = sort(input.guests, filtered.order, request.sort.key, request.sort.direction)
      const layout = group(input.guests, sorted, request.grouping, nodes)
      const { start, count } = request.window
      const alerts = indexAlerts(input.alerts ?? NO_ALERTS)
      const slice = windowRows(input.guests, layout, nodes, start, count, alerts)
      return toModel(input.guests.length, filtered, layout, slice, input.lastUpdate)
    },
  }
}
