// Issue 26: the demo's first start seeds the "production guests must be in a backup job" rule into
// the alert config (real app, real SQLite file); a config the user saved is left as it is.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { App } from '../../../src/server/app.ts'
import { DEMO_BACKUP_RULE, seedDemoAlertConfig } from '../../../src/server/demo-alerts.ts'
import type { AlertConfig } from '../../../src/shared/model/alerts.ts'
import { buildAppOn, createClock } from './alerts/alert-fixture.ts'
import { makeTempDir } from './temp-dir.ts'

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

describe('seedDemoAlertConfig', () => {
  it('adds the backup rule on a first start, and keeps it across a restart', async () => {
    expect(seedDemoAlertConfig(app)).toBe(true)
    const config = await getConfig()
    expect(config.customRules).toEqual([DEMO_BACKUP_RULE])
    expect(config.customRules[0]!.filterConditions.filters[0]!.rawText).toBe('tags:production')
    await app.close()
    app = await buildAppOn(dir, clock.now)
    expect(seedDemoAlertConfig(app)).toBe(false)
    expect((await getConfig()).customRules).toHaveLength(1)
  })

  it('never touches a config the user saved, even one without the rule', async () => {
    const config = await getConfig()
    config.guestDefaults.cpu = { trigger: 70, clear: 65 }
    expect(
      (await app.http.inject({ method: 'PUT', url: '/api/alerts/config', payload: config }))
        .statusCode,
    ).toBe(200)
    expect(seedDemoAlertConfig(app)).toBe(false)
    expect((await getConfig()).customRules).toEqual([])
  })
})
