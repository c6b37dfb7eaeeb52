// Playwright for the browser benchmark only (`npm run bench -- browser-100k`); tests use ../../playwright.config.ts.
import { defineConfig } from '@playwright/test'
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../tests/chromium.ts'

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  // The history bench and the hour run only when named (`npm run bench -- browser-history`, `hour`).
  testIgnore: [
    ...(process.env.BENCH_BROWSER_HISTORY ? [] : ['history-100k.spec.ts']),
    ...(process.env.BENCH_HOUR ? [] : ['hour.spec.ts']),
  ],
  timeout: 900_000,
  expect: { timeout: 30_000 },
  workers: 1,
  retries: 0,
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    headless: true,
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
    trace: 'off',
  },
})
