// System settings (spec 001 §3 System settings) as JSON values by key in one small table. The
// table is created here if missing (additive; no shipped migration changes).
import type { Db } from './db.ts'

export interface SystemSettingsRepo {
  /** The stored value, or undefined when never set (or unreadable). */
  get(key: string): unknown
  set(key: string, value: unknown, now: number): void
}

/** Repository over the `system_settings` table. */
export function createSystemSettingsRepo(db: Db): SystemSettingsRepo {
  db.exec(`CREATE TABLE IF NOT EXISTS system_settings (
     key TEXT PRIMARY KEY,
     value TEXT NOT NULL,
     updated_at INTEGER NOT NULL
   )`)
  const select = db.prepare('SELECT value FROM system_settings WHERE key = ?')
  const upsert = db.prepare(`INSERT INTO system_settings (key, value, updated_at)
    VALUES (@key, @value, @now)
    ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`)
  return {
    get(key) {
      const row = select.get(key) as { value: string } | undefined
      if (!row) return undefined
      try {
        return JSON.parse(row.value) as unknown
      } catch {
        return undefined
      }
    },
    set(key, value, now) {
      upsert.run({ key, value: JSON.stringify(value), now })
    },
  }
}
