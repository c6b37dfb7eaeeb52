// The rules editor's preview must count what the alert engine decides: matched guests by the
// engine's compileRulePredicate, and the rule that takes each guest by priority then stored order.
import { describe, expect, it } from 'vitest'
import type { AlertRule } from '../../../../src/shared/model/alerts.ts'
import type { Entity, Guest } from '../../../../src/shared/model/state.ts'
import { compileRulePredicate } from '../../../../src/shared/views/alert-thresholds.ts'
import type { GuestStamp } from '../../../../src/shared/views/guest-view.ts'
import {
  createRulePreviewView,
  type PreviewRule,
  type RulePreviewInput,
} from '../../../../src/shared/views/rule-preview.ts'
import { createRng } from '../../../../src/server/sim/prng.ts'
import { makeGuest, makeNode } from './guest-fixtures.ts'

const TAGS = ['production', 'staging', 'db', 'web']

function estate(count: number): Guest[] {
  const random = createRng(7).next
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!
  return Array.from({ length: count }, (_, i) =>
    makeGuest(100 + i, {
      id: `lab-${pick(['pve1', 'pve2'])}-${100 + i}`,
      node: pick(['pve1', 'pve2']),
      name: `${pick(['web', 'db', 'cache'])}-${i}`,
      status: random() < 0.8 ? 'running' : 'stopped',
      cpu: random(),
      tags: random() < 0.4 ? [pick(TAGS)] : [],
    }),
  )
}

const NODES = [makeNode('pve1'), makeNode('pve2')]
const STAMP: GuestStamp = { data: 1, structure: 1, identity: 1, placement: 1, labels: 1 }

const NO_ALERTS: Entity[] = []

function input(guests: Guest[], alerts: Entity[] = NO_ALERTS, stamp = STAMP): RulePreviewInput {
  return {
    guests,
    nodes: NODES,
    stamp,
    alerts,
    ready: true,
  }
}

function toAlertRule(rule: PreviewRule): AlertRule {
  return {
    id: rule.id,
    name: rule.id,
    description: '',
    enabled: rule.enabled,
    priority: rule.priority,
    filterConditions: {
      logicalOperator: rule.logicalOperator,
      filters: rule.filters.map((rawText) => ({
        type: 'text',
        field: '',
        value: rawText,
        rawText,
      })),
    },
    thresholds: {},
    notifications: {},
  }
}

const RULES: PreviewRule[] = [
  { id: 'db', enabled: true, priority: 10, logicalOperator: 'AND', filters: ['tags:db'] },
  {
    id: 'busy-web',
    enabled: true,
    priority: 20,
    logicalOperator: 'AND',
    filters: ['web', 'cpu>50'],
  },
  { id: 'either', enabled: true, priority: 5, logicalOperator: 'OR', filters: ['pve2', 'cache'] },
  { id: 'off', enabled: false, priority: 100, logicalOperator: 'AND', filters: ['running'] },
  { id: 'empty', enabled: true, priority: 50, logicalOperator: 'AND', filters: ['  '] },
  { id: 'same-priority', enabled: true, priority: 5, logicalOperator: 'AND', filters: ['db'] },
]

describe('rule preview', () => {
  const guests = estate(2_000)

  it('counts the guests each rule matches and takes, as the alert engine decides', () => {
    const view = createRulePreviewView()
    const model = view.compute(input(guests), {
      kind: 'rulePreview',
      rules: RULES,
      focus: null,
      limit: 0,
    })
    const compiled = RULES.map((rule, index) => ({
      rule,
      index,
      test: compileRulePredicate(toAlertRule(rule)),
    }))
    const precedence = compiled
      .filter((c) => c.rule.enabled)
      .sort((a, b) => b.rule.priority - a.rule.priority || a.index - b.index)
    for (const c of compiled) {
      const matched = guests.filter((g) => c.test(g)).length
      const applies = guests.filter((g) => precedence.find((p) => p.test(g))?.rule === c.rule)
      const count = model.counts.find((x) => x.id === c.rule.id)!
      expect(count.matched, c.rule.id).toBe(matched)
      expect(count.applies, c.rule.id).toBe(applies.length)
    }
    // The cases the list holds: a disabled rule decides nothing, an empty filter matches nothing.
    expect(model.counts.find((x) => x.id === 'off')).toMatchObject({ applies: 0 })
    expect(model.counts.find((x) => x.id === 'off')!.matched).toBeGreaterThan(0)
    expect(model.counts.find((x) => x.id === 'empty')).toMatchObject({ matched: 0, applies: 0 })
    expect(model.total).toBe(2_000)
  })

  it('lists the focused rule’s guests it takes first, then those a higher rule takes, and their alerts', () => {
    const view = createRulePreviewView()
    const web = guests.filter((g) => g.name.startsWith('web') && g.cpu > 0.5)
    const taken = web[0]!
    const alerts: Entity[] = [
      { id: `${taken.id}-cpu`, resourceId: taken.id, resourceName: taken.name, type: 'cpu' },
      { id: 'node-alert', resourceId: 'lab-pve1', resourceName: 'pve1', type: 'cpu' },
    ]
    const model = view.compute(input(guests, alerts), {
      kind: 'rulePreview',
      rules: [
        ...RULES,
        { id: 'all-web', enabled: true, priority: 1, logicalOperator: 'AND', filters: ['web'] },
      ],
      focus: 'all-web',
      limit: 100,
    })
    const count = model.counts.find((x) => x.id === 'all-web')!
    const own = model.guests.filter((g) => g.takenBy === undefined)
    expect(own.length).toBe(Math.min(100, count.applies))
    const firstTaken = model.guests.findIndex((g) => g.takenBy !== undefined)
    if (firstTaken >= 0) expect(model.guests.slice(firstTaken).every((g) => g.takenBy)).toBe(true)
    // The busy web guest's alert counts for the rule that takes it (busy-web), not all-web.
    expect(model.counts.find((x) => x.id === 'busy-web')!.alerts).toBe(1)
    expect(count.alerts).toBe(0)
    expect(model.alerts).toEqual([])
    expect(model.guests.every((g) => g.name.startsWith('web'))).toBe(true)
  })

  it('gives the same object for the same input and request, and recounts after live data changes', () => {
    const view = createRulePreviewView()
    const own = estate(200)
    const request = {
      kind: 'rulePreview' as const,
      rules: [RULES[1]!],
      focus: 'busy-web',
      limit: 10,
    }
    const first = view.compute(input(own), request)
    expect(view.compute(input(own), { ...request })).toBe(first)
    const idle = own.find((g) => g.name.startsWith('web') && g.cpu <= 0.5)!
    idle.cpu = 0.99
    const second = view.compute(input(own, [], { ...STAMP, data: 2 }), request)
    expect(second.counts[0]!.matched).toBe(first.counts[0]!.matched + 1)
    expect(second.guests.some((g) => g.id === idle.id && g.cpu === 0.99)).toBe(true)
  })
})
