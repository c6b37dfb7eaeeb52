import { describe, expect, it } from 'vitest'
import type { AlertRule } from '../../../../src/shared/model/alerts.ts'
import { getThresholdResolver } from '../../../../src/shared/views/alert-thresholds.ts'
import { createDefaultAlertConfig } from '../../../../src/server/alerts/config-defaults.ts'
import { makeGuest } from '../../server/alerts/engine-fixture.ts'

const rule = (
  id: string,
  priority: number,
  rawText: string[],
  cpu: number,
  op: 'AND' | 'OR' = 'AND',
): AlertRule => ({
  id,
  name: id,
  description: '',
  enabled: true,
  priority,
  filterConditions: {
    logicalOperator: op,
    filters: rawText.map((text) => ({ type: 'text', field: '', value: text, rawText: text })),
  },
  thresholds: { cpu: { trigger: cpu, clear: 0 } },
  notifications: {},
})

describe('effective alert thresholds', () => {
  it('gives every guest the shared defaults when there are no rules or overrides', () => {
    const resolver = getThresholdResolver(createDefaultAlertConfig())
    const a = resolver.guest(makeGuest(1))
    expect(a).toBe(resolver.guest(makeGuest(2)))
    expect(a).toMatchObject({
      source: 'default',
      pairs: { cpu: { trigger: 80, clear: 75 }, diskRead: null },
    })
    expect(a.triggers.diskRead).toBe(Infinity)
  })

  it('applies override > highest-priority matching rule > defaults', () => {
    const config = createDefaultAlertConfig()
    config.customRules = [
      rule('low', 1, ['tags:db'], 70),
      rule('high', 10, ['tags:db', 'name:guest1'], 95),
      rule('off', 99, ['tags:db'], 50),
    ]
    config.customRules[2]!.enabled = false
    config.overrides['lab-pve1-3'] = { cpu: { trigger: 60, clear: 0 } }
    const resolver = getThresholdResolver(config)
    const db = { tags: ['db'] }
    expect(resolver.guest(makeGuest(1, db))).toMatchObject({
      source: 'rule',
      ruleId: 'high',
      pairs: { cpu: { trigger: 95, clear: 90 } },
    })
    expect(resolver.guest(makeGuest(2, db)).ruleId).toBe('low')
    expect(resolver.guest(makeGuest(2)).source).toBe('default')
    expect(resolver.guest(makeGuest(3, db))).toMatchObject({
      source: 'override',
      ruleId: 'low',
      pairs: { cpu: { trigger: 60, clear: 55 }, memory: { trigger: 85, clear: 80 } },
    })
  })

  it('combines a rule’s filters with OR, and a rule without filters matches nothing', () => {
    const config = createDefaultAlertConfig()
    config.customRules = [
      rule('either', 5, ['tags:web', 'cpu>50'], 99, 'OR'),
      rule('empty', 9, [], 10),
    ]
    const resolver = getThresholdResolver(config)
    expect(resolver.guest(makeGuest(1, { cpu: 0.6 })).ruleId).toBe('either')
    expect(resolver.guest(makeGuest(1, { tags: ['web'] })).ruleId).toBe('either')
    expect(resolver.guest(makeGuest(1)).source).toBe('default')
  })

  it('uses nodeDefaults for PBS unless its pbs-<name> override says otherwise', () => {
    const config = createDefaultAlertConfig()
    config.overrides['pbs-vault'] = {
      memory: { trigger: 95, clear: 90 },
      disableConnectivity: true,
    }
    const resolver = getThresholdResolver(config)
    expect(resolver.pbs('pbs-other').pairs).toEqual({
      cpu: { trigger: 80, clear: 75 },
      memory: { trigger: 85, clear: 80 },
    })
    expect(resolver.pbs('pbs-vault')).toMatchObject({
      disableConnectivity: true,
      pairs: { memory: { trigger: 95 } },
    })
    expect(resolver.storage('s').pairs.usage).toEqual({ trigger: 85, clear: 80 })
    expect(resolver.node('n').pairs.temperature).toEqual({ trigger: 80, clear: 75 })
  })
})
