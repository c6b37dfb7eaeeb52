// How a poll from the collector thread is published (live-state.ts applyCollectedChanges): the
// thread's changes stand for every collected collection the published state took as collected;
// the rest (what `derive` and `decorate` set or replaced, and every scalar) is diffed here.
import type { StateChanges } from '../../shared/model/delta-steps.ts'
import type { StateDelta } from '../../shared/model/messages.ts'
import type { State } from '../../shared/model/state.ts'
import { COLLECTED_ENTITIES } from '../collect/poller-thread-protocol.ts'

/**
 * The collections whose changes the thread computed for this publication: those the previous
 * publication held as collected (`before`, the copy's state before the changes) and the next one
 * holds as collected (`after`).
 */
export function threadKnownKeys(
  prev: State,
  before: State,
  next: State,
  after: State,
): Set<string> {
  const known = new Set<string>()
  for (const key of COLLECTED_ENTITIES) {
    if (prev[key] === before[key] && next[key] === after[key]) known.add(key)
  }
  return known
}

/** The publication's changes: `thread`'s for the `known` collections, `own` for the rest. */
export function mergeThreadChanges(
  own: StateChanges,
  thread: StateChanges,
  known: ReadonlySet<string>,
): StateChanges {
  const delta: StateDelta = {}
  let empty = true
  for (const side of ['upsert', 'remove'] as const) {
    const out: Record<string, unknown[]> = {}
    for (const [key, list] of Object.entries(own.delta?.[side] ?? {})) {
      if (!known.has(key) && list.length) out[key] = list
    }
    for (const [key, list] of Object.entries(thread.delta?.[side] ?? {})) {
      if (known.has(key) && list.length) out[key] = list
    }
    if (Object.keys(out).length) {
      ;(delta as Record<string, unknown>)[side] = out
      empty = false
    }
  }
  const slots = thread.delta?.guestSlots
  if (slots && Object.keys(slots).length) {
    delta.guestSlots = slots
    empty = false
  }
  if (own.delta?.scalars) {
    delta.scalars = own.delta.scalars
    empty = false
  }
  return { delta: empty ? null : delta, metrics: thread.metrics }
}
