import { describe, expect, it } from 'vitest'
import {
  createDefaultAlertConfig,
  DEFAULT_ALERT_CONFIG,
} from '../../../../src/server/alerts/config-defaults.ts'
import { parseAlertConfig } from '../../../../src/server/alerts/config-validate.ts'

function full() {
  const config = createDefaultAlertConfig()
  config.overrides = {
    'lab-pve2-104': { memory: { trigger: 95, clear: 90 }, poweredOffSeverity: 'critical' },
    'lab-pve1': { disableConnectivity: true, temperature: { trigger: 150, clear: 140 } },
    'pbs-vault': { disabled: true },
  }
  config.customRules = [
    {
      id: 'r1',
      name: 'db',
      description: 'databases',
      enabled: true,
      priority: 100,
      filterConditions: {
        logicalOperator: 'OR',
        filters: [{ type: 'text', field: 'tags', value: 'db', rawText: 'tags:db' }],
      },
      thresholds: { cpu: { trigger: 90, clear: 85 } },
      notifications: { email: { enabled: true } },
      createdAt: '2025-10-11T21:00:00Z',
    },
  ]
  config.metricTimeThresholds = { guest: { diskWrite: 60, default: 10 } }
  config.schedule.quietHours.timezone = 'Europe/Berlin'
  config.schedule.cooldown = 0
  return config
}

/** The config with one field replaced at a dotted path. */
function withField(path: string, value: unknown): unknown {
  const config = full() as unknown as Record<string, unknown>
  const keys = path.split('.')
  let target = config
  for (const key of keys.slice(0, -1)) target = target[key] as Record<string, unknown>
  target[keys[keys.length - 1]!] = value
  return config
}

describe('parseAlertConfig', () => {
  it('round-trips a valid full config unchanged', () => {
    const config = full()
    expect(parseAlertConfig(structuredClone(config))).toEqual({ ok: true, config })
    expect(parseAlertConfig(structuredClone(DEFAULT_ALERT_CONFIG))).toEqual({
      ok: true,
      config: DEFAULT_ALERT_CONFIG,
    })
  })

  it('fills missing sections and fields from the defaults, and drops unknown keys', () => {
    const result = parseAlertConfig({
      guestDefaults: { cpu: { trigger: 70 } },
      schedule: { quietHours: { enabled: true, days: { saturday: true } } },
      dockerDefaults: { cpu: 1 },
    })
    expect(result.ok).toBe(true)
    if (!result.ok) return
    expect(result.config.guestDefaults.cpu).toEqual({ trigger: 70, clear: 65 })
    expect(result.config.guestDefaults.memory).toEqual({ trigger: 85, clear: 80 })
    expect(result.config.schedule.quietHours).toMatchObject({
      enabled: true,
      start: '22:00',
      days: { monday: true, saturday: true, sunday: false },
    })
    expect(result.config.flapping).toEqual(DEFAULT_ALERT_CONFIG.flapping)
    expect('dockerDefaults' in result.config).toBe(false)
  })

  it('makes a missing or non-positive clear level trigger - hysteresisMargin (min 0)', () => {
    const result = parseAlertConfig({
      hysteresisMargin: 10,
      storageDefault: { trigger: 5, clear: 0 },
      overrides: { x: { cpu: { trigger: 50, clear: -1 } } },
    })
    expect(result.ok && result.config.storageDefault).toEqual({ trigger: 5, clear: 0 })
    expect(result.ok && result.config.overrides.x!.cpu).toEqual({ trigger: 50, clear: 40 })
  })

  it.each([
    ['guestDefaults.cpu.trigger', 101, 'must be between -1 and 100'],
    ['guestDefaults.cpu.trigger', '80', 'must be a number'],
    ['guestDefaults.diskRead.trigger', 10_001, 'must be between -1 and 10000'],
    ['nodeDefaults.temperature.trigger', 201, 'must be between -1 and 200'],
    ['guestDefaults.memory.clear', 90, 'must not be above the trigger'],
    ['guestDefaults.poweredOffSeverity', 'info', 'must be warning or critical'],
    ['storageDefault', 85, 'must be an object with trigger and clear'],
    ['timeThresholds.node', 301, 'must be between 0 and 300'],
    ['metricTimeThresholds.guest.diskWrite', -5, 'must be between 0 and 300'],
    ['schedule.cooldown', 3, 'must be 0 (off) or between 5 and 120'],
    ['schedule.maxAlertsHour', 11, 'must be between 1 and 10'],
    ['schedule.groupingWindow', 30, 'must be between 60 and 1800'],
    ['schedule.grouping.window', 3600, 'must be between 60 and 1800'],
    ['schedule.escalation.levels.0.after', 4, 'must be between 5 and 180'],
    ['schedule.escalation.levels.1.notify', 'sms', 'must be email, webhook or all'],
    ['schedule.quietHours.days', ['monday'], 'must be an object keyed by weekday'],
    ['schedule.quietHours.days.friday', 'yes', 'must be true or false'],
    ['schedule.quietHours.start', '25:00', 'must be a time as HH:MM'],
    ['schedule.quietHours.timezone', 'Mars/Olympus', 'must be an IANA time zone'],
    ['overrides.lab-pve1.temperature.trigger', 300, 'must be between -1 and 200'],
    ['overrides.lab-pve1.disabled', 1, 'must be true or false'],
    [
      'customRules.0.filterConditions.filters.0.rawText',
      'x'.repeat(501),
      'must be at most 500 characters',
    ],
    ['customRules.0.filterConditions.logicalOperator', 'XOR', 'must be AND or OR'],
    ['customRules.0.thresholds.cpu.trigger', 120, 'must be between -1 and 100'],
    ['customRules.0.priority', 1.5, 'must be a whole number'],
    ['customRules.0.id', '', 'must not be empty'],
    ['flapping.minStability', 2, 'must be between 0 and 1'],
    ['aggregation.count', 0, 'must be between 1 and 1000'],
    ['ioNormalization.networkMax', 'big', 'must be a number'],
    ['history.retentionDays', 0, 'must be between 1 and 3650'],
    ['disableAllPBS', 'no', 'must be true or false'],
    ['enabled', null, 'must be true or false'],
  ])('rejects %s = %j naming the field', (path, value, message) => {
    const result = parseAlertConfig(withField(path, value))
    expect(result).toEqual({ ok: false, field: path, message })
  })

  it('rejects an override key longer than 500 characters and a body that is not an object', () => {
    const result = parseAlertConfig({ overrides: { ['x'.repeat(501)]: {} } })
    expect(result.ok).toBe(false)
    expect(!result.ok && result.field.startsWith('overrides')).toBe(true)
    expect(parseAlertConfig([])).toMatchObject({ ok: false, field: 'config' })
  })
})
