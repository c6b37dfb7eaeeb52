import { describe, expect, it } from 'vitest'
import { ChunkJoiner, readPart, splitChunks } from '../../../../src/server/bus/chunks.ts'
import { patterned } from './bus-helpers.ts'

function feed(joiner: ChunkJoiner, chunks: ReturnType<typeof splitChunks>) {
  return chunks.map((chunk) => joiner.add(readPart(chunk.headers)!, chunk.data))
}

describe('chunks', () => {
  it('splits into numbered parts and joins them back byte for byte', () => {
    const payload = patterned(10_001)
    const chunks = splitChunks(payload, 1_000, { 'Pulse-Seq': '7' })
    expect(chunks).toHaveLength(11)
    expect(chunks[10]!.headers.get('Pulse-Part')).toBe('11/11')
    expect(chunks[0]!.headers.get('Pulse-Seq')).toBe('7')
    const out = feed(new ChunkJoiner(), chunks)
    expect(out.slice(0, 10).every((x) => x === null)).toBe(true)
    expect(Buffer.compare(out[10]!, payload)).toBe(0)
  })

  it('sends an empty payload as one empty part', () => {
    const chunks = splitChunks(new Uint8Array(0), 100)
    expect(feed(new ChunkJoiner(), chunks)).toEqual([new Uint8Array(0)])
  })

  it('drops a message missing a part, and one read from its middle, then joins the next', () => {
    const joiner = new ChunkJoiner()
    const first = splitChunks(patterned(300), 100)
    const second = splitChunks(patterned(250), 100)
    // Part 2 of the first message is lost; a read starting mid-message sees only its tail.
    expect(feed(joiner, [first[0]!, first[2]!])).toEqual([null, null])
    expect(feed(joiner, first.slice(1))).toEqual([null, null])
    const joined = feed(joiner, second)
    expect(Buffer.compare(joined[2]!, patterned(250))).toBe(0)
  })

  it('ignores messages without chunk headers', () => {
    expect(readPart(undefined)).toBeNull()
    const [chunk] = splitChunks(patterned(3), 10)
    chunk!.headers.set('Pulse-Part', '3/2')
    expect(readPart(chunk!.headers)).toBeNull()
  })
})
