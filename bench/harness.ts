// A small benchmark harness: warm-up, N timed iterations, median / p95 / mean in ms.

/** One measured case. */
export interface BenchResult {
  name: string
  size: number
  iterations: number
  medianMs: number
  p95Ms: number
  meanMs: number
  minMs: number
}

/** A case: `before` runs untimed before each iteration (fresh input), `run` is timed. */
export interface BenchCase {
  name: string
  size: number
  warmup: number
  iterations: number
  before?: () => void
  run: () => void
}

/** Time one case. */
export function measure(bench: BenchCase): BenchResult {
  for (let i = 0; i < bench.warmup; i++) {
    bench.before?.()
    bench.run()
  }
  const times: number[] = []
  for (let i = 0; i < bench.iterations; i++) {
    bench.before?.()
    const start = performance.now()
    bench.run()
    times.push(performance.now() - start)
  }
  times.sort((a, b) => a - b)
  const at = (q: number) => times[Math.min(times.length - 1, Math.ceil(q * times.length) - 1)]!
  return {
    name: bench.name,
    size: bench.size,
    iterations: times.length,
    medianMs: at(0.5),
    p95Ms: at(0.95),
    meanMs: times.reduce((sum, t) => sum + t, 0) / times.length,
    minMs: times[0]!,
  }
}

/** Iterations scaled to the estate size, so 100k cases stay within seconds. */
export function getIterations(size: number): { warmup: number; iterations: number } {
  if (size >= 100_000) return { warmup: 3, iterations: 15 }
  if (size >= 10_000) return { warmup: 5, iterations: 40 }
  return { warmup: 20, iterations: 200 }
}

/** Print results as an aligned table. */
export function printTable(title: string, results: readonly BenchResult[]): void {
  const rows = results.map((r) => [
    r.name,
    r.size.toLocaleString('en-US'),
    String(r.iterations),
    r.medianMs.toFixed(3),
    r.p95Ms.toFixed(3),
    r.meanMs.toFixed(3),
  ])
  const head = ['case', 'guests', 'iter', 'median ms', 'p95 ms', 'mean ms']
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)))
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
      .join('  ')
  console.log(`\n${title}`)
  console.log(line(head))
  console.log(widths.map((w) => '-'.repeat(w)).join('  '))
  for (const row of rows) console.log(line(row))
}
