// A storm's step written in slices (issue 27: the loop is never held by one long transaction):
// the rows equal what one transaction writes, nothing is shown or told before its rows are
// committed, and the files as a kill -9 between two slices leaves them restart into every alert
// with one history occurrence each. Real SQLite files; the "kill" is a copy of the database and
// its WAL taken between two slices (what the disk holds at that moment), opened as a restart.
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createAlertService, type AlertService } from '../../../../src/server/alerts/service.ts'
import { createAlertHistoryRepo } from '../../../../src/server/store/alert-history.ts'
import { createAlertsRepo } from '../../../../src/server/store/alerts-repo.ts'
import { openDatabase, type Db } from '../../../../src/server/store/db.ts'
import type { State } from '../../../../src/shared/model/state.ts'
import { makeTempDir } from '../temp-dir.ts'
import { instantConfig, makeGuest, makeState, T0 } from './engine-fixture.ts'

const GUESTS = 60
const SLICE = 7
let time = T0
const cleanups: (() => void)[] = []
afterEach(() => {
  for (const c of cleanups.splice(0)) c()
})

const estate = (hot: (i: number) => boolean): State =>
  makeState({
    vms: Array.from({ length: GUESTS }, (_, i) => makeGuest(100 + i, { cpu: hot(i) ? 0.97 : 0.1 })),
  })
const calm = estate(() => false)
const storm = estate((i) => i < 40)
const shifted = estate((i) => i >= 20 && i < 55)

interface Harness {
  db: Db
  service: AlertService
  told: string[]
  dir: string
}

function start(dir: string, persistSlice: number): Harness {
  const db = openDatabase(dir)
  const told: string[] = []
  const service = createAlertService({
    repo: createAlertsRepo(db),
    history: createAlertHistoryRepo(db),
    now: () => time,
    broadcast: (type) => told.push(type),
    republish: () => {},
    log: { warn: () => {}, error: () => {} },
    persistSlice,
  })
  service.saveConfig(instantConfig())
  return { db, service, told, dir }
}

function fresh(persistSlice: number): Harness {
  const { dir, cleanup } = makeTempDir()
  const h = start(dir, persistSlice)
  cleanups.push(() => {
    h.service.close()
    h.db.close()
    cleanup()
  })
  return h
}

const rows = (db: Db) => ({
  active: db.prepare('SELECT id, json, updated_at FROM active_alerts ORDER BY id').all(),
  history: db.prepare('SELECT * FROM alert_history ORDER BY history_id').all(),
})

const historyPerAlert = (db: Db) =>
  db
    .prepare<[], { alert_id: string; n: number; open: number }>(
      `SELECT alert_id, COUNT(*) AS n, TOTAL(end_time IS NULL) AS open FROM alert_history
       GROUP BY alert_id ORDER BY alert_id`,
    )
    .all()

const poll = (h: Harness, state: State) =>
  h.service.decorate({ ...state, lastUpdate: time }, time, true)

/** The database files as they are on disk now, copied into a new directory. */
function copyFiles(from: string): string {
  const { dir, cleanup } = makeTempDir()
  cleanups.push(cleanup)
  for (const name of ['pulse.db', 'pulse.db-wal']) {
    const file = path.join(from, name)
    if (fs.existsSync(file)) fs.copyFileSync(file, path.join(dir, name))
  }
  return dir
}

describe('a storm written in slices', () => {
  it('leaves the rows one transaction leaves, and tells each alert only once it is stored', async () => {
    const sliced = fresh(SLICE)
    const whole = fresh(Infinity)
    const reader = openDatabase(sliced.dir)
    cleanups.unshift(() => reader.close())
    const isActive = reader.prepare<[string], { id: string }>(
      'SELECT id FROM active_alerts WHERE id = ?',
    )
    const untold: string[] = []
    sliced.service.onTransition((t) => {
      // Read through another connection: committed, not merely written in this one's transaction.
      const stored = isActive.get(t.alert.id) !== undefined
      if (stored !== (t.kind !== 'resolved')) untold.push(`${t.kind}:${t.alert.id}`)
    })
    let maxSlices = 0
    for (const state of [calm, storm, shifted, storm, calm]) {
      time += 10_000
      const shown = sliced.service.active().length
      poll(sliced, state)
      poll(whole, state)
      if (sliced.service.stats().slices > 0) {
        // Between slices: the service still shows and tells the step before.
        expect(sliced.service.active().length).toBe(shown)
      }
      await sliced.service.settled()
      maxSlices = Math.max(maxSlices, sliced.service.stats().slices)
      expect(rows(sliced.db)).toEqual(rows(whole.db))
      expect(sliced.service.active()).toEqual(whole.service.active())
      expect(sliced.told).toEqual(whole.told)
    }
    expect(maxSlices).toBeGreaterThan(3)
    expect(untold).toEqual([])
    expect(sliced.told.length).toBeGreaterThan(100)
  })

  it('restarts from a kill between two slices into every alert, each with one occurrence', async () => {
    const reference = fresh(Infinity)
    time += 10_000
    poll(reference, calm)
    time += 10_000
    poll(reference, storm)
    const expected = historyPerAlert(reference.db)
    expect(expected).toHaveLength(40)

    for (const turns of [0, 2]) {
      const h = fresh(SLICE)
      const at = time
      time = at - 10_000
      poll(h, calm)
      time = at
      poll(h, storm)
      for (let i = 0; i < turns; i++) await new Promise((resolve) => setImmediate(resolve))
      const killed = copyFiles(h.dir)
      expect(h.told).toEqual([])
      await h.service.settled()

      const restarted = start(killed, SLICE)
      cleanups.unshift(() => {
        restarted.service.close()
        restarted.db.close()
      })
      // What was committed: whole slices, each alert with its open occurrence.
      const stored = restarted.service.active().length
      expect(stored % SLICE).toBe(0)
      expect(stored).toBeGreaterThan(turns > 0 ? SLICE : 0)
      expect(stored).toBeLessThan(40)
      expect(historyPerAlert(restarted.db)).toEqual(
        restarted.service
          .active()
          .map((a) => ({ alert_id: a.id, n: 1, open: 1 }))
          .sort((a, b) => a.alert_id.localeCompare(b.alert_id)),
      )
      // The next poll fires what was not stored, and only that.
      time = at + 10_000
      poll(restarted, storm)
      await restarted.service.settled()
      expect(restarted.told.filter((t) => t === 'alert')).toHaveLength(40 - stored)
      expect(historyPerAlert(restarted.db)).toEqual(expected)
    }
  })
})
