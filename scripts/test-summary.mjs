#!/usr/bin/env node
// Prints one closing line over all test tiers ("tests: N passed, N failed") from the JSON reports
// that `npm test` asks vitest and Playwright to write into .test-reports/.
import fs from 'node:fs'

const read = (file) => {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'))
  } catch {
    return null
  }
}
let passed = 0
let failed = 0
let skipped = 0
for (const tier of ['unit', 'browser']) {
  const report = read(`.test-reports/vitest-${tier}.json`)
  if (!report) throw new Error(`missing report for the ${tier} tier`)
  passed += report.numPassedTests
  failed += report.numFailedTests
  skipped += report.numPendingTests + report.numTodoTests
}
const e2e = read('.test-reports/playwright.json')
if (!e2e) throw new Error('missing report for the e2e tier')
passed += e2e.stats.expected + e2e.stats.flaky
failed += e2e.stats.unexpected
skipped += e2e.stats.skipped
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`)
process.exit(failed > 0 || passed === 0 ? 1 : 0)
