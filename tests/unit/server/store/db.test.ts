import { afterEach, describe, expect, it } from 'vitest'
import { migrate, openDatabase } from '../../../../src/server/store/db.ts'
import { makeTempDir } from '../temp-dir.ts'

let cleanup = () => {}
afterEach(() => cleanup())

describe('database', () => {
  it('creates the schema on a new file and is idempotent on reopen', () => {
    const tmp = makeTempDir()
    cleanup = tmp.cleanup
    const db = openDatabase(tmp.dir)
    const version = migrate(db)
    expect(version).toBeGreaterThanOrEqual(1)
    const tables = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
      .all() as Array<{ name: string }>
    expect(tables.map((t) => t.name)).toContain('nodes')
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal')
    db.close()
    const again = openDatabase(tmp.dir)
    expect(migrate(again)).toBe(version)
    again.close()
  })
})
