// The migration that carries stored quiet-hours category flags over to the reference's meaning
// (issue 24 #12): a real SQLite file, brought back to the schema before it, given a config saved under
// the old meaning, then migrated forward as a start after the upgrade does.
import { afterEach, describe, expect, it } from 'vitest'
import { MIGRATIONS, migrate, openDatabase, type Db } from '../../../../src/server/store/db.ts'
import { createDefaultAlertConfig } from '../../../../src/server/alerts/config-defaults.ts'
import { makeTempDir } from '../temp-dir.ts'

let cleanup = () => {}
afterEach(() => cleanup())

type Flags = { performance: boolean; storage: boolean; offline: boolean }

/** A database one version before the flag migration, holding `json` as its alert config. */
function beforeUpgrade(json: string): Db {
  const tmp = makeTempDir()
  const db = openDatabase(tmp.dir)
  cleanup = () => {
    db.close()
    tmp.cleanup()
  }
  migrate(db)
  // Back to the version before the flag migration; the ones after it (inbox, silences, notes,
  // indexes) are idempotent and run again.
  const flags = MIGRATIONS.findIndex((sql) =>
    sql.includes('$.schedule.quietHours.suppress.offline'),
  )
  db.prepare('UPDATE schema_version SET version = ?').run(flags)
  db.prepare('INSERT INTO alert_config (id, json, updated_at) VALUES (1, ?, 0)').run(json)
  return db
}

function storedConfig(flags: Flags): string {
  const config = createDefaultAlertConfig()
  config.schedule.quietHours.suppress = flags
  return JSON.stringify(config)
}

function flagsAfterUpgrade(db: Db): Flags {
  migrate(db)
  const row = db.prepare('SELECT json FROM alert_config WHERE id = 1').get() as { json: string }
  return (JSON.parse(row.json) as ReturnType<typeof createDefaultAlertConfig>).schedule.quietHours
    .suppress
}

describe('quiet-hours flags stored under the old meaning', () => {
  it('keeps a chosen category paging: offline let through becomes performance and storage held', () => {
    const db = beforeUpgrade(storedConfig({ performance: false, storage: false, offline: true }))
    expect(flagsAfterUpgrade(db)).toEqual({ performance: true, storage: true, offline: false })
  })

  it('leaves the old default (no flag set) alone, so every critical alert now pages', () => {
    const db = beforeUpgrade(storedConfig({ performance: false, storage: false, offline: false }))
    expect(flagsAfterUpgrade(db)).toEqual({ performance: false, storage: false, offline: false })
  })

  it('leaves a config that is not JSON for the loader, and the start goes on', () => {
    const db = beforeUpgrade('{not json')
    migrate(db)
    const row = db.prepare('SELECT json FROM alert_config WHERE id = 1').get() as { json: string }
    expect(row.json).toBe('{not json')
  })

  it('keeps the rest of the config as it was', () => {
    const before = storedConfig({ performance: true, storage: false, offline: false })
    const db = beforeUpgrade(before)
    migrate(db)
    const row = db.prepare('SELECT json FROM alert_config WHERE id = 1').get() as { json: string }
    const expected = JSON.parse(before) as ReturnType<typeof createDefaultAlertConfig>
    expected.schedule.quietHours.suppress = { performance: false, storage: true, offline: true }
    expect(JSON.parse(row.json)).toEqual(expected)
  })
})
