// Buffers for the exposition text, used again from one build to the next. At 100,000 guests a
// build writes ~100 MB; fresh buffers every poll made V8 finish a full garbage collection at once
// for the external memory (70-300 ms pauses of the event loop, measured in bench/metrics.ts),
// recycled ones make none. A build leases its chunks and gives them back once no answer is
// writing them any more (metrics-service.ts counts the readers); chunks nobody leased for a while
// are let go, so an instance that is no longer scraped does not keep the memory.

/** Size of a recycled chunk; a longer line gets a buffer of its own. */
export const CHUNK_BYTES = 64 * 1024
/** Chunks kept for the next build at most (256 MiB). */
const MAX_POOLED = 4096
/** How long pooled chunks are kept without a build. */
const IDLE_MS = 5 * 60_000

/** Where the families of one build take their buffers. */
export interface ChunkSource {
  /** A buffer of at least `bytes` (its length may be more). */
  take(bytes: number): Buffer
}

/** The chunks of one build: `release` gives them back, once, when nothing reads them. */
export interface ChunkLease extends ChunkSource {
  release(): void
}

export interface ChunkPool {
  lease(): ChunkLease
  /** Chunks waiting to be used again (tests and the bench). */
  readonly pooled: number
}

/** Fresh buffers, never recycled: the small pulse_ part of every scrape. */
export const FRESH_CHUNKS: ChunkSource = {
  take: (bytes) => Buffer.allocUnsafe(Math.max(4096, bytes)),
}

/** Create an empty pool. */
export function createChunkPool(): ChunkPool {
  let free: Buffer[] = []
  let idle: ReturnType<typeof setTimeout> | undefined
  return {
    lease() {
      const taken: Buffer[] = []
      let released = false
      return {
        take(bytes) {
          if (bytes > CHUNK_BYTES) return Buffer.allocUnsafe(bytes)
          const chunk = free.pop() ?? Buffer.allocUnsafe(CHUNK_BYTES)
          taken.push(chunk)
          return chunk
        },
        release() {
          if (released) return
          released = true
          for (const chunk of taken) if (free.length < MAX_POOLED) free.push(chunk)
          taken.length = 0
          clearTimeout(idle)
          idle = setTimeout(() => (free = []), IDLE_MS)
          idle.unref?.()
        },
      }
    },
    get pooled() {
      return free.length
    },
  }
}
