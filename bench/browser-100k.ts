// The browser benchmark: builds the SPA, runs bench/browser/*.spec.ts in Playwright (real server,
// simulator, Chromium): browser-100k.spec.ts (typing and scrolling at 100,000 guests over 1,000
// nodes) then browser-live.spec.ts (first load and steady state with live polling at 1k, 10k and
// 100k guests). BENCH_BROWSER_ONLY=live (or 100k) runs one of the two. Returns what they wrote.
// benchBrowserHistory runs browser/history-100k.spec.ts alone (`npm run bench -- browser-history`).
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const RESULTS = fileURLToPath(new URL('./results/browser-100k.json', import.meta.url))
const HISTORY_RESULTS = fileURLToPath(new URL('./results/history-browser.json', import.meta.url))
const HOUR_RESULTS = fileURLToPath(new URL('./results/hour.json', import.meta.url))

function run(args: string[], env: Record<string, string> = {}): void {
  const done = spawnSync('npx', args, {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, ...env },
  })
  if (done.status !== 0) throw new Error(`npx ${args.join(' ')} failed (${done.status})`)
}

/** A short summary of each live size for latest.json (the whole figures stay in browser-100k.json). */
export function summariseLive(live: Record<string, Record<string, unknown>> | undefined) {
  if (!live) return undefined
  return Object.fromEntries(
    Object.entries(live).map(([size, f]) => {
      const { load, typing, steady, verdicts } = f as Record<string, Record<string, unknown>>
      const { heapSamples: _samples, ...steadyFigures } = steady ?? {}
      return [
        size,
        { date: f.date, guests: f.guests, load, typing, steady: steadyFigures, verdicts },
      ]
    }),
  )
}

/**
 * Runs the measurements (the typing/scrolling one BENCH_RUNS times, default 3); returns
 * `{ runs, median, live }`.
 */
export function benchBrowser100k(): { runs: unknown; median: unknown; live: unknown } {
  const only = process.env.BENCH_BROWSER_ONLY
  const specs = only === 'live' ? ['browser-live'] : only === '100k' ? ['browser-100k'] : []
  run(['vite', 'build', '--logLevel', 'warn'])
  run(['playwright', 'test', '--config', 'bench/browser/playwright.config.ts', ...specs])
  const { runs, median, live } = JSON.parse(readFileSync(RESULTS, 'utf8')) as {
    runs: unknown
    median: unknown
    live?: Record<string, Record<string, unknown>>
  }
  return { runs, median, live: summariseLive(live) }
}

/**
 * The history bench (issue 25): builds the app and runs browser/history-100k.spec.ts alone (chart
 * draw and scrolling with trends at 100,000 guests); returns `{ runs, median, thresholds }`.
 */
export function benchBrowserHistory(): { runs: unknown; median: unknown; thresholds: unknown } {
  run(['vite', 'build', '--logLevel', 'warn'])
  run(['playwright', 'test', '--config', 'bench/browser/playwright.config.ts', 'history-100k'], {
    BENCH_BROWSER_HISTORY: '1',
  })
  const { runs, median, thresholds } = JSON.parse(readFileSync(HISTORY_RESULTS, 'utf8')) as {
    runs: unknown
    median: unknown
    thresholds: unknown
  }
  return { runs, median, thresholds }
}

/**
 * The hour (issue 27, target 9): builds the app and runs browser/hour.spec.ts alone; returns its
 * summary (the curves stay in bench/results/hour.json).
 */
export function benchHour(): unknown {
  run(['vite', 'build', '--logLevel', 'warn'])
  run(['playwright', 'test', '--config', 'bench/browser/playwright.config.ts', 'hour'], {
    BENCH_HOUR: '1',
  })
  return (JSON.parse(readFileSync(HOUR_RESULTS, 'utf8')) as { summary: unknown }).summary
}
