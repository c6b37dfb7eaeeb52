// PUT /api/alerts/config over real HTTP routes (app.inject) against a real SQLite file: what a save
// answers when it is refused, what it stores, and what it does to the alerts already open.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { App } from '../../../../src/server/app.ts'
import type { Alert, AlertConfig, AlertRule } from '../../../../src/shared/model/alerts.ts'
import { createAlertsRepo } from '../../../../src/server/store/alerts-repo.ts'
import { openDatabase } from '../../../../src/server/store/db.ts'
import { makeTempDir } from '../temp-dir.ts'
import { buildAppOn, cpuPoll, createClock, poll, useNoDelays } from './alert-fixture.ts'

let app: App
let dir: string
let cleanup: () => void
const clock = createClock()

beforeEach(async () => {
  ;({ dir, cleanup } = makeTempDir())
  app = await buildAppOn(dir, clock.now)
  await useNoDelays(app)
})
afterEach(async () => {
  await app.close()
  cleanup()
})

const getConfig = async () =>
  (await app.http.inject({ method: 'GET', url: '/api/alerts/config' })).json() as AlertConfig
const put = (payload: unknown) =>
  app.http.inject({ method: 'PUT', url: '/api/alerts/config', payload: payload as object })
const active = async () =>
  (await app.http.inject({ method: 'GET', url: '/api/alerts/active' })).json() as Alert[]

describe('a refused config', () => {
  it('names the bad field once in the 400 message', async () => {
    const config = await getConfig()
    config.guestDefaults.cpu.trigger = 500
    const res = await put(config)
    expect(res.statusCode).toBe(400)
    expect(res.json().error).toBe('guestDefaults.cpu.trigger: must be between -1 and 100')
  })

  it('names a clear level above its trigger once', async () => {
    const config = await getConfig()
    config.guestDefaults.memory = { trigger: 80, clear: 90 }
    const res = await put(config)
    expect(res.statusCode).toBe(400)
    expect(res.json().error).toBe('guestDefaults.memory.clear: must not be above the trigger')
  })
})

describe('clear equal to trigger', () => {
  it('is stored as trigger minus hysteresisMargin, for defaults, overrides and rules', async () => {
    const config = await getConfig()
    config.hysteresisMargin = 4
    config.guestDefaults.cpu = { trigger: 90, clear: 90 }
    config.overrides = { 'lab-pve1-101': { memory: { trigger: 70, clear: 70 } } }
    config.customRules = [
      {
        id: 'db',
        name: 'Databases',
        description: '',
        enabled: true,
        priority: 1,
        filterConditions: {
          logicalOperator: 'AND',
          filters: [{ type: 'text', field: '', value: 'db', rawText: 'tags:db' }],
        },
        thresholds: { disk: { trigger: 95, clear: 95 } },
        notifications: {},
      },
    ]
    const res = await put(config)
    expect(res.statusCode).toBe(200)
    const saved = await getConfig()
    expect(saved.guestDefaults.cpu).toEqual({ trigger: 90, clear: 86 })
    expect(saved.overrides['lab-pve1-101']!.memory).toEqual({ trigger: 70, clear: 66 })
    expect(saved.customRules[0]!.thresholds.disk).toEqual({ trigger: 95, clear: 91 })
  })

  it('gives an alert hysteresis: a wobble around the trigger does not resolve it', async () => {
    const config = await getConfig()
    config.guestDefaults.cpu = { trigger: 90, clear: 90 }
    expect((await put(config)).statusCode).toBe(200)
    await poll(app, clock, cpuPoll({ 101: 0.9 }, 1))
    expect((await active()).map((a) => a.type)).toEqual(['cpu'])
    await poll(app, clock, cpuPoll({ 101: 0.899 }, 2))
    expect((await active()).map((a) => a.type)).toEqual(['cpu'])
  })
})

describe('raising a threshold above an open alert', () => {
  async function openAt91(): Promise<Alert> {
    await poll(app, clock, cpuPoll({ 101: 0.91, 102: 0.97 }, 1))
    const alerts = await active()
    expect(alerts.map((a) => a.resourceId).sort()).toEqual(['lab-pve1-101', 'lab-pve1-102'])
    return alerts.find((a) => a.resourceId === 'lab-pve1-101')!
  }

  it('resolves the alert below the new default trigger and keeps the one above it', async () => {
    await openAt91()
    const before = (await active()).find((a) => a.resourceId === 'lab-pve1-102')!
    const config = await getConfig()
    config.guestDefaults.cpu = { trigger: 95, clear: 90 }
    expect((await put(config)).statusCode).toBe(200)
    const after = await active()
    expect(after.map((a) => a.resourceId)).toEqual(['lab-pve1-102'])
    expect(after[0]).toMatchObject({ id: before.id, startTime: before.startTime, threshold: 95 })
    // The next poll does not bring it back.
    await poll(app, clock, cpuPoll({ 101: 0.91, 102: 0.97 }, 2))
    expect((await active()).map((a) => a.resourceId)).toEqual(['lab-pve1-102'])
  })

  it('resolves the alert below the trigger of a new override', async () => {
    await openAt91()
    const config = await getConfig()
    config.overrides = { 'lab-pve1-101': { cpu: { trigger: 95, clear: 90 } } }
    expect((await put(config)).statusCode).toBe(200)
    expect((await active()).map((a) => a.resourceId)).toEqual(['lab-pve1-102'])
  })

  it('resolves it on the first poll when the save came before any poll (after a restart)', async () => {
    await openAt91()
    await app.close()
    app = await buildAppOn(dir, clock.now)
    const config = await getConfig()
    config.guestDefaults.cpu = { trigger: 95, clear: 90 }
    expect((await put(config)).statusCode).toBe(200)
    expect((await active()).map((a) => a.resourceId).sort()).toEqual([
      'lab-pve1-101',
      'lab-pve1-102',
    ])
    await poll(app, clock, cpuPoll({ 101: 0.91, 102: 0.97 }, 2))
    expect((await active()).map((a) => a.resourceId)).toEqual(['lab-pve1-102'])
  })
})

/** `count` enabled rules of 3 OR filters of `terms` search terms each. */
function manyRules(count: number, terms: number): AlertRule[] {
  const filter = (i: number, f: number) => {
    const rawText = Array.from({ length: terms }, (_, t) => `tags:t${i}-${f}-${t}`).join(' OR ')
    return { type: 'text' as const, field: '', value: rawText, rawText }
  }
  return Array.from({ length: count }, (_, i) => ({
    id: `r${i}`,
    name: `Rule ${i}`,
    description: '',
    enabled: true,
    priority: i,
    filterConditions: { logicalOperator: 'OR', filters: [0, 1, 2].map((f) => filter(i, f)) },
    thresholds: { cpu: { trigger: 90, clear: 85 } },
    notifications: {},
  }))
}

describe("the custom rules' cost bound", () => {
  it('accepts 100 enabled rules of 3 filters of 2 terms', async () => {
    const config = await getConfig()
    config.customRules = manyRules(100, 2)
    expect((await put(config)).statusCode).toBe(200)
    expect((await getConfig()).customRules).toHaveLength(100)
  })

  it('refuses 500 enabled rules of 3 filters with a 400 that says what to reduce', async () => {
    const before = await getConfig()
    const res = await put({ ...before, customRules: manyRules(500, 1) })
    expect(res.statusCode).toBe(400)
    expect(res.json().error).toBe(
      "customRules: the enabled rules' filters hold 1500 search terms, more than 600: " +
        'disable or delete rules, or use fewer filters and terms per rule',
    )
    expect(await getConfig()).toEqual(before)
  })

  it('counts only enabled rules: the same 500 rules are accepted disabled', async () => {
    const config = await getConfig()
    config.customRules = manyRules(500, 1).map((r) => ({ ...r, enabled: false }))
    expect((await put(config)).statusCode).toBe(200)
  })

  it('keeps a stored config over the bound at a start (saved by an older version)', async () => {
    const config = await getConfig()
    config.guestDefaults.cpu = { trigger: 70, clear: 65 }
    config.customRules = manyRules(300, 1)
    await app.close()
    const db = openDatabase(dir)
    createAlertsRepo(db).saveConfig(config, clock.now())
    db.close()
    app = await buildAppOn(dir, clock.now)
    const loaded = await getConfig()
    expect(loaded.guestDefaults.cpu).toEqual({ trigger: 70, clear: 65 })
    expect(loaded.customRules).toHaveLength(300)
  })
})
