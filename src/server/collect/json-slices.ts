// JSON.parse in slices: a large Proxmox answer (a 17 MB /cluster/resources at 100k guests, storage
// content and PBS snapshot lists of hundreds of thousands of entries) parsed with one JSON.parse
// would hold the event loop for hundreds of ms. Here the bytes are split at the element and member
// boundaries of large arrays and objects, each piece of at most `pieceBytes` goes through the
// native JSON.parse, and the work yields to the loop whenever a slice has run for `sliceMs`.
//
// Why not a worker thread: the parsed objects must end up on this thread's heap, and a structured
// clone from a worker costs this thread about as much as JSON.parse itself, in one slice. Slicing
// keeps the native parser, bounds every slice, and never holds the answer as a string as well.
//
// The result equals JSON.parse of the UTF-8 text (with a leading BOM dropped, as undici's text()
// does); every input JSON.parse rejects is rejected here too (a SyntaxError).

/** Tuning of parseJsonSliced. */
export interface SliceOptions {
  /** Largest text handed to one JSON.parse when it can be split; default 128 KiB. */
  pieceBytes?: number
  /** Longest synchronous run before yielding to the event loop; default 10 ms. */
  sliceMs?: number
  /**
   * Largest value that cannot be split (a string or number) before the answer is refused as
   * hostile; default 16 MiB.
   */
  maxScalarBytes?: number
  /**
   * Applied to each element of the envelope's list (the `data` member of the top-level object,
   * when it is an array) as soon as that element is parsed; elements it maps to undefined are
   * left out. A listing of hundreds of thousands of entries is then never held as raw objects:
   * each piece's raw entries die young, and only what the mapper keeps stays.
   */
  each?: ListMapper
}

/** Maps one element of a list answer; what it maps to undefined is left out. */
export type ListMapper = (item: unknown) => unknown

/**
 * `body` with the list of its `data` member mapped, as parseJsonSliced with `each` gives it (for
 * an answer parsed whole).
 */
export function mapEnvelopeList(body: unknown, each?: ListMapper): unknown {
  if (each && isPlainObject(body) && Array.isArray(body.data))
    body.data = pushAll(body.data, [], each)
  return body
}

/** Thrown for a single value over `maxScalarBytes`. */
export class JsonTooLargeError extends Error {}

const QUOTE = 0x22
const BACKSLASH = 0x5c
const COMMA = 0x2c
const COLON = 0x3a
const OPEN_ARRAY = 0x5b
const CLOSE_ARRAY = 0x5d
const OPEN_OBJECT = 0x7b
const CLOSE_OBJECT = 0x7d
/** Bytes scanned between two looks at the clock. */
const CHECK_EVERY = 65_536

interface Ctx {
  buf: Buffer
  piece: number
  sliceMs: number
  maxScalar: number
  sliceStart: number
}

/** Parses UTF-8 JSON like JSON.parse, yielding to the event loop between bounded slices. */
export async function parseJsonSliced(bytes: Buffer, options: SliceOptions = {}): Promise<unknown> {
  let start = 0
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) start = 3
  const ctx: Ctx = {
    buf: bytes,
    piece: options.pieceBytes ?? 128 * 1024,
    sliceMs: options.sliceMs ?? 10,
    maxScalar: options.maxScalarBytes ?? 16 * 1024 * 1024,
    sliceStart: performance.now(),
  }
  const [s, e] = trim(bytes, start, bytes.length)
  return parseValue(ctx, s, e, options.each && { envelope: options.each })
}

/** Where the mapper applies: `envelope` at the top-level object, `list` at its `data` array. */
type MapAt = { envelope: ListMapper } | { list: ListMapper } | undefined

/** Appends `items` to `out`, through `each` when given (JSON holds no undefined of its own). */
function pushAll(items: unknown[], out: unknown[], each?: ListMapper): unknown[] {
  for (const item of items) {
    const value = each ? each(item) : item
    if (value !== undefined) out.push(value)
  }
  return out
}

/** The mapper for the value of the member `key` of an object parsed with `at`. */
function memberAt(at: MapAt, key: string): MapAt {
  return at && 'envelope' in at && key === 'data' ? { list: at.envelope } : undefined
}

async function pause(ctx: Ctx): Promise<void> {
  if (performance.now() - ctx.sliceStart < ctx.sliceMs) return
  await new Promise<void>((resolve) => setImmediate(resolve))
  ctx.sliceStart = performance.now()
}

function isSpace(c: number | undefined): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09
}

function trim(buf: Buffer, s: number, e: number): [number, number] {
  while (s < e && isSpace(buf[s])) s++
  while (e > s && isSpace(buf[e - 1])) e--
  return [s, e]
}

function syntax(at: number): SyntaxError {
  return new SyntaxError(`Unexpected token in JSON at position ${at}`)
}

function parseText(ctx: Ctx, s: number, e: number, open = '', close = ''): unknown {
  return JSON.parse(open + ctx.buf.toString('utf8', s, e) + close)
}

async function parseValue(ctx: Ctx, s: number, e: number, at?: MapAt): Promise<unknown> {
  await pause(ctx)
  const each = at && 'list' in at ? at.list : undefined
  if (e - s <= ctx.piece) {
    const value = parseText(ctx, s, e)
    if (at && 'envelope' in at) return mapEnvelopeList(value, at.envelope)
    return each && Array.isArray(value) ? pushAll(value, [], each) : value
  }
  const open = ctx.buf[s]
  const close = ctx.buf[e - 1]
  if (open === OPEN_ARRAY && close === CLOSE_ARRAY) return parseArray(ctx, s, e, each)
  if (open === OPEN_OBJECT && close === CLOSE_OBJECT) {
    return parseObject(ctx, s, e, at && 'envelope' in at ? at : undefined)
  }
  if (e - s > ctx.maxScalar) throw new JsonTooLargeError(`a value of ${e - s} bytes`)
  return parseText(ctx, s, e)
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Index of the quote closing the string that opens at `at`; throws when there is none. */
function skipString(buf: Buffer, at: number, end: number): number {
  let q = buf.indexOf(QUOTE, at + 1)
  while (q >= 0 && q < end) {
    let slashes = 0
    while (buf[q - 1 - slashes] === BACKSLASH) slashes++
    if (slashes % 2 === 0) return q
    q = buf.indexOf(QUOTE, q + 1)
  }
  throw syntax(at)
}

/**
 * Walks the inside of the container [s, e) (its brackets excluded) and calls `onItem` with the
 * range of each top-level element or member, or throws on an empty one or unbalanced brackets.
 */
async function scanItems(
  ctx: Ctx,
  s: number,
  e: number,
  onItem: (from: number, to: number, last: boolean) => Promise<void>,
): Promise<void> {
  const { buf } = ctx
  const end = e - 1
  let depth = 0
  let itemStart = s + 1
  let sawValue = false
  let items = 0
  let nextCheck = itemStart + CHECK_EVERY
  for (let i = itemStart; i < end; i++) {
    if (i >= nextCheck) {
      nextCheck = i + CHECK_EVERY
      await pause(ctx)
    }
    const c = buf[i]!
    if (c === QUOTE) {
      i = skipString(buf, i, end)
      sawValue = true
    } else if (c === COMMA && depth === 0) {
      if (!sawValue) throw syntax(i)
      await onItem(itemStart, i, false)
      items++
      itemStart = i + 1
      sawValue = false
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      depth++
      sawValue = true
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      if (--depth < 0) throw syntax(i)
    } else if (!isSpace(c)) {
      sawValue = true
    }
  }
  if (depth !== 0) throw syntax(end)
  if (sawValue) await onItem(itemStart, end, true)
  else if (items > 0) throw syntax(end)
}

// Proxmox writes compact JSON: the elements of a list of objects are joined by `},{`. Cutting there
// and parsing `[` + piece + `]` is right whenever that parse succeeds (the tokens of a valid prefix
// are those of the whole text, so the cut `}` closed an element); when it fails (the cut was
// inside a string or a nested list), or no cut is near, the rest is scanned byte by byte.
const CUT = Buffer.from('},{')

async function parseArray(ctx: Ctx, s: number, e: number, each?: ListMapper): Promise<unknown[]> {
  const out: unknown[] = []
  const start = await cutArray(ctx, s + 1, e - 1, out, each)
  if (start === e - 1) return out
  return scanArray(ctx, start - 1, e, out, each)
}

/** Parses [from, end) at `},{` cuts into `out`; returns where it stopped (end when done). */
async function cutArray(
  ctx: Ctx,
  from: number,
  end: number,
  out: unknown[],
  each?: ListMapper,
): Promise<number> {
  let pieceStart = from
  while (pieceStart < end) {
    await pause(ctx)
    const cut = ctx.buf.indexOf(CUT, pieceStart + ctx.piece)
    const to = cut >= 0 && cut < end ? cut + 1 : end
    if (to - pieceStart > 4 * ctx.piece) return pieceStart
    let items: unknown[]
    try {
      items = parseText(ctx, pieceStart, to, '[', ']') as unknown[]
    } catch {
      return pieceStart
    }
    if (to < end && items.length === 0) return pieceStart
    pushAll(items, out, each)
    pieceStart = to === end ? end : to + 1
  }
  return end
}

// `s` is the byte before the first element still to parse: a '[' or the ',' after a cut.
async function scanArray(
  ctx: Ctx,
  s: number,
  e: number,
  out: unknown[],
  each?: ListMapper,
): Promise<unknown[]> {
  let pieceStart = s + 1
  const flush = (to: number) => {
    if (to > pieceStart) pushAll(parseText(ctx, pieceStart, to, '[', ']') as unknown[], out, each)
  }
  await scanItems(ctx, s, e, async (from, to, last) => {
    if (to - from > ctx.piece) {
      // One element too large for a piece: the ones before it, then it on its own.
      flush(from - 1)
      const [vs, ve] = trim(ctx.buf, from, to)
      pushAll([await parseValue(ctx, vs, ve)], out, each)
      pieceStart = to + 1
    } else if (last || to - pieceStart >= ctx.piece) {
      flush(to)
      pieceStart = to + 1
    }
  })
  return out
}

// The envelope `{"data":[...]}`: one member whose value runs to the closing brace. Parsed that way
// first; if that fails (several members, or not JSON), the object is scanned member by member.
async function parseObject(
  ctx: Ctx,
  s: number,
  e: number,
  at?: MapAt,
): Promise<Record<string, unknown>> {
  const [ks, end] = trim(ctx.buf, s + 1, e - 1)
  if (ctx.buf[ks] === QUOTE) {
    try {
      const keyEnd = skipString(ctx.buf, ks, end)
      const key = parseText(ctx, ks, keyEnd + 1) as string
      const [cs] = trim(ctx.buf, keyEnd + 1, end)
      if (ctx.buf[cs] === COLON) {
        const [vs, ve] = trim(ctx.buf, cs + 1, end)
        const value = await parseValue(ctx, vs, ve, memberAt(at, key))
        const out: Record<string, unknown> = {}
        Object.defineProperty(out, key, {
          value,
          writable: true,
          enumerable: true,
          configurable: true,
        })
        return out
      }
    } catch {
      // scanned below
    }
  }
  return scanObject(ctx, s, e, at)
}

async function scanObject(
  ctx: Ctx,
  s: number,
  e: number,
  at?: MapAt,
): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {}
  let pieceStart = s + 1
  // Like JSON.parse: own data properties (even `__proto__`), a repeated key keeps its first place
  // and takes the last value.
  const set = (key: string, value: unknown) =>
    Object.defineProperty(out, key, { value, writable: true, enumerable: true, configurable: true })
  const flush = (to: number) => {
    if (to <= pieceStart) return
    const part = parseText(ctx, pieceStart, to, '{', '}') as Record<string, unknown>
    for (const key of Object.keys(part)) {
      const value = part[key]
      const each = at && 'envelope' in at && key === 'data' ? at.envelope : undefined
      set(key, each && Array.isArray(value) ? pushAll(value, [], each) : value)
    }
  }
  await scanItems(ctx, s, e, async (from, to, last) => {
    if (to - from > ctx.piece) {
      flush(from - 1)
      const [ms, me] = trim(ctx.buf, from, to)
      if (ctx.buf[ms] !== QUOTE) throw syntax(ms)
      const keyEnd = skipString(ctx.buf, ms, me)
      const key = parseText(ctx, ms, keyEnd + 1) as string
      let colon = keyEnd + 1
      while (colon < me && isSpace(ctx.buf[colon])) colon++
      if (ctx.buf[colon] !== COLON) throw syntax(colon)
      const [vs, ve] = trim(ctx.buf, colon + 1, me)
      set(key, await parseValue(ctx, vs, ve, memberAt(at, key)))
      pieceStart = to + 1
    } else if (last || to - pieceStart >= ctx.piece) {
      flush(to)
      pieceStart = to + 1
    }
  })
  return out
}
