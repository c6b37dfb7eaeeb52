// The alert config (one JSON row) and the active alerts (one JSON row each, ack included). Every
// write is one synchronous transaction, committed before the caller answers: an acknowledgment
// that was answered survives a kill -9.
import type { Alert, AlertConfig } from '../../shared/model/alerts.ts'
import type { Db } from './db.ts'

/** The active alerts' changes of one evaluation or mutation. */
export interface ActiveAlertChanges {
  upsert: readonly Alert[]
  remove: readonly string[]
}

export interface AlertsRepo {
  /** The stored config as saved (JSON), or null before the first save. */
  loadConfig(): unknown
  saveConfig(config: AlertConfig, now: number): void
  loadActive(): Alert[]
  /** Write the changes; `extra` runs inside the same transaction (the history rows). */
  applyActive(changes: ActiveAlertChanges, now: number, extra?: () => void): void
  /**
   * Copy the WAL into the database now, without waiting on readers (PASSIVE): between a storm's
   * slices, so that no slice's commit pays SQLite's automatic checkpoint of the whole WAL.
   */
  checkpoint(): void
}

/** Alert config and active alerts on SQLite. */
export function createAlertsRepo(db: Db): AlertsRepo {
  const getConfig = db.prepare<[], { json: string }>('SELECT json FROM alert_config WHERE id = 1')
  const putConfig = db.prepare<[string, number]>(
    `INSERT INTO alert_config (id, json, updated_at) VALUES (1, ?, ?)
     ON CONFLICT (id) DO UPDATE SET json = excluded.json, updated_at = excluded.updated_at`,
  )
  const listActive = db.prepare<[], { json: string }>('SELECT json FROM active_alerts')
  const putActive = db.prepare<[string, string, number]>(
    `INSERT INTO active_alerts (id, json, updated_at) VALUES (?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET json = excluded.json, updated_at = excluded.updated_at`,
  )
  const deleteActive = db.prepare<[string]>('DELETE FROM active_alerts WHERE id = ?')

  const apply = db.transaction((changes: ActiveAlertChanges, now: number, extra?: () => void) => {
    for (const alert of changes.upsert) putActive.run(alert.id, JSON.stringify(alert), now)
    for (const id of changes.remove) deleteActive.run(id)
    extra?.()
  })

  return {
    loadConfig() {
      const row = getConfig.get()
      if (!row) return null
      try {
        return JSON.parse(row.json) as unknown
      } catch {
        return null
      }
    },
    saveConfig(config, now) {
      putConfig.run(JSON.stringify(config), now)
    },
    loadActive() {
      const alerts: Alert[] = []
      for (const row of listActive.all()) {
        try {
          alerts.push(JSON.parse(row.json) as Alert)
        } catch {
          // A row no JSON reader can read cannot be shown or resolved: skip it.
        }
      }
      return alerts
    },
    checkpoint() {
      db.pragma('wal_checkpoint(PASSIVE)')
    },
    applyActive(changes, now, extra) {
      if (changes.upsert.length === 0 && changes.remove.length === 0 && !extra) return
      apply(changes, now, extra)
    },
  }
}
