// Issue 26: the backup alert settings through PUT/GET /api/alerts/config (real HTTP routes via
// app.inject, a real SQLite file): validation naming the field, round trip, and a config saved
// before the backup settings existed.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { App } from '../../../../src/server/app.ts'
import type { AlertConfig } from '../../../../src/shared/model/alerts.ts'
import { DEMO_BACKUP_RULE } from '../../../../src/server/demo-alerts.ts'
import { DEFAULT_ALERT_CONFIG } from '../../../../src/server/alerts/config-defaults.ts'
import { createAlertsRepo } from '../../../../src/server/store/alerts-repo.ts'
import { openDatabase } from '../../../../src/server/store/db.ts'
import { makeTempDir } from '../temp-dir.ts'
import { buildAppOn, createClock } from './alert-fixture.ts'

let app: App
let dir: string
let cleanup: () => void
const clock = createClock()

beforeEach(async () => {
  ;({ dir, cleanup } = makeTempDir())
  app = await buildAppOn(dir, clock.now)
})
afterEach(async () => {
  await app.close()
  cleanup()
})

const getConfig = async () =>
  (await app.http.inject({ method: 'GET', url: '/api/alerts/config' })).json() as AlertConfig
const put = (payload: unknown) =>
  app.http.inject({ method: 'PUT', url: '/api/alerts/config', payload: payload as object })

const rule = { ...DEMO_BACKUP_RULE, id: 'prod', priority: 10 }

describe('backup alert settings in the alert config', () => {
  it.each([
    [
      'backups.ageWarningDays',
      (c: AlertConfig) => ((c.backups as unknown as Record<string, unknown>).ageWarningDays = 'x'),
      'must be a number',
    ],
    [
      'backups.overdueGraceMinutes',
      (c: AlertConfig) => (c.backups.overdueGraceMinutes = 1.5),
      'must be a whole number',
    ],
    [
      'backups.orphaned',
      (c: AlertConfig) => ((c.backups as unknown as Record<string, unknown>).orphaned = 'yes'),
      'must be true or false',
    ],
    [
      'backups.ageCriticalDays',
      (c: AlertConfig) => (c.backups.ageCriticalDays = 2),
      'must not be below the warning days',
    ],
    [
      'overrides.lab-pve1-101.backup.ageWarningDays',
      (c: AlertConfig) => (c.overrides = { 'lab-pve1-101': { backup: { ageWarningDays: -1 } } }),
      'must be between 0 and 3650',
    ],
    [
      'customRules.0.backup.notBackedUp',
      (c: AlertConfig) =>
        (c.customRules = [{ ...rule, backup: { notBackedUp: 1 as unknown as boolean } }]),
      'must be true or false',
    ],
  ])(
    'refuses a bad %s with a 400 naming it, and changes nothing',
    async (field, spoil, problem) => {
      const config = await getConfig()
      spoil(config)
      const res = await put(config)
      expect(res.statusCode).toBe(400)
      expect(res.json().error).toBe(`${field}: ${problem}`)
      expect(await getConfig()).toEqual(await getConfig())
      expect((await getConfig()).backups).toEqual(DEFAULT_ALERT_CONFIG.backups)
    },
  )

  it('round-trips defaults, a guest override, a PBS override and a rule', async () => {
    const config = await getConfig()
    config.backups = {
      ...config.backups,
      ageWarningDays: 1.5,
      ageCriticalDays: 4,
      notBackedUp: true,
      orphaned: true,
      overdueGraceMinutes: 90,
    }
    config.overrides = {
      'lab-pve1-101': { backup: { ageWarningDays: 10, ageCriticalDays: 0, notBackedUp: false } },
      'pbs-vault': { backup: { enabled: false } },
    }
    config.customRules = [rule]
    expect((await put(config)).statusCode).toBe(200)
    const back = await getConfig()
    expect(back.backups).toEqual(config.backups)
    expect(back.overrides).toEqual(config.overrides)
    expect(back.customRules[0]!.backup).toEqual({ notBackedUp: true })
  })

  it('loads a config saved before the backup settings existed with the defaults merged', async () => {
    const config = await getConfig()
    config.guestDefaults.cpu = { trigger: 70, clear: 65 }
    delete (config as Partial<AlertConfig>).backups
    await app.close()
    const db = openDatabase(dir)
    createAlertsRepo(db).saveConfig(config, clock.now())
    db.close()
    app = await buildAppOn(dir, clock.now)
    const loaded = await getConfig()
    expect(loaded.guestDefaults.cpu).toEqual({ trigger: 70, clear: 65 })
    expect(loaded.backups).toEqual(DEFAULT_ALERT_CONFIG.backups)
  })
})
