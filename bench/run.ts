// Worker pipeline and server fan-out benchmarks: `npm run bench` (all) or `npm run bench -- dashboard` (or backups).
// many-clients starts the real server (1k and 10k guests, about a minute each). The browser
// benchmarks run only when named: `npm run bench -- browser-100k` or `browser-history` (build,
// take minutes).
// Prints a table per benchmark and writes every figure to bench/results/latest.json.
import os from 'node:os'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { benchDashboard, type DashboardCaseResult } from './dashboard.ts'
import { printDashboard, summarise } from './dashboard-report.ts'
import { benchCollector, DEMO_TOPOLOGY, printCollector, type CollectorResult } from './collector.ts'
import { benchAlerts } from './alerts.ts'
import { benchAlertRules } from './alert-rules.ts'
import { benchSilences } from './silences.ts'
import { benchPalette } from './palette.ts'
import { benchRulePreview } from './rule-preview.ts'
import { benchMetrics, printMetricsFacts, type MetricsFacts } from './metrics.ts'
import { benchAlertBackups } from './alert-backups.ts'
import { benchAlertHistory } from './alert-history.ts'
import { benchAlertService } from './alert-service.ts'
import { benchNotify } from './notify.ts'
import { benchTemplateRender, printHostile } from './template-render.ts'
import { benchBackups, benchBackupsDelta, type BackupsHeap } from './backups.ts'
import { heapAfterGcMB } from './heap.ts'
import { benchBackupCoverage } from './backup-coverage.ts'
import { benchBrowser100k, benchBrowserHistory, benchHour } from './browser-100k.ts'
import { benchServerDiff } from './server-diff.ts'
import { benchHealthWatch, healthWatchPlan, printHealthWatch } from './health-watch.ts'
import { benchServerLoop, printServerLoop, type ServerLoopResult } from './server-loop.ts'
import { benchStoreMerge } from './store-merge.ts'
import { benchWire, printWireFacts, type WireFacts } from './wire.ts'
import {
  benchManyClients,
  MANY_CLIENTS_SIZES,
  printManyClients,
  type ManyClientsResult,
} from './many-clients.ts'
import {
  benchBusFanout,
  BUS_FANOUT_SIZES,
  printBusFanout,
  type BusFanoutResult,
} from './bus-fanout.ts'
import {
  benchWebFanout,
  printWebFanout,
  WEB_FANOUT_SIZES,
  type WebFanoutResult,
} from './web-fanout.ts'
import { printTable, type BenchResult } from './harness.ts'
import { benchHistory, printHistoryFigures } from './history.ts'
import { benchCoverage, printCoverage, type CoverageBenchResult } from './coverage.ts'
import { SEARCH_SET } from './search-set.ts'
import { printSteadyTargets, steadyTargets } from './steady-targets.ts'

const SIZES = [1_000, 10_000, 100_000]
const only = process.argv.slice(2)
const wanted = (name: string) => only.length === 0 || only.includes(name)
const results: Record<string, unknown> = {}

if (wanted('dashboard')) {
  const cases: DashboardCaseResult[] = []
  const extra: BenchResult[] = []
  for (const size of SIZES) {
    const result = benchDashboard(size)
    cases.push(...result.cases)
    extra.push(...result.extra)
  }
  const summary = summarise(cases)
  printDashboard(cases, summary)
  printTable('Dashboard: scrolling and the delta frame parse', extra)
  results.dashboard = { searches: SEARCH_SET, cases, extra, summary }
}
if (wanted('store-merge')) {
  const merge = SIZES.flatMap((size) => benchStoreMerge(size))
  printTable('Merge one poll (10% of guests changed) into the worker store', merge)
  results.storeMerge = merge
}
if (wanted('server-diff')) {
  const diff = SIZES.flatMap((size) => benchServerDiff(size))
  printTable('Server: one poll to the delta frame', diff)
  results.serverDiff = diff
}
if (wanted('wire')) {
  const wire: BenchResult[] = []
  const facts: WireFacts[] = []
  for (const size of SIZES) {
    const result = benchWire(size)
    wire.push(...result.results)
    facts.push(result.facts)
  }
  printTable('Wire: a poll of every guest, server to re-viewed dashboard; the first load', wire)
  printWireFacts(facts)
  results.wire = { results: wire, facts }
}
if (wanted('backups')) {
  const backups = SIZES.flatMap((size) => benchBackups(size))
  // Target 2 of issue 13 and target 5 of issue 27: up to 1,000,000 backup records.
  const heaps: BackupsHeap[] = []
  for (const size of [...SIZES, 1_000_000]) {
    const { cases, heap } = benchBackupsDelta(size, heapAfterGcMB)
    backups.push(...cases)
    heaps.push(heap)
  }
  printTable('Backups view (size = backup records): normalise + filter + group + chart', backups)
  console.log(
    '\nWorker heap with the backups loaded and the Backups tab computed (after a full GC)',
  )
  for (const heap of heaps) {
    const records = heap.records.toLocaleString('en-US')
    console.log(
      `${records.padStart(9)} records: ${heap.heapUsedMB.toFixed(0)} MB (baseline ${heap.baselineMB.toFixed(0)} MB)`,
    )
  }
  results.backups = backups
  results.backupsHeap = heaps
}
if (wanted('backup-coverage')) {
  // Issue 26: the coverage view at 1k, 10k and 100k guests (1,000,000 backup records at 100k).
  const coverage = SIZES.flatMap((size) => benchBackupCoverage(size))
  printTable(
    'Backup coverage view (size = guests): build, 1 % change, flush, filter, re-rank',
    coverage,
  )
  results.backupCoverage = coverage
}
if (wanted('coverage')) {
  // Issue 26: the server's per-guest backup summaries, 1,000,000 backup records at every size.
  // BENCH_COVERAGE_SIZES=1000,10000 runs a subset.
  const sizes = process.env.BENCH_COVERAGE_SIZES?.split(',').map(Number) ?? SIZES
  const coverage: CoverageBenchResult[] = []
  for (const size of sizes) coverage.push(...(await benchCoverage(size)))
  printCoverage(coverage)
  results.coverage = coverage
}
if (wanted('alerts')) {
  // Issue 14's target: one evaluation under 20 ms at 100k guests.
  const alerts = SIZES.flatMap((size) => benchAlerts(size))
  printTable('Alert engine: evaluate() per poll (every guest: 7 metrics + 2 filesystems)', alerts)
  results.alerts = alerts
}
if (wanted('silences')) {
  const silences = SIZES.flatMap((size) => benchSilences(size))
  printTable('Silences: the published alerts marked, per poll (issue 28)', silences)
  results.silences = silences
}
if (wanted('palette')) {
  // Issue 28 item 6: a palette keystroke under 50 ms at 100k guests, in the worker.
  const palette = SIZES.flatMap((size) => benchPalette(size))
  printTable('Command palette: one search of the worker store (issue 28)', palette)
  results.palette = palette
}
if (wanted('rule-preview')) {
  const preview = SIZES.flatMap((size) => benchRulePreview(size))
  printTable("Custom rules editor: the worker's live preview (issue 28)", preview)
  results.rulePreview = preview
}
if (wanted('metrics')) {
  // Issue 28 item 5: the Prometheus /metrics text, its size and what it costs the loop.
  const metrics: BenchResult[] = []
  const facts: MetricsFacts[] = []
  for (const size of SIZES) {
    const result = await benchMetrics(size)
    metrics.push(...result.results)
    facts.push(result.facts)
  }
  printTable('Prometheus /metrics: the exposition text of one state', metrics)
  printMetricsFacts(facts)
  results.metrics = { results: metrics, facts }
}

if (wanted('alert-rules')) {
  // Issue 24 item 1: 100 custom rules, one evaluation under 20 ms at 100k guests.
  const alertRules = SIZES.flatMap((size) => benchAlertRules(size))
  printTable('Alert engine with 100 custom rules of 3 filters: evaluate() per poll', alertRules)
  results.alertRules = alertRules
}
if (wanted('alert-backups')) {
  // Issue 26: the backup alert kinds' cost per evaluation (the difference to "backups off").
  const alertBackups = SIZES.flatMap((size) => benchAlertBackups(size))
  printTable('Alert engine with the backup kinds: evaluate() per poll', alertBackups)
  results.alertBackups = alertBackups
}
if (wanted('alert-service')) {
  // Issue 27: what the alert service does on the loop after evaluate() (persist, publish).
  const alertService: BenchResult[] = []
  for (const size of SIZES) alertService.push(...(await benchAlertService(size)))
  printTable('Alert service: decorate() per poll (evaluate, then persist + publish)', alertService)
  results.alertService = alertService
}
if (wanted('alert-history')) {
  // Issue 14: the history screen's queries over 1,000,000 stored occurrences.
  const history = benchAlertHistory(1_000_000)
  printTable('Alert history (size = rows): filtered page with total, summary buckets', history)
  results.alertHistory = history
}
if (wanted('notify')) {
  // Issue 15's and 27's target: 10,000 alerts in one cycle to 3 destinations, < 200 ms of loop time.
  const notify = [...(await benchNotify(1_000)), ...(await benchNotify(10_000))]
  printTable('Notifications (size = alerts firing in one cycle): outbox enqueue, batches', notify)
  results.notify = notify
}
if (wanted('template-render')) {
  // Issue 24: a webhook template render is bounded; a hostile one is stopped at the bound.
  const templates = benchTemplateRender()
  printTable('Webhook templates: one render (size = alerts in the data)', templates.normal)
  printHostile(templates.hostile)
  results.templateRender = templates
}

if (wanted('history')) {
  // Issue 25: the recent store's record(), memory and series(); route-level sections join later.
  const history = await benchHistory(SIZES)
  printTable(
    'History: the recent store (record one poll, series for charts and trends)',
    history.results,
  )
  printHistoryFigures(history.figures)
  results.history = history
}

if (wanted('collector')) {
  const collector: CollectorResult[] = []
  for (const size of SIZES) collector.push(await benchCollector(size))
  // The 100k demo: 10 clusters of 10 nodes, at the largest size.
  const demo = [await benchCollector(Math.max(...SIZES), DEMO_TOPOLOGY)]
  printCollector([...collector, ...demo])
  results.collector = collector
  results.collectorDemoTopology = demo
}

if (wanted('many-clients')) {
  const manyClients: ManyClientsResult[] = []
  for (const size of MANY_CLIENTS_SIZES) manyClients.push(await benchManyClients(size))
  printManyClients(manyClients)
  results.manyClients = manyClients
}
if (wanted('server-loop')) {
  // BENCH_LOOP_SIZES=1000,10000 runs a subset (the 100k case takes a few minutes).
  const sizes = process.env.BENCH_LOOP_SIZES?.split(',').map(Number) ?? SIZES
  const loop: ServerLoopResult[] = []
  for (const size of sizes) loop.push(await benchServerLoop(size))
  printServerLoop(loop)
  results.serverLoop = loop
}
if (only.includes('health-watch')) {
  // Issue 27's acceptance: the 100k demo for 10 minutes, /api/health and RSS every second.
  const watch = []
  for (const { guests, minutes } of healthWatchPlan())
    watch.push(await benchHealthWatch(guests, minutes))
  printHealthWatch(watch)
  results.healthWatch = watch
}

if (wanted('bus-fanout')) {
  // Issue 17: collector to web node over NATS JetStream (skipped without nats-server).
  const fanout: BusFanoutResult[] = []
  for (const size of BUS_FANOUT_SIZES) {
    const result = await benchBusFanout(size)
    if (result) fanout.push(result)
  }
  if (fanout.length > 0) printBusFanout(fanout)
  results.busFanout = fanout
}
if (wanted('web-fanout')) {
  // Issue 17, acceptance 2: collector -> bus -> web node (own process) -> a /ws client.
  const web: WebFanoutResult[] = []
  for (const size of WEB_FANOUT_SIZES) {
    const result = await benchWebFanout(size)
    if (result) web.push(result)
  }
  if (web.length > 0) printWebFanout(web)
  results.webFanout = web
}

if (only.includes('browser-100k')) results.browser100k = benchBrowser100k()
if (only.includes('browser-history')) results.browserHistory = benchBrowserHistory()
// Issue 27, target 9: an hour at 100k with a browser open (BENCH_HOUR_MS, BENCH_HOUR_SIZE).
if (only.includes('hour')) results.hour = benchHour()

const cpus = os.cpus()
const path = fileURLToPath(new URL('./results/latest.json', import.meta.url))
mkdirSync(fileURLToPath(new URL('./results/', import.meta.url)), { recursive: true })
// A partial run (`npm run bench -- collector`) keeps the other benchmarks' last figures.
const previous: Record<string, unknown> = existsSync(path)
  ? (JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>)
  : {}
const body: Record<string, unknown> = {
  ...previous,
  date: new Date().toISOString(),
  node: process.version,
  machine: {
    cpu: cpus[0]?.model ?? 'unknown',
    cores: cpus.length,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
  },
  guestsPerNode: 100,
  ...results,
}
// Issue 27: every steady-state target from the figures now on file (this run's and the last ones).
const steady = steadyTargets(body)
printSteadyTargets(steady)
body.steadyState = steady
writeFileSync(path, `${JSON.stringify(body, null, 2)}\n`)
console.log(`\nwrote ${path}`)
