import { describe, expect, it } from 'vitest'
import { JsonTooLargeError, parseJsonSliced } from '../../../../src/server/collect/json-slices.ts'

// A seeded generator of JSON values that stress the splitter: brackets, commas, colons and
// escaped quotes inside strings, `__proto__` and repeated keys, nesting of every kind.
function createRandom(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0
    return state / 2 ** 32
  }
}

const TRICKY = [
  'a',
  '[',
  ']',
  '{',
  '}',
  ',',
  ':',
  '"',
  '\\',
  '\\"',
  'é',
  '😀',
  ' ',
  '\n',
  '__proto__',
]

function randomString(rand: () => number): string {
  let out = ''
  const n = Math.floor(rand() * 6)
  for (let i = 0; i < n; i++) out += TRICKY[Math.floor(rand() * TRICKY.length)]
  return out
}

// Text, not values: repeated keys and odd spacing only exist in text.
function randomJson(rand: () => number, depth: number): string {
  const ws = () => [' ', '', '\n\t', ''][Math.floor(rand() * 4)]!
  const kind = depth <= 0 ? Math.floor(rand() * 4) : Math.floor(rand() * 6)
  if (kind === 0) return JSON.stringify(randomString(rand))
  if (kind === 1) return String(Math.round((rand() - 0.5) * 1e6) / 100)
  if (kind === 2) return ['true', 'false', 'null'][Math.floor(rand() * 3)]!
  if (kind === 3) return '1e3'
  const n = Math.floor(rand() * 8)
  const items: string[] = []
  for (let i = 0; i < n; i++) {
    const value = randomJson(rand, depth - 1)
    if (kind === 4) items.push(ws() + value + ws())
    else {
      const key = rand() < 0.2 ? '__proto__' : rand() < 0.3 ? 'k' : randomString(rand)
      items.push(`${ws()}${JSON.stringify(key)}${ws()}:${ws()}${value}${ws()}`)
    }
  }
  return kind === 4 ? `[${items.join(',')}]` : `{${items.join(',')}}`
}

async function outcome(text: string, pieceBytes: number): Promise<unknown> {
  const bytes = Buffer.from(text)
  const expected = (() => {
    try {
      return { ok: JSON.parse(text) as unknown }
    } catch {
      return 'rejected'
    }
  })()
  const actual = await parseJsonSliced(bytes, { pieceBytes }).then(
    (ok) => ({ ok }),
    (err: unknown) => (err instanceof SyntaxError ? 'rejected' : err),
  )
  return { expected, actual }
}

describe('parseJsonSliced', () => {
  it('equals JSON.parse on random documents split into pieces of every size', async () => {
    const rand = createRandom(27)
    for (let i = 0; i < 300; i++) {
      const text = randomJson(rand, 4)
      const pieceBytes = 1 + Math.floor(rand() * 64)
      const { expected, actual } = (await outcome(text, pieceBytes)) as Record<string, unknown>
      expect(actual, text).toStrictEqual(expected)
    }
  })

  it('cuts a compact list of objects only where an element ends', async () => {
    const rand = createRandom(9)
    for (let i = 0; i < 200; i++) {
      const data = Array.from({ length: 1 + Math.floor(rand() * 30) }, (_, k) => ({
        name: ['},{', 'a"},{"b', '\\},{'][k % 3]!,
        files: [{ f: k }, { f: '},{' }],
        n: k,
      }))
      const tail = rand() < 0.5 ? '' : ',"total":3'
      const text = `{"data":${JSON.stringify(data)}${tail}}`
      const { expected, actual } = (await outcome(text, 1 + Math.floor(rand() * 80))) as Record<
        string,
        unknown
      >
      expect(actual, text).toStrictEqual(expected)
      const cut = text.slice(0, Math.floor(rand() * text.length))
      const broken = (await outcome(cut, 16)) as Record<string, unknown>
      expect(broken.actual, cut).toStrictEqual(broken.expected)
    }
  })

  it('keeps own __proto__ keys and the last value of a repeated key in its first place', async () => {
    const text = '{"b":1,"__proto__":{"x":1},"a":[1,2,3],"b":2,"10":0,"2":0}'
    const parsed = (await parseJsonSliced(Buffer.from(text), { pieceBytes: 4 })) as object
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype)
    expect(Object.keys(parsed)).toEqual(Object.keys(JSON.parse(text) as object))
    expect(parsed).toStrictEqual(JSON.parse(text))
  })

  it('rejects every truncation and every corruption JSON.parse rejects', async () => {
    const rand = createRandom(5)
    const text = JSON.stringify({ data: JSON.parse(randomJson(rand, 5)), more: [1, { a: '"]' }] })
    for (let cut = 0; cut < text.length; cut++) {
      const { expected, actual } = (await outcome(text.slice(0, cut), 8)) as Record<string, unknown>
      expect(actual, text.slice(0, cut)).toStrictEqual(expected)
    }
    const noise = [',', ']', '}', '[', '{', '"', ':', ' ', '\\', 'x']
    for (let i = 0; i < 400; i++) {
      const at = Math.floor(rand() * text.length)
      const bad = text.slice(0, at) + noise[i % noise.length]! + text.slice(at + 1)
      const { expected, actual } = (await outcome(bad, 8)) as Record<string, unknown>
      expect(actual, bad).toStrictEqual(expected)
    }
  })

  it('drops a leading byte order mark as the text decoder did', async () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"data":[1,2]}')])
    expect(await parseJsonSliced(bytes, { pieceBytes: 2 })).toEqual({ data: [1, 2] })
  })

  it('lets the event loop run between slices of a large answer', async () => {
    const data = Array.from({ length: 20_000 }, (_, i) => ({ id: `qemu/${i}`, name: `vm-${i}` }))
    const bytes = Buffer.from(JSON.stringify({ data }))
    let turns = 0
    const timer = setInterval(() => turns++, 0)
    try {
      const parsed = await parseJsonSliced(bytes, { sliceMs: 0 })
      expect(parsed).toEqual({ data })
      expect(turns).toBeGreaterThan(0)
    } finally {
      clearInterval(timer)
    }
  })

  it('maps each element of the envelope list while parsing, as parse-then-map would', async () => {
    const rand = createRandom(41)
    // Keeps objects with a numeric `n` as a small record of their own; drops everything else.
    const each = (item: unknown) =>
      typeof item === 'object' && item !== null && typeof (item as { n?: unknown }).n === 'number'
        ? { kept: (item as { n: number }).n }
        : undefined
    for (let i = 0; i < 200; i++) {
      const data = Array.from({ length: Math.floor(rand() * 40) }, (_, k) =>
        rand() < 0.7
          ? { n: k, name: ['},{', 'a"},{"b', '\\},{'][k % 3]!, files: [{ f: k }] }
          : JSON.parse(randomJson(rand, 2)),
      )
      const before = rand() < 0.5 ? '' : '"total":3,'
      const after = rand() < 0.5 ? '' : ',"more":[{"n":1}]'
      const text = `{${before}"data":${JSON.stringify(data)}${after}}`
      const expected = JSON.parse(text) as Record<string, unknown>
      expected.data = data.map(each).filter((x) => x !== undefined)
      const pieceBytes = 1 + Math.floor(rand() * 200)
      const parsed = await parseJsonSliced(Buffer.from(text), { pieceBytes, each })
      expect(parsed, text).toStrictEqual(expected)
    }
  })

  it('maps only the top-level data list, and nothing of a document without one', async () => {
    const each = () => 'mapped'
    const nested = '{"x":{"data":[1,2]},"data":[3,{"data":[4]}]}'
    expect(await parseJsonSliced(Buffer.from(nested), { pieceBytes: 3, each })).toStrictEqual({
      x: { data: [1, 2] },
      data: ['mapped', 'mapped'],
    })
    expect(await parseJsonSliced(Buffer.from('[1,2,3]'), { pieceBytes: 2, each })).toEqual([
      1, 2, 3,
    ])
    expect(await parseJsonSliced(Buffer.from('{"data":{"a":1}}'), { each })).toEqual({
      data: { a: 1 },
    })
  })

  it('refuses a single value too large to split', async () => {
    const bytes = Buffer.from(JSON.stringify({ data: ['x'.repeat(5000)] }))
    const err = await parseJsonSliced(bytes, { pieceBytes: 100, maxScalarBytes: 1000 }).catch(
      (e: unknown) => e,
    )
    expect(err).toBeInstanceOf(JsonTooLargeError)
  })
})
