// Benchmark: the backup coverage view (issue 26) at 1k, 10k and 100k guests, 10 backup records
// behind each guest (1,000,000 at 100k: the server folds them into one GuestBackup summary per
// guest, which is what the worker's view reads), plus 2 % orphaned groups. Cases: the first build,
// a 1 % change (1 % of the summaries replaced by new objects, as a delta does), a flush that
// changed nothing, a filter chip, and the next minute (every age level re-ranked).
import type { GuestBackup, JobRunState } from '../src/shared/model/backup-health.ts'
import {
  DEFAULT_COVERAGE_REQUEST,
  type BackupCoverageRequest,
} from '../src/shared/views/backup-coverage-types.ts'
import {
  createBackupCoveragePipeline,
  type BackupCoverageInput,
} from '../src/shared/views/backup-coverage-view.ts'
import { DEFAULT_ALERT_CONFIG } from '../src/server/alerts/config-defaults.ts'
import { createRandom } from './fixtures.ts'
import { getIterations, measure, type BenchResult } from './harness.ts'

const DAY = 86_400
const RECORDS_PER_GUEST = 10
const STATES: JobRunState[] = ['ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'warning', 'failed', 'running']
const COVERAGE = ['enabled', 'enabled', 'enabled', 'enabled', 'disabled', 'none'] as const

const CONFIG = DEFAULT_ALERT_CONFIG

function makeSummary(random: () => number, i: number, nowS: number, tag: number): GuestBackup {
  const orphaned = i % 50 === 49
  const never = random() < 0.03
  const node = `pve${(i % 1000) + 1}`
  const vmid = 100 + i
  return {
    id: orphaned ? `orphan-lab-vm-${vmid}` : `lab-${node}-${vmid}`,
    instance: 'lab',
    node: orphaned ? '' : node,
    vmid,
    type: random() < 0.4 ? 'lxc' : 'qemu',
    name: orphaned ? '' : `web-${i}-${tag}`,
    template: random() < 0.01,
    orphaned,
    newest: never ? 0 : Math.floor(nowS - random() * 12 * DAY),
    ...(never
      ? {}
      : { newestSource: random() < 0.6 ? 'pbs' : 'pve', newestLocation: 'pbs-main:store1' }),
    newestSize: Math.floor(random() * 40 * 1024 ** 3),
    count: never ? 0 : RECORDS_PER_GUEST,
    lastJob: {
      state: STATES[Math.floor(random() * STATES.length)]!,
      time: Math.floor(nowS - random() * 2 * DAY),
      taskId: `lab-UPID:${i}`,
    },
    coverage: orphaned ? 'unknown' : COVERAGE[Math.floor(random() * COVERAGE.length)]!,
    verifyFailed: 0,
  }
}

/** `guests` summaries (guests plus 2 % orphaned groups). */
export function createCoverageEstate(guests: number, nowMs: number): GuestBackup[] {
  const random = createRandom(guests + 26)
  const nowS = Math.floor(nowMs / 1000)
  return Array.from({ length: guests }, (_, i) => makeSummary(random, i, nowS, 0))
}

/** The cases at one size. */
export function benchBackupCoverage(size: number): BenchResult[] {
  const now = Date.UTC(2025, 0, 15, 12)
  const { warmup, iterations } = getIterations(size)
  const base = createCoverageEstate(size, now)
  const random = createRandom(size + 99)
  const request: BackupCoverageRequest = DEFAULT_COVERAGE_REQUEST
  const input = (guestBackups: GuestBackup[], at = now): BackupCoverageInput => ({
    guestBackups,
    guests: [],
    config: CONFIG,
    loaded: true,
    now: at,
  })
  const records = size * RECORDS_PER_GUEST
  const label = (what: string) => `coverage ${what} (${records.toLocaleString('en-US')} records)`
  const results: BenchResult[] = []

  results.push(
    measure({
      name: label('first build'),
      size,
      warmup,
      iterations,
      run: () => void createBackupCoveragePipeline().compute(input(base), request),
    }),
  )

  // One pipeline carried through successive 1 % changes, as live deltas arrive.
  const pipeline = createBackupCoveragePipeline()
  let current = base
  pipeline.compute(input(current), request)
  let tag = 1
  let next: GuestBackup[] = current
  results.push(
    measure({
      name: label('1 % of rows replaced'),
      size,
      warmup,
      iterations,
      before: () => {
        next = current.slice()
        const changes = Math.max(1, Math.round(size / 100))
        const nowS = Math.floor(now / 1000)
        for (let k = 0; k < changes; k++) {
          const at = Math.floor(random() * next.length)
          next[at] = makeSummary(random, at, nowS, tag)
        }
        tag++
      },
      run: () => {
        pipeline.compute(input(next), request)
        current = next
      },
    }),
  )
  const same = input(current)
  results.push(
    measure({
      name: label('flush, nothing changed'),
      size,
      warmup,
      iterations,
      run: () => void pipeline.compute(same, request),
    }),
  )
  let flip = false
  results.push(
    measure({
      name: label('filter chip (overdue / all)'),
      size,
      warmup,
      iterations,
      run: () => {
        flip = !flip
        pipeline.compute(same, { ...request, filter: flip ? 'overdue' : 'all' })
      },
    }),
  )
  let minute = 0
  results.push(
    measure({
      name: label('next minute (re-rank)'),
      size,
      warmup,
      iterations,
      run: () => {
        minute += 37
        pipeline.compute(input(current, now + minute * 60_000), request)
      },
    }),
  )
  return results
}
