// Frames of a publication, serialised once and shared by every client that needs them: the full
// states (plain and delta mode 1), the deltas of both delta modes, the binary metrics frame, and
// the chunks of the paced first load of delta mode 2 (hub-snapshot.ts).
import { encodeMetricsFrame } from '../../shared/model/guest-metrics.ts'
import { ON_DEMAND_COLLECTIONS, type StateDelta } from '../../shared/model/messages.ts'
import { ENTITY_COLLECTIONS, type EntityCollection } from '../../shared/model/state.ts'
import type { Publication } from '../live/live-state.ts'
import { createPlainStateConverter, type PlainState } from './plain-state.ts'
import { stringifySliced } from './sliced-json.ts'

/** A frame as the socket sends it: text (JSON; a Buffer holds large text) or binary. */
export type Frame = string | Buffer | ArrayBuffer

/** Rows per chunk of a first load: about 1 MB of guests (a few ms to build and to parse). */
export const SNAPSHOT_CHUNK_ROWS = 2000

/** The collections that always come in chunks (the dashboard's first); others when large. */
const GUEST_KEYS: readonly EntityCollection[] = ['vms', 'containers']

/**
 * The whole-state frames (and mode 1's delta, as large as the estate) are built in slices
 * (sliced-json.ts), so they are promises; mode 2's frames are small or chunked, built at once.
 */
export interface PublicationFrames {
  /** The state of `p` in the plain dialect's shapes, converted once per publication. */
  plainState(p: Publication): PlainState
  full(p: Publication): Promise<Buffer>
  plainFull(p: Publication): Promise<Buffer>
  raw(p: Publication): Promise<Buffer>
  /** Delta mode 1 (all JSON). */
  delta(p: Publication): Promise<Buffer>
  /**
   * Delta mode 2: the JSON delta, then the metrics frame when guests' numbers changed; without
   * the on-demand collections for a client that has not asked for them.
   */
  delta2(p: Publication, backups: boolean): Frame[]
  /**
   * `p` is no longer the current publication: let go of its whole-state frames (and the plain
   * state they were made from). Only its deltas can still be sent (a client catching up); a
   * whole state always goes out of the current one. At 100,000 guests with their backups each of
   * those is hundreds of MB, and the hub keeps the last few publications.
   */
  retire(p: Publication): void
}

/** Frame caches keyed by publication; a publication's frames go with it. */
export function createPublicationFrames(): PublicationFrames {
  const toPlainState = createPlainStateConverter()
  type Cache = {
    plainState?: PlainState
    full?: Promise<Buffer>
    plainFull?: Promise<Buffer>
    raw?: Promise<Buffer>
    delta?: Promise<Buffer>
    delta2?: Frame[]
    delta2Lean?: Frame[]
  }
  const caches = new WeakMap<Publication, Cache>()
  const cacheOf = (p: Publication): Cache => {
    let cache = caches.get(p)
    if (!cache) caches.set(p, (cache = {}))
    return cache
  }
  const plainState = (p: Publication): PlainState =>
    (cacheOf(p).plainState ??= toPlainState(p.state))
  return {
    plainState,
    full: (p) =>
      (cacheOf(p).full ??= stringifySliced({ type: 'initialState', seq: p.seq, data: p.state })),
    // The plain dialect carries the reference's shapes (backup times as strings); the delta
    // dialects, read only by our worker, keep the numbers.
    plainFull: (p) =>
      (cacheOf(p).plainFull ??= stringifySliced({
        type: 'initialState',
        data: plainState(p),
      })),
    raw: (p) => (cacheOf(p).raw ??= stringifySliced({ type: 'rawData', data: plainState(p) })),
    delta: (p) =>
      (cacheOf(p).delta ??= stringifySliced({ type: 'delta', seq: p.seq, data: p.delta ?? {} })),
    delta2(p, backups) {
      const cache = cacheOf(p)
      const cached = backups ? cache.delta2 : cache.delta2Lean
      if (cached) return cached
      const metrics = p.changes?.metrics ?? null
      const delta = p.changes?.delta ?? {}
      // seq first: a reader that looks only at a frame's head finds it.
      const text = JSON.stringify({
        type: 'delta',
        seq: p.seq,
        data: backups ? delta : withoutOnDemand(delta),
        // The worker waits for the binary frame of the same seq before it counts the cycle done.
        ...(metrics ? { metrics: metrics.slots.length } : {}),
      })
      const binary = metrics ? ((backups ? cache.delta2Lean : cache.delta2)?.[1] ?? null) : null
      const frames: Frame[] = metrics
        ? [text, binary ?? encodeMetricsFrame(p.seq, metrics)]
        : [text]
      if (backups) cache.delta2 = frames
      else cache.delta2Lean = frames
      return frames
    },
    retire(p) {
      const cache = caches.get(p)
      if (!cache) return
      // A frame still being built or queued is held by whoever awaits it; not by this cache.
      delete cache.plainState
      delete cache.full
      delete cache.plainFull
      delete cache.raw
    },
  }
}

/** A delta without the on-demand collections (for a client that has not asked for them). */
function withoutOnDemand(delta: StateDelta): StateDelta {
  if (!delta.upsert && !delta.remove) return delta
  const strip = <T>(part: Partial<Record<EntityCollection, T>> | undefined) => {
    if (!part) return part
    const out: Partial<Record<EntityCollection, T>> = {}
    for (const key in part) {
      if (!ON_DEMAND_COLLECTIONS.includes(key))
        out[key as EntityCollection] = part[key as EntityCollection]
    }
    return out
  }
  return { ...delta, upsert: strip(delta.upsert), remove: strip(delta.remove) }
}

/**
 * What a first load carries: everything (`all`), everything but the on-demand collections
 * (`dashboard`), or only those (`backups`, for a client that asks for them later).
 */
export type SnapshotScope = 'all' | 'dashboard' | 'backups'

/** The frames of one first load (delta mode 2), built lazily, one chunk at a time. */
export interface SnapshotSource {
  publication: Publication
  /** Number of frames: the head, every chunk, the end. */
  readonly length: number
  /** Frame `i` (0 = head); built on first use, kept for the other clients loading the same one. */
  frame(i: number): string
  /** Total rows per chunked collection, as the head announces them. */
  readonly counts: Partial<Record<EntityCollection, number>>
}

/**
 * The first load of `p`: a head with the scalars and every small collection (nodes, storage,
 * …) announcing the chunked ones and their sizes, then the guests (VMs, then containers), then
 * the other large collections (backups), `SNAPSHOT_CHUNK_ROWS` rows per chunk; then an end
 * frame. `slotOf` gives each guest's metrics-frame slot.
 */
export function createSnapshotSource(
  p: Publication,
  slotOf: (id: string) => number | undefined,
  chunkRows = SNAPSHOT_CHUNK_ROWS,
  scope: SnapshotScope = 'all',
): SnapshotSource {
  const state = p.state as unknown as Record<string, unknown>
  const onDemand = (key: string) => ON_DEMAND_COLLECTIONS.includes(key)
  const chunked = ENTITY_COLLECTIONS.filter((key) => {
    if (scope === 'backups') return onDemand(key)
    if (scope === 'dashboard' && onDemand(key)) return false
    return GUEST_KEYS.includes(key) || (state[key] as unknown[]).length > chunkRows
  }).sort((a, b) => Number(!GUEST_KEYS.includes(a)) - Number(!GUEST_KEYS.includes(b)))
  const plan: Array<{ key: EntityCollection; from: number }> = []
  const counts: Partial<Record<EntityCollection, number>> = {}
  for (const key of chunked) {
    const rows = state[key] as unknown[]
    counts[key] = rows.length
    for (let from = 0; from < rows.length; from += chunkRows) plan.push({ key, from })
  }
  const built = new Map<number, string>()
  const build = (i: number): string => {
    if (i === 0) {
      const head: Record<string, unknown> = {}
      for (const key in state) {
        const skip =
          scope === 'backups' ||
          chunked.includes(key as EntityCollection) ||
          (scope === 'dashboard' && onDemand(key))
        if (!skip) head[key] = state[key]
      }
      return JSON.stringify({
        type: 'snapshot',
        seq: p.seq,
        data: head,
        counts,
        ...(scope === 'backups' ? { partial: true } : {}),
      })
    }
    const step = plan[i - 1]
    if (!step) return JSON.stringify({ type: 'snapshotEnd', seq: p.seq })
    const rows = (state[step.key] as Array<{ id: string }>).slice(step.from, step.from + chunkRows)
    const slots = GUEST_KEYS.includes(step.key) ? rows.map((row) => slotOf(row.id) ?? -1) : null
    return JSON.stringify({
      type: 'snapshotChunk',
      seq: p.seq,
      key: step.key,
      rows,
      ...(slots ? { slots } : {}),
    })
  }
  return {
    publication: p,
    length: plan.length + 2,
    counts,
    frame(i) {
      let frame = built.get(i)
      if (frame === undefined) built.set(i, (frame = build(i)))
      return frame
    },
  }
}
