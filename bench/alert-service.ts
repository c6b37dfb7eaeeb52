// Benchmark (issue 27): what runs on the loop after evaluate() when alerts fire and resolve: the
// alert service's decorate() with a real SQLite file (the app's schema, WAL): persisting the
// active rows and their history occurrences in one transaction, then one socket broadcast per
// transition. The estate of alerts.ts; 5 % of the running guests cross cpu (one alert each:
// about 4,900 fire at 100k), then recover. Notification listeners are not attached (bench/notify.ts
// measures the dispatcher). Figures per poll: the whole decorate(), evaluate() alone, and
// persist + publish on the poll's turn (decorate minus evaluate, from the service's own stats()),
// and the longest turn of the loop the persistence took (a storm is written in slices, one per
// turn, since issue 27: the first turn or the longest later slice).
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { Guest, State } from '../src/shared/model/state.ts'
import { createAlertService, type AlertService } from '../src/server/alerts/service.ts'
import { createAlertHistoryRepo } from '../src/server/store/alert-history.ts'
import { createAlertsRepo } from '../src/server/store/alerts-repo.ts'
import { openDatabase } from '../src/server/store/db.ts'
import { benchAlertsInputs } from './alerts.ts'
import type { BenchResult } from './harness.ts'

function summarise(name: string, size: number, samples: number[]): BenchResult {
  const times = [...samples].sort((a, b) => a - b)
  const at = (q: number) => times[Math.min(times.length - 1, Math.ceil(q * times.length) - 1)]!
  return {
    name,
    size,
    iterations: times.length,
    medianMs: at(0.5),
    p95Ms: at(0.95),
    meanMs: times.reduce((sum, t) => sum + t, 0) / times.length,
    minMs: times[0]!,
  }
}

/** The cases at one estate size (a fresh SQLite file each). */
export async function benchAlertService(size: number): Promise<BenchResult[]> {
  const { calm, config } = benchAlertsInputs(size)
  const cross = (guests: Guest[]) =>
    guests.map((g, i) => (i % 20 === 0 && g.status === 'running' ? { ...g, cpu: 0.97 } : g))
  const crossed: State = JSON.parse(
    JSON.stringify({ ...calm, vms: cross(calm.vms), containers: cross(calm.containers) }),
  ) as State
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pulse-bench-alert-service-'))
  const db = openDatabase(dir)
  let time = calm.lastUpdate
  let frames = 0
  const service: AlertService = createAlertService({
    repo: createAlertsRepo(db),
    history: createAlertHistoryRepo(db),
    now: () => time,
    // What the hub's broadcast does before its (here empty) client loop: one frame per message.
    broadcast: (type, data) => {
      const frame = JSON.stringify({ type, data, timestamp: new Date(time).toISOString() })
      frames += frame.length > 0 ? 1 : 0
    },
    republish: () => {},
    log: { warn: () => {}, error: () => {} },
  })
  service.saveConfig(config)
  type Samples = {
    total: number[]
    evaluate: number[]
    evaluateTurn: number[]
    persist: number[]
    slice: number[]
  }
  const samples = () =>
    ({ total: [], evaluate: [], evaluateTurn: [], persist: [], slice: [] }) as Samples
  const cases = { fire: samples(), resolve: samples(), steady: samples() }
  let slices = 0
  const poll = async (state: State, into: Samples) => {
    time += 10_000
    const start = performance.now()
    service.decorate({ ...state, lastUpdate: time }, time, true)
    const total = performance.now() - start
    // The evaluation runs a slice per turn, then a storm's step is written a slice per turn of
    // the loop: let both finish before the next poll.
    await service.settled()
    const stats = service.stats()
    into.total.push(total)
    into.evaluate.push(stats.evaluateMs)
    into.evaluateTurn.push(stats.evaluateLongestMs)
    into.persist.push(stats.persistMs)
    // The longest turn of the loop the poll's persistence took: its first one or a later slice.
    into.slice.push(Math.max(stats.persistMs, stats.longestSliceMs))
    slices = Math.max(slices, stats.slices)
  }
  const scratch = samples()
  await poll(calm, scratch)
  const open = service.active().length
  const rounds = size >= 100_000 ? { warmup: 2, iterations: 10 } : { warmup: 3, iterations: 20 }
  let fired = 0
  for (let i = 0; i < rounds.warmup + rounds.iterations; i++) {
    const keep = i >= rounds.warmup
    await poll(calm, keep ? cases.steady : scratch)
    const before = service.active().length
    await poll(crossed, keep ? cases.fire : scratch)
    fired = service.active().length - before
    await poll(calm, keep ? cases.resolve : scratch)
  }
  service.close()
  db.close()
  fs.rmSync(dir, { recursive: true, force: true })
  console.log(
    `alert-service @${size.toLocaleString('en-US')}: ${open} alerts open in the steady estate, ` +
      `${fired} fired per crossing poll, ${frames} socket frames built, ` +
      `at most ${slices} slices per poll`,
  )
  const out: BenchResult[] = []
  for (const [label, s] of [
    ['5% cross cpu (fire)', cases.fire],
    ['5% recover (resolve)', cases.resolve],
    ['no change', cases.steady],
  ] as const) {
    out.push(summarise(`${label}: decorate total`, size, s.total))
    out.push(summarise(`${label}: evaluate`, size, s.evaluate))
    out.push(summarise(`${label}: longest loop turn of evaluate`, size, s.evaluateTurn))
    out.push(summarise(`${label}: persist + publish`, size, s.persist))
    out.push(summarise(`${label}: longest loop turn of persist`, size, s.slice))
  }
  return out
}
