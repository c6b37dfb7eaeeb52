// A counting semaphore: at most `max` tasks run at once, the rest wait in FIFO order.

/** Runs async tasks with bounded concurrency. */
export interface Limiter {
  run<T>(task: () => Promise<T>): Promise<T>
}

/** Creates a limiter allowing `max` (>= 1) concurrent tasks. */
export function createLimiter(max: number): Limiter {
  const limit = Math.max(1, Math.floor(max))
  let active = 0
  const waiting: Array<() => void> = []

  function release(): void {
    active--
    const next = waiting.shift()
    if (next) {
      active++
      next()
    }
  }

  async function run<T>(task: () => Promise<T>): Promise<T> {
    if (active >= limit) await new Promise<void>((resolve) => waiting.push(resolve))
    else active++
    try {
      return await task()
    } finally {
      release()
    }
  }

  return { run }
}

/** Maps items with at most `max` mappers in flight; results keep the input order. */
export async function mapLimited<T, R>(
  items: readonly T[],
  max: number,
  mapper: (item: T) => Promise<R>,
): Promise<R[]> {
  const limiter = createLimiter(max)
  return Promise.all(items.map((item) => limiter.run(() => mapper(item))))
}
