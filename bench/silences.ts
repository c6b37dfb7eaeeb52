// Benchmark: silences (issue 28) on every published state. `mark()` runs in live-state's decorate
// on every poll and republish: it asks the active silences about every active alert, and a tag or
// search silence reads the guests, for which it builds an id index once per state. Estate and alerts
// of alerts.ts (5 % of the running guests crossing cpu and memory: two alerts each), 10 active
// silences; every poll a new state, as the collector hands it. The store is an in-memory stand-in
// (this measures the matching, not SQLite).
import type { Alert } from '../src/shared/model/alerts.ts'
import type { Silence, SilenceTarget } from '../src/shared/model/silences.ts'
import type { State } from '../src/shared/model/state.ts'
import { evaluate } from '../src/server/alerts/evaluate.ts'
import { createEngineState } from '../src/server/alerts/engine-types.ts'
import { createSilenceService } from '../src/server/alerts/silence-service.ts'
import type { SilencesRepo } from '../src/server/store/silences-repo.ts'
import { benchAlertsInputs } from './alerts.ts'
import { getIterations, measure, type BenchResult } from './harness.ts'

const SILENCES = 10

function memoryRepo(): SilencesRepo {
  return {
    list: () => ({ silences: [], unreadable: [] }),
    insert: () => undefined,
    replace: () => true,
    remove: () => 0,
  }
}

/** Silence i of a kind: none of them covers more than a few of the alerts. */
function silenceOf(i: number, target: SilenceTarget, now: number): Silence {
  return {
    id: `s${i}`,
    target,
    comment: '',
    author: 'bench',
    createdAt: new Date(now).toISOString(),
    startsAt: new Date(now).toISOString(),
    endsAt: new Date(now + 3_600_000).toISOString(),
  }
}

/** The silence cases at one estate size. */
export function benchSilences(size: number): BenchResult[] {
  const { crossed, config } = benchAlertsInputs(size)
  const now = crossed.lastUpdate
  const alerts: Alert[] = [
    ...evaluate(crossed, config, now, createEngineState()).next.active.values(),
  ]
  const nodes = [...new Set(crossed.vms.map((g) => `${g.instance}/${g.node}`))]
  const counts = getIterations(size)
  const polls: State[] = [0, 1].map(() => JSON.parse(JSON.stringify(crossed)) as State)
  let turn = 0
  const run = (targets: SilenceTarget[]) => {
    const service = createSilenceService({
      repo: memoryRepo(),
      now: () => now,
      alerts: () => alerts,
      onChange: () => undefined,
      onUncovered: () => undefined,
      log: { warn: () => undefined, error: () => undefined },
    })
    targets.forEach((target, i) => service.create(silenceOf(i, target, now)))
    return () => {
      // A new state every poll: its guest lists are new arrays.
      const state = polls[turn++ % 2]!
      service.seen(state)
      service.mark(alerts, state)
    }
  }
  const nodeTargets: SilenceTarget[] = Array.from({ length: SILENCES }, (_, i) => {
    const [instance, node] = nodes[i % nodes.length]!.split('/') as [string, string]
    return { kind: 'node', instance, node }
  })
  const guestTargets: SilenceTarget[] = Array.from({ length: SILENCES }, (_, i) =>
    i % 2 === 0
      ? { kind: 'tag', tag: `no-such-tag-${i}` }
      : { kind: 'search', query: `name:zz${i}` },
  )
  return [
    measure({
      name: `${alerts.length.toLocaleString('en-US')} alerts, ${SILENCES} node silences`,
      size,
      ...counts,
      run: run(nodeTargets),
    }),
    measure({
      name: `${alerts.length.toLocaleString('en-US')} alerts, ${SILENCES} tag / search silences`,
      size,
      ...counts,
      run: run(guestTargets),
    }),
  ]
}
