// The browser benchmark: builds the SPA, runs bench/browser/browser-100k.spec.ts in Playwright
// (real server, simulator at 100,000 guests, Chromium) and returns the medians it wrote.
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const RESULTS = fileURLToPath(new URL('./results/browser-100k.json', import.meta.url))

function run(args: string[]): void {
  const done = spawnSync('npx', args, { cwd: ROOT, stdio: 'inherit' })
  if (done.status !== 0) throw new Error(`npx ${args.join(' ')} failed (${done.status})`)
}

/** Runs the measurement (BENCH_RUNS times, default 3); returns `{ runs, median }`. */
export function benchBrowser100k(): { runs: number; median: unknown } {
  run(['vite', 'build', '--logLevel', 'warn'])
  run(['playwright', 'test', '--config', 'bench/browser/playwright.config.ts'])
  const { runs, median } = JSON.parse(readFileSync(RESULTS, 'utf8')) as {
    runs: number
    median: unknown
  }
  return { runs, median }
}
