// JSON of a large value, built in slices into a Buffer: the full states of the plain dialect and
// delta mode 1 reach hundreds of MB at 100,000 guests with their backups. One JSON.stringify of
// them holds the event loop for seconds and, past V8's longest string (about 512 M characters),
// throws. Here arrays are written 2,000 elements at a time, each slice its own Buffer, with the
// event loop given back between slices; the result is one Buffer, which has no such limit.
import { setImmediate as nextTurn } from 'node:timers/promises'
import { performance } from 'node:perf_hooks'
import { SLICE_BUDGET_MS } from '../live/run-sliced.ts'

/** Elements of an array written as one piece. */
export const JSON_SLICE_ELEMENTS = 2000

/** The same text as `JSON.stringify(value)`, as UTF-8, built without holding the event loop. */
export async function stringifySliced(value: unknown): Promise<Buffer> {
  return Buffer.concat(await stringifySlicedParts(value))
}

/**
 * The same, in the pieces it was built in: a caller that sends them in chunks (the bus's
 * snapshot) saves the one copy of the whole, tens of MB at 100,000 guests in one turn.
 */
export async function stringifySlicedParts(value: unknown): Promise<Buffer[]> {
  const parts: Buffer[] = []
  let started = performance.now()
  for (const piece of pieces(value)) {
    parts.push(Buffer.from(piece))
    if (performance.now() - started < SLICE_BUDGET_MS) continue
    await nextTurn()
    started = performance.now()
  }
  return parts
}

// Small values go whole; objects and large arrays are opened up, so no piece is large.
function* pieces(value: unknown): Generator<string, void, void> {
  if (Array.isArray(value)) {
    if (value.length <= JSON_SLICE_ELEMENTS) {
      yield JSON.stringify(value)
      return
    }
    yield '['
    for (let from = 0; from < value.length; from += JSON_SLICE_ELEMENTS) {
      const slice = JSON.stringify(value.slice(from, from + JSON_SLICE_ELEMENTS))
      // The slice's own brackets dropped; a comma between slices.
      yield (from ? ',' : '') + slice.slice(1, -1)
    }
    yield ']'
    return
  }
  if (!isPlainObject(value)) {
    yield JSON.stringify(value) ?? 'null'
    return
  }
  yield '{'
  let first = true
  for (const key of Object.keys(value)) {
    const item = value[key]
    // JSON.stringify leaves out these members.
    if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue
    yield `${first ? '' : ','}${JSON.stringify(key)}:`
    first = false
    yield* pieces(item)
  }
  yield '}'
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false
  // Dates, Maps and objects with toJSON keep JSON.stringify's own behaviour.
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return false
  const proto = Object.getPrototypeOf(value) as unknown
  return proto === Object.prototype || proto === null
}
