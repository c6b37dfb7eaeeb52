// Worker pipeline and server fan-out benchmarks: `npx tsx bench/run.ts` (or `npm run bench`).
// Prints a table per benchmark and writes bench/results/<name>.json.
import { fileURLToPath } from 'node:url'
import { benchGuestView } from './guest-view.ts'
import { benchServerDiff } from './server-diff.ts'
import { benchStoreMerge } from './store-merge.ts'
import { printTable, writeResults, type BenchResult } from './harness.ts'

const SIZES = [1_000, 10_000, 100_000]
const BENCHES: Array<{ name: string; title: string; run: (size: number) => BenchResult[] }> = [
  { name: 'store-merge', title: 'Merge one update into the worker store', run: benchStoreMerge },
  { name: 'guest-view', title: 'Guest view pipeline (60-row window)', run: benchGuestView },
  { name: 'server-diff', title: 'Server: one poll to the delta frame', run: benchServerDiff },
]

for (const bench of BENCHES) {
  const results = SIZES.flatMap((size) => bench.run(size))
  printTable(bench.title, results)
  const path = fileURLToPath(new URL(`./results/${bench.name}.json`, import.meta.url))
  writeResults(path, results)
  console.log(`wrote ${path}`)
}
