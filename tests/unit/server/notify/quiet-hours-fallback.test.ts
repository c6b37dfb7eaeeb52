// Issue 24 item 18 through the notification service on a real SQLite file: a quiet-hours time zone
// that reached the database invalid (a hand edit, an old import) once made every dispatch throw,
// so the events were lost. Now quiet hours are ignored (everything is sent when it would be
// without them) and the service logs the field once. The alert source is a small in-memory
// stand-in for the alert service: only its three methods are read, and no engine is needed to
// emit a transition.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createDefaultAlertConfig } from '../../../../src/server/alerts/config-defaults.ts'
import type { AlertTransition } from '../../../../src/server/notify/dispatcher.ts'
import { createNotifyService } from '../../../../src/server/notify/service.ts'
import { openDatabase, type Db } from '../../../../src/server/store/db.ts'
import { createOutboxLog } from '../../../../src/server/store/outbox-log.ts'
import { makeTempDir } from '../temp-dir.ts'
import { makeAlert, T0, testChannel, webhookTo } from './notify-fixture.ts'

let temp: ReturnType<typeof makeTempDir>
let db: Db
beforeEach(() => {
  temp = makeTempDir()
  db = openDatabase(temp.dir)
})
afterEach(() => {
  db.close()
  temp.cleanup()
})

describe('notification service with invalid quiet hours', () => {
  it('sends without quiet hours and logs the invalid zone once', async () => {
    const config = createDefaultAlertConfig()
    config.schedule.grouping.enabled = false
    config.schedule.quietHours = {
      ...config.schedule.quietHours,
      enabled: true,
      start: '00:00',
      end: '23:59',
      timezone: 'Mars/Olympus_Mons',
      days: Object.fromEntries(
        Object.keys(config.schedule.quietHours.days).map((d) => [d, true]),
      ) as typeof config.schedule.quietHours.days,
    }
    const listeners: ((t: AlertTransition) => void)[] = []
    const warnings: { obj: object; msg: string }[] = []
    const errors: { obj: object; msg: string }[] = []
    const now = T0 + 5 * 60 * 60 * 1000
    const service = createNotifyService({
      db,
      alerts: {
        onTransition: (listener) => {
          listeners.push(listener)
          return () => listeners.splice(listeners.indexOf(listener), 1)
        },
        active: () => [],
        config: () => config,
      },
      destinations: () => [webhookTo('a', 'http://127.0.0.1:9/unused')],
      channels: { email: testChannel, webhook: testChannel },
      now: () => now,
      log: {
        error: (obj, msg) => errors.push({ obj, msg }),
        warn: (obj, msg) => warnings.push({ obj, msg }),
      },
    })
    for (const n of [1, 2]) {
      for (const l of listeners) l({ kind: 'fired', alert: makeAlert(n), at: now })
      service.dispatcher.flush()
    }
    const rows = createOutboxLog(db).query({}, { limit: 10, offset: 0 }).rows
    expect(rows.map((r) => [r.status, r.reason ?? null, r.dueAt])).toEqual([
      ['pending', null, now],
      ['pending', null, now],
    ])
    expect(errors).toEqual([])
    expect(warnings).toHaveLength(1)
    expect(warnings[0]!.obj).toEqual({
      field: 'schedule.quietHours.timezone',
      value: 'Mars/Olympus_Mons',
    })
    await service.stop()
  })
})
