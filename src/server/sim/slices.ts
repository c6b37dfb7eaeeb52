// The simulator's large answers in slices: one process serves every simulated cluster, so a
// 200,000-volume storage listing built in one go would hold every other answer (a node's status,
// /cluster/resources) for a second or more, and the collector would time them out. Real PVE
// answers from several pveproxy workers at once; yielding between bounded slices comes closest.

/** Longest synchronous run of one large answer before it lets other requests in. */
const SLICE_MS = 10

/** A clock for one large answer: `due()` is true once the current slice has run its time. */
export interface Slicer {
  due(): boolean
  /** Lets other work run (one macrotask turn), then starts a new slice. */
  pause(): Promise<void>
}

export function createSlicer(sliceMs = SLICE_MS): Slicer {
  let start = performance.now()
  return {
    due: () => performance.now() - start >= sliceMs,
    async pause() {
      await new Promise<void>((resolve) => setImmediate(resolve))
      start = performance.now()
    },
  }
}

/** Elements serialised per JSON.stringify call of wrapDataSliced. */
const STRINGIFY_STEP = 2_000
const OPEN = Buffer.from('{"data":[')
const CLOSE = Buffer.from(']}')
const COMMA = Buffer.from(',')

/** The bytes of wrapData(items) (`{"data":[...]}`), serialised in slices. */
export async function wrapDataSliced(
  items: readonly unknown[],
  slicer: Slicer = createSlicer(),
): Promise<Buffer> {
  const parts: Buffer[] = [OPEN]
  for (let i = 0; i < items.length; i += STRINGIFY_STEP) {
    if (i > 0) parts.push(COMMA)
    const text = JSON.stringify(items.slice(i, i + STRINGIFY_STEP))
    parts.push(Buffer.from(text.slice(1, -1)))
    if (slicer.due()) await slicer.pause()
  }
  parts.push(CLOSE)
  return Buffer.concat(parts)
}
