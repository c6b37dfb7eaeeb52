// The silences table (issue 28): every silence, open or ended, as its JSON. Each write is one
// statement (SQLite's own transaction), so a kill leaves a silence either stored whole or not.
import type { Silence } from '../../shared/model/silences.ts'
import type { Db } from './db.ts'

export interface SilencesRepo {
  /** Every stored silence, oldest first. Rows that do not parse are skipped (and named). */
  list(): { silences: Silence[]; unreadable: string[] }
  insert(silence: Silence, now: number): void
  /** Store `silence` (already marked ended) in place of the row of its id; false when none. */
  replace(silence: Silence, endedAt: number): boolean
  /** Delete these silences. */
  remove(ids: readonly string[]): number
}

export function createSilencesRepo(db: Db): SilencesRepo {
  const all = db.prepare<[], { id: string; json: string }>(
    'SELECT id, json FROM silences ORDER BY created_at, rowid',
  )
  const insert = db.prepare<[string, string, number]>(
    'INSERT INTO silences (id, json, created_at) VALUES (?, ?, ?)',
  )
  const update = db.prepare<[string, number, string]>(
    'UPDATE silences SET json = ?, ended_at = ? WHERE id = ?',
  )
  const remove = db.prepare<[string]>(
    'DELETE FROM silences WHERE id IN (SELECT value FROM json_each(?))',
  )
  return {
    list() {
      const silences: Silence[] = []
      const unreadable: string[] = []
      for (const row of all.all()) {
        try {
          silences.push(JSON.parse(row.json) as Silence)
        } catch {
          unreadable.push(row.id)
        }
      }
      return { silences, unreadable }
    },
    insert: (silence, now) => void insert.run(silence.id, JSON.stringify(silence), now),
    replace: (silence, endedAt) =>
      update.run(JSON.stringify(silence), endedAt, silence.id).changes === 1,
    remove: (ids) => (ids.length === 0 ? 0 : remove.run(JSON.stringify(ids)).changes),
  }
}
