// Benchmark: the alert engine's evaluate() per poll with 100 enabled custom rules of 3 filters each
// (issue 24 item 1). The estate, config and cases are those of alerts.ts (calm estate, every guest
// with 7 metrics + 2 filesystems), plus the rules. Every poll hands the engine freshly parsed guest
// objects, as the collector does, so nothing is found by object identity.
import type { AlertConfig, AlertRule } from '../src/shared/model/alerts.ts'
import type { State } from '../src/shared/model/state.ts'
import { evaluate } from '../src/server/alerts/evaluate.ts'
import { createEngineState, type EngineState } from '../src/server/alerts/engine-types.ts'
import { benchAlertsInputs } from './alerts.ts'
import { getIterations, measure, type BenchResult } from './harness.ts'

const RULES = 100
const TAGS = ['production', 'staging', 'development', 'backup', 'web', 'db', 'eu', 'us', 'k8s']
const ROLES = ['web', 'db', 'cache', 'api', 'worker', 'mail', 'dns', 'proxy', 'ci', 'backup']

/** Rule i: 3 filters on tags, names, nodes and vmids, AND or OR, as an administrator writes them. */
function benchRule(i: number, nodes: readonly string[]): AlertRule {
  const node = nodes[(i * 7) % nodes.length]!
  const tag = TAGS[i % TAGS.length]!
  const role = ROLES[i % ROLES.length]!
  const shapes: Array<['AND' | 'OR', string[]]> = [
    ['OR', [`tags:${tag}`, `name:${role}-${(i % 36).toString(36)}`, `node:${node}`]],
    ['AND', [`node:${node}`, `tags:${tag}`, `name:${role}`]],
    ['OR', [`name:${role}-1${(i % 36).toString(36)}`, `vmid:${1000 + i}`, `tags:${tag},eu`]],
    ['AND', [`tags:${tag}`, `${role}`, `node:${node.slice(0, -1)}`]],
  ]
  const [logicalOperator, texts] = shapes[i % shapes.length]!
  return {
    id: `rule-${i}`,
    name: `Rule ${i}`,
    description: '',
    enabled: true,
    priority: i % 10,
    filterConditions: {
      logicalOperator,
      filters: texts.map((rawText) => ({ type: 'text', field: '', value: rawText, rawText })),
    },
    // Above the calm estate's values (cpu < 70 %, memory < 80 %): the work measured is the matching.
    thresholds: {
      cpu: { trigger: 75 + (i % 20), clear: 70 + (i % 20) },
      memory: { trigger: 82 + (i % 10), clear: 77 + (i % 10) },
    },
    notifications: {},
  }
}

const roundTrip = (state: State): State => JSON.parse(JSON.stringify(state)) as State

/** The 100-rule cases at one estate size. */
export function benchAlertRules(size: number): BenchResult[] {
  const { calm, config: base } = benchAlertsInputs(size)
  const nodes = [...new Set(calm.vms.map((g) => g.node))]
  const rules = Array.from({ length: RULES }, (_, i) => benchRule(i, nodes))
  const config: AlertConfig = { ...base, customRules: rules }
  // Two parses of the same estate: consecutive polls never share a guest object.
  const polls = [roundTrip(calm), roundTrip(calm)]
  const counts = getIterations(size)
  let engine: EngineState = createEngineState()
  let time = calm.lastUpdate
  let turn = 0
  const poll = (cfg: AlertConfig) => {
    time += 10_000
    const state = polls[turn++ % 2]!
    state.lastUpdate = time
    engine = evaluate(state, cfg, time, engine).next
  }
  poll(config)
  const open = engine.active.size
  const results: BenchResult[] = [
    measure({
      name: `no change, ${RULES} rules (steady estate, new poll)`,
      size,
      ...counts,
      run: () => poll(config),
    }),
  ]
  // The worst case for the memory: one more rule (matching no guest) with a cpu trigger of 1 %
  // puts every running guest over the lowest trigger, so every guest's rule is looked up.
  const lowRule = benchRule(RULES, nodes)
  lowRule.filterConditions.filters = [
    { type: 'text', field: '', value: 'no-such-tag', rawText: 'tags:no-such-tag' },
  ]
  lowRule.thresholds = { cpu: { trigger: 1, clear: 0.5 } }
  const everyGuest: AlertConfig = { ...config, customRules: [...rules, lowRule] }
  poll(everyGuest)
  results.push(
    measure({
      name: `no change, ${RULES + 1} rules, every guest looked up`,
      size,
      ...counts,
      run: () => poll(everyGuest),
    }),
  )
  // The same polls without rules, for comparison on the same machine and estate.
  results.push(
    measure({
      name: 'no change, no rules (the same polls)',
      size,
      ...counts,
      run: () => poll(base),
    }),
  )
  // 1 % of the guests retagged every poll: they are matched again, the others are not.
  const retag = (state: State, on: boolean) => {
    for (const guests of [state.vms, state.containers]) {
      for (let i = 0; i < guests.length; i += 100) guests[i]!.tags = on ? ['staging'] : []
    }
  }
  let flip = false
  results.push(
    measure({
      name: `1% of guests retagged, ${RULES} rules`,
      size,
      ...counts,
      before: () => {
        flip = !flip
        for (const state of polls) retag(state, flip)
      },
      run: () => poll(config),
    }),
  )
  // A saved config whose rule filters changed (rule 0 gains or loses a term): every guest is
  // matched against every rule once, as on the first poll after a restart.
  let saved = config
  let edits = 0
  const few = { warmup: 1, iterations: Math.min(counts.iterations, 5) }
  results.push(
    measure({
      name: `first poll after a rules change, ${RULES} rules`,
      size,
      ...few,
      before: () => {
        const [first, ...others] = config.customRules
        const filters = first!.filterConditions.filters.slice(0, edits++ % 2 === 0 ? 2 : 3)
        const changed = { ...first!, filterConditions: { ...first!.filterConditions, filters } }
        saved = { ...config, customRules: [changed, ...others] }
      },
      run: () => poll(saved),
    }),
  )
  console.log(
    `alert-rules @${size.toLocaleString('en-US')}: ${open} alerts open in the steady estate ` +
      '(powered-off guests)',
  )
  return results
}
