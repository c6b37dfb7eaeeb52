// Benchmark: the custom rules editor's live preview (issue 28 item 2), as the worker computes it:
// ten rules (tags, names, node, metric filters), the edited one focused with 50 guests listed.
// "keystroke": the edited rule's filter text changes each time (its new terms are evaluated, the
// other rules' masks come from their caches); "live update": a poll changed 30 % of the guests'
// metrics, so the metric rules are evaluated again.
import { createStateStore } from '../src/worker/store.ts'
import { readAlerts } from '../src/worker/alert-acks.ts'
import {
  createRulePreviewView,
  type PreviewRule,
  type RulePreviewInput,
  type RulePreviewRequest,
} from '../src/shared/views/rule-preview.ts'
import { createEstate, createMetricsDelta, createRandom } from './fixtures.ts'
import { getIterations, measure, type BenchResult } from './harness.ts'

const rule = (id: string, priority: number, filters: string[], op: 'AND' | 'OR' = 'AND') =>
  ({ id, enabled: true, priority, logicalOperator: op, filters }) satisfies PreviewRule

const RULES: PreviewRule[] = [
  rule('prod', 100, ['tags:production']),
  rule('db', 90, ['tags:database', 'cpu>20']),
  rule('web', 80, ['web', 'mail'], 'OR'),
  rule('node', 70, ['node:pve3']),
  rule('busy', 60, ['cpu>50']),
  rule('mem', 50, ['mem>80']),
  rule('stopped', 40, ['stopped']),
  rule('vmid', 30, ['vmid:1234']),
  rule('backup', 20, ['tags:backup']),
]
const TYPED = ['t', 'ta', 'tag', 'tags:', 'tags:s', 'tags:st', 'tags:sta', 'tags:stag']

export function benchRulePreview(size: number): BenchResult[] {
  const store = createStateStore()
  const estate = createEstate(size)
  store.applyFull(JSON.parse(JSON.stringify(estate)) as Record<string, unknown>, 0)
  const random = createRandom(5)
  const input = (): RulePreviewInput => ({
    guests: store.getGuests(),
    nodes: store.getNodes(),
    stamp: store.getGuestStamp(),
    live: store.getGuestColumns(),
    alerts: readAlerts(store),
    ready: true,
  })
  const request = (text: string): RulePreviewRequest => ({
    kind: 'rulePreview',
    rules: [...RULES, rule('edited', 10, [text, 'cpu>5'])],
    focus: 'edited',
    limit: 50,
  })
  const counts = getIterations(size)
  const view = createRulePreviewView()
  let turn = 0
  const keystroke = measure({
    name: 'rule preview: keystroke (10 rules)',
    size,
    ...counts,
    run: () => void view.compute(input(), request(TYPED[turn++ % TYPED.length]!)),
  })
  const deltas = Array.from({ length: 4 }, () => createMetricsDelta(estate, 0.3, random))
  let seq = 0
  const live = measure({
    name: 'rule preview: live update (30 % of guests)',
    size,
    ...counts,
    before: () => store.applyDelta(deltas[seq % deltas.length]!, ++seq),
    run: () => void view.compute(input(), request('tags:staging')),
  })
  return [keystroke, live]
}
