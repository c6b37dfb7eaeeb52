// The Prometheus text exposition format (version 0.0.4), written without an object per sample:
// a family joins its sample lines a few KiB at a time and writes them as UTF-8 into chunks of
// 64 KiB (chunk-pool.ts), so 100,000 guests leave ~1,600 buffers (sent as they are), not a
// million strings. Samples of a family may be added in any order and from several resource kinds;
// `writeFamilies` puts each family's lines together under its HELP and TYPE, as the format
// requires.
import { FRESH_CHUNKS, type ChunkSource } from './chunk-pool.ts'

/** The media type Prometheus negotiates for the text format. */
export const EXPOSITION_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8'

const PENDING_CHARS = 4 * 1024
const NEEDS_ESCAPE = /[\\"\n]/

/** A label value as the format wants it: backslash, double quote and newline escaped. */
export function escapeLabelValue(value: string): string {
  if (!NEEDS_ESCAPE.test(value)) return value
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')
}

/** One metric family being written: name, HELP, TYPE and its sample lines. */
export class Family {
  readonly name: string
  readonly type: 'gauge' | 'counter'
  readonly help: string
  samples = 0
  /** Full chunks (as views of what they hold), and the one being filled up to `used` bytes. */
  private chunks: Buffer[] = []
  private chunk: Buffer | null = null
  private used = 0
  /** Lines not yet in a chunk. */
  private pending = ''
  private readonly source: ChunkSource

  constructor(
    name: string,
    type: 'gauge' | 'counter',
    help: string,
    source: ChunkSource = FRESH_CHUNKS,
  ) {
    this.name = name
    this.type = type
    this.help = help
    this.source = source
  }

  /**
   * Add one sample. `labels` is the braces part, already escaped (`{id="qemu/x"}`), or ''.
   * A value that is not a finite number is no sample: missing data stays absent. String(value)
   * is the shortest text that parses back to the same float64, so a scrape holds the exact value.
   */
  add(labels: string, value: number): void {
    if (!Number.isFinite(value)) return
    this.pending += `${this.name}${labels} ${String(value)}\n`
    this.samples++
    if (this.pending.length >= PENDING_CHARS) this.flushPending()
  }

  /** Append HELP, TYPE and the samples to `out`; a family without samples writes nothing. */
  writeTo(out: Buffer[]): void {
    if (this.samples === 0) return
    this.flushPending()
    this.next(0)
    out.push(Buffer.from(`# HELP ${this.name} ${this.help}\n# TYPE ${this.name} ${this.type}\n`))
    for (const chunk of this.chunks) out.push(chunk)
  }

  // A few KiB of lines at a time into the chunk: one write per ~50 lines, and the lines joined
  // for it die young (a text grown to 100 MB kept them all, and collecting them took seconds).
  private flushPending(): void {
    const text = this.pending
    if (text === '') return
    this.pending = ''
    const bytes = Buffer.byteLength(text)
    if (!this.chunk || this.chunk.length - this.used < bytes) this.next(bytes)
    this.used += this.chunk!.write(text, this.used, 'utf8')
  }

  // The chunk filled so far goes to the list as a view of its bytes; 0 takes no new one.
  private next(atLeast: number): void {
    if (this.chunk && this.used > 0) this.chunks.push(this.chunk.subarray(0, this.used))
    this.chunk = atLeast === 0 ? null : this.source.take(atLeast)
    this.used = 0
  }
}

/** Write every family in order into `out` (empty ones skipped). */
export function writeFamilies(out: Buffer[], families: readonly Family[]): void {
  for (const family of families) family.writeTo(out)
}

/** `{name="value",...}` from label pairs, values escaped; '' for none. */
export function labelsOf(pairs: ReadonlyArray<readonly [string, string]>): string {
  if (pairs.length === 0) return ''
  let text = '{'
  for (let i = 0; i < pairs.length; i++) {
    const [name, value] = pairs[i]!
    text += `${i ? ',' : ''}${name}="${escapeLabelValue(value)}"`
  }
  return `${text}}`
}
