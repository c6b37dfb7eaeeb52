// The custom rules editor's form rules: what a draft must hold, the rule it becomes, and moving a
// rule in precedence by changing priorities only.
import { describe, expect, it } from 'vitest'
import type { AlertRule } from '../../../../src/shared/model/alerts.ts'
import {
  byPrecedence,
  checkDraft,
  draftOf,
  movePriority,
  newDraft,
  previewRules,
  ruleOf,
} from '../../../../src/shared/views/rule-edit.ts'

function rule(id: string, priority: number, patch: Partial<AlertRule> = {}): AlertRule {
  return {
    id,
    name: id,
    description: '',
    enabled: true,
    priority,
    filterConditions: {
      logicalOperator: 'AND',
      filters: [{ type: 'text', field: '', value: id, rawText: `tags:${id}` }],
    },
    thresholds: { cpu: { trigger: 90, clear: 85 } },
    notifications: {},
    ...patch,
  }
}

describe('rule drafts', () => {
  it('starts a new rule above the others with nothing set, and refuses it until named and filtered', () => {
    const draft = newDraft([rule('a', 10), rule('b', 40)], () => 'rule-new')
    expect(draft).toMatchObject({ id: 'rule-new', isNew: true, priority: '50', filters: [''] })
    expect(Object.keys(checkDraft(draft)).sort()).toEqual(['filters', 'name'])
    expect(newDraft([], () => 'x').priority).toBe('10')
  })

  it.each([
    [{ name: ' ' }, 'name'],
    [{ name: 'x'.repeat(201) }, 'name'],
    [{ priority: '1.5' }, 'priority'],
    [{ priority: '2000000' }, 'priority'],
    [{ filters: ['  ', ''] }, 'filters'],
    [{ filters: ['x'.repeat(501)] }, 'filters'],
    [{ thresholds: { ...draftOf(rule('a', 1)).thresholds, memory: 'high' } }, 'thresholds.memory'],
  ])('names the field of %j', (patch, field) => {
    const draft = { ...draftOf(rule('a', 1)), ...patch }
    expect(Object.keys(checkDraft(draft))).toEqual([field])
  })

  it('becomes a rule with clear = trigger - 5, only the thresholds typed, and both switches', () => {
    const previous = rule('a', 5, { createdAt: '2026-01-01T00:00:00.000Z' })
    const draft = {
      ...draftOf(previous),
      name: ' Databases ',
      filters: [' tags:db ', '', 'cpu>50'],
      logicalOperator: 'OR' as const,
      thresholds: {
        ...draftOf(previous).thresholds,
        cpu: '',
        memory: '3',
        disk: '150',
        diskRead: '-1',
      },
      email: false,
    }
    expect(checkDraft(draft)).toEqual({})
    const out = ruleOf(draft, previous, '2026-11-29T12:00:00.000Z')
    expect(out).toEqual({
      id: 'a',
      name: 'Databases',
      description: '',
      enabled: true,
      priority: 5,
      filterConditions: {
        logicalOperator: 'OR',
        filters: [
          { type: 'text', field: '', value: 'tags:db', rawText: 'tags:db' },
          { type: 'text', field: '', value: 'cpu>50', rawText: 'cpu>50' },
        ],
      },
      // 150 % is above the maximum: 100 (spec 001 §5); -1 turns the metric off.
      thresholds: {
        memory: { trigger: 3, clear: 0 },
        disk: { trigger: 100, clear: 95 },
        diskRead: { trigger: -1, clear: 0 },
      },
      notifications: { email: { enabled: false }, webhook: { enabled: true } },
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-11-29T12:00:00.000Z',
    })
    // Back into the form as typed (trigger values).
    expect(draftOf(out).thresholds).toMatchObject({ cpu: '', memory: '3', disk: '100' })
  })
})

describe('moving rules in precedence', () => {
  const apply = (rules: AlertRule[], changes: Map<string, number>) =>
    rules.map((r) => ({ ...r, priority: changes.get(r.id) ?? r.priority }))
  const order = (rules: AlertRule[]) => byPrecedence(rules).map((r) => r.id)

  it('moves one place, changing only the priorities that must change', () => {
    const rules = [rule('a', 10), rule('b', 20), rule('c', 20), rule('d', 5)]
    expect(order(rules)).toEqual(['b', 'c', 'a', 'd'])
    expect(movePriority(rules, 'a', 'up')).toEqual(new Map([['c', 9]]))
    expect(order(apply(rules, movePriority(rules, 'a', 'up')))).toEqual(['b', 'a', 'c', 'd'])
    expect(movePriority(rules, 'c', 'up')).toEqual(new Map([['b', 19]]))
    expect(order(apply(rules, movePriority(rules, 'c', 'up')))).toEqual(['c', 'b', 'a', 'd'])
    expect(order(apply(rules, movePriority(rules, 'a', 'down')))).toEqual(['b', 'c', 'd', 'a'])
    expect(movePriority(rules, 'b', 'up').size).toBe(0)
    expect(movePriority(rules, 'd', 'down').size).toBe(0)
  })

  it('previews the draft in place of its rule, or as a new one', () => {
    const rules = [rule('a', 10), rule('b', 20)]
    const edited = { ...draftOf(rules[0]!), priority: '30', filters: ['web'] }
    expect(previewRules(rules, edited)[0]).toEqual({
      id: 'a',
      enabled: true,
      priority: 30,
      logicalOperator: 'AND',
      filters: ['web'],
    })
    expect(
      previewRules(
        rules,
        newDraft(rules, () => 'n'),
      ).map((r) => r.id),
    ).toEqual(['a', 'b', 'n'])
  })
})
