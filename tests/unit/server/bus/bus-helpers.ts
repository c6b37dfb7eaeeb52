// Shared by the bus tests: a quiet log, waiting for a condition instead of sleeping, comparing states.
import type { BusLog } from '../../../../src/server/bus/nats-bus.ts'
import { ENTITY_COLLECTIONS, type State } from '../../../../src/shared/model/state.ts'

export const quietLog: BusLog = { info: () => undefined, warn: () => undefined }

/** Resolve once `check` returns true, polling; fail with `what` after `timeoutMs`. */
export async function waitFor(check: () => boolean, what: string, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

/** A payload of `size` bytes with a recognisable pattern. */
export function patterned(size: number): Uint8Array {
  const out = new Uint8Array(size)
  for (let i = 0; i < size; i++) out[i] = (i * 31 + 7) & 0xff
  return out
}

/**
 * A state as JSON with every entity collection ordered by id: the delta protocol addresses rows
 * by id, and a re-added row is appended where the collector has it in poll order.
 */
export function canonical(state: State | null): unknown {
  if (!state) return null
  const copy = JSON.parse(JSON.stringify(state)) as Record<string, unknown>
  for (const key of ENTITY_COLLECTIONS) {
    const rows = copy[key] as Array<{ id: string }>
    rows.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
  }
  return copy
}
