// Benchmark (issue 26): what the backup alert kinds add to the alert engine's evaluate() per poll.
// The estate of bench/alerts.ts (steady guest metrics) plus one backup summary per guest and 40
// PBS jobs. "backups off" is the same evaluation with config.backups.enabled false: the difference
// is the backup kinds' cost. With the rule, 1 guest in 100 is tagged production and in no job
// (the demo's "Production guests must be in a backup job").
import type { AlertConfig } from '../src/shared/model/alerts.ts'
import { DEMO_BACKUP_RULE } from '../src/server/demo-alerts.ts'
import type { GuestBackup, PbsJob } from '../src/shared/model/backup-health.ts'
import type { Guest, State } from '../src/shared/model/state.ts'
import { evaluate } from '../src/server/alerts/evaluate.ts'
import { createEngineState, type EngineState } from '../src/server/alerts/engine-types.ts'
import { benchAlertsInputs } from './alerts.ts'
import { getIterations, measure, type BenchResult } from './harness.ts'

const DAY_S = 86_400

const RULE = DEMO_BACKUP_RULE

function summaries(guests: readonly Guest[], nowS: number, overEvery: number): GuestBackup[] {
  return guests.map((g, i) => ({
    id: g.id,
    instance: g.instance,
    node: g.node,
    vmid: g.vmid,
    type: g.type,
    name: g.name,
    template: false,
    orphaned: false,
    // Over age: 9 days old; else backed up within the last day.
    newest: overEvery > 0 && i % overEvery === 0 ? nowS - 9 * DAY_S : nowS - (i % 20) * 3600,
    newestSource: 'pbs',
    count: 5,
    coverage: i % 100 === 7 ? 'none' : 'enabled',
    verifyFailed: 0,
  }))
}

function jobs(nowS: number): PbsJob[] {
  return Array.from({ length: 40 }, (_, i) => ({
    id: `pbs-bench-verify-v${i}`,
    pbs: 'pbs-bench',
    instance: 'bench',
    kind: 'verify' as const,
    jobId: `v${i}`,
    store: 'main',
    schedule: 'daily',
    enabled: true,
    nextRun: nowS + DAY_S,
    lastRun: {
      upid: `UPID:${i}`,
      state: 'ok' as const,
      status: 'OK',
      startTime: nowS - 3600,
      endTime: nowS - 3000,
      duration: 600,
    },
  }))
}

/** Run the backup cases at one estate size. */
export function benchAlertBackups(size: number): BenchResult[] {
  const { calm, config } = benchAlertsInputs(size)
  const nowS = Math.floor(calm.lastUpdate / 1000)
  const guests = [...calm.vms, ...calm.containers]
  const tagged = (g: Guest, i: number): Guest =>
    i % 100 === 7 ? { ...g, tags: [...(g.tags ?? []), 'production'] } : g
  const base = {
    ...calm,
    pbsJobs: jobs(nowS),
    connectionHealth: { ...calm.connectionHealth, 'pbs-bench': true },
    backupsCollectedAt: calm.lastUpdate,
  }
  const healthy: State = { ...base, guestBackups: summaries(guests, nowS, 0) }
  const overAge: State = { ...base, guestBackups: summaries(guests, nowS, 20) }
  let index = 0
  const withTags: State = {
    ...overAge,
    vms: calm.vms.map((g) => tagged(g, index++)),
    containers: calm.containers.map((g) => tagged(g, index++)),
  }
  const off: AlertConfig = { ...config, backups: { ...config.backups, enabled: false } }
  const ruled: AlertConfig = { ...config, customRules: [RULE] }
  const counts = getIterations(size)
  const results: BenchResult[] = []
  const run = (name: string, state: State, cfg: AlertConfig, prime: State | null) => {
    let engine: EngineState = createEngineState()
    let time = calm.lastUpdate
    const poll = (s: State) => {
      time += 10_000
      engine = evaluate({ ...s, lastUpdate: time }, cfg, time, engine).next
    }
    poll(prime ?? state)
    results.push(
      measure({
        name,
        size,
        ...counts,
        // Fire cases start from the healthy estate each time; steady cases from the same one.
        before: prime ? () => void ((engine = createEngineState()), poll(prime)) : undefined,
        run: () => void poll(state),
      }),
    )
    return engine.active.size
  }
  run('backups off (baseline)', healthy, off, null)
  run('backups on, all healthy', healthy, config, null)
  const open = run('backups on, 5% over age (steady, alerts open)', overAge, config, null)
  run('backups on, 5% over age (fire)', overAge, config, healthy)
  run('with the production rule, 1% in no job (steady)', withTags, ruled, null)
  console.log(`alert-backups @${size.toLocaleString('en-US')}: ${open} alerts open at 5% over age`)
  return results
}
