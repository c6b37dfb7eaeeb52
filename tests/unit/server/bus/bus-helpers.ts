// Shared by the bus tests: a quiet log and waiting for a condition instead of sleeping.
import type { BusLog } from '../../../../src/server/bus/nats-bus.ts'

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
