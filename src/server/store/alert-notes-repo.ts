// Notes on alert occurrences (issue 28 item 4): the alert_notes table (store/db.ts), one row per
// history row that has notes, deleted with it (ON DELETE CASCADE), so notes stay in History with
// their occurrence and are pruned with it. A row holds the notes as JSON and their lower-cased
// text; that text is appended to the history row's `search` column when a note is added, and kept
// there (KEEP_NOTES) whenever the history repo rewrites the row, so History's search finds notes.
// The history repo (store/alert-history.ts) builds this one and exposes addNote and openNotes.
import { ALERT_NOTES_MAX, type AlertNote } from '../../shared/model/alerts.ts'
import type { Db } from './db.ts'

/** The notes' text, kept at the end of a history row's search text when the row is rewritten. */
export const KEEP_NOTES = `COALESCE((SELECT ' ' || notes_text FROM alert_notes n
  WHERE n.history_id = alert_history.history_id), '')`

/** The key of one occurrence: alert id and start (epoch ms). */
export const occurrenceKey = (alertId: string, startTime: number) => `${alertId}@${startTime}`

/** A row's notes; a column that does not read as a list of notes is none. */
function parseNotes(json: string | null): AlertNote[] | undefined {
  if (json === null) return undefined
  try {
    const value: unknown = JSON.parse(json)
    if (!Array.isArray(value)) return undefined
    const notes = value.filter(
      (n): n is AlertNote =>
        n !== null &&
        typeof n === 'object' &&
        typeof n.author === 'string' &&
        typeof n.at === 'string' &&
        typeof n.text === 'string',
    )
    return notes.length > 0 ? notes : undefined
  } catch {
    return undefined
  }
}

export interface AlertNotesRepo {
  /**
   * Issue 28: add a note to the open occurrence of `alertId` that started at `startTime`; its
   * notes after, or why not: no such open occurrence, or it holds ALERT_NOTES_MAX already.
   */
  addNote(
    alertId: string,
    startTime: number,
    note: AlertNote,
  ): { ok: true; notes: AlertNote[] } | { ok: false; reason: 'missing' | 'full' }
  /** Issue 28: the notes of every open occurrence that has some, by `${alertId}@${startTime}`. */
  openNotes(): Map<string, AlertNote[]>
  /** The notes of these history rows by history id, in one lookup; rows with none are absent. */
  notesOf(historyIds: readonly number[]): Map<number, AlertNote[]>
}

/** Notes of alert occurrences on SQLite. */
export function createAlertNotesRepo(db: Db): AlertNotesRepo {
  const openRow = db.prepare<
    [string],
    { history_id: number; start_time: number; notes: string | null }
  >(
    `SELECT h.history_id, h.start_time, n.notes FROM alert_history h
       LEFT JOIN alert_notes n ON n.history_id = h.history_id
     WHERE h.alert_id = ? AND h.end_time IS NULL ORDER BY h.history_id DESC LIMIT 1`,
  )
  const writeNotes = db.prepare(
    `INSERT INTO alert_notes (history_id, notes, notes_text) VALUES (@historyId, @notes, @text)
     ON CONFLICT (history_id) DO UPDATE SET notes = excluded.notes,
       notes_text = notes_text || ' ' || excluded.notes_text`,
  )
  const searchNote = db.prepare(
    `UPDATE alert_history SET search = search || ' ' || @text WHERE history_id = @historyId`,
  )
  const openWithNotes = db.prepare<
    [],
    { alert_id: string; start_time: number; notes: string | null }
  >(
    `SELECT h.alert_id, h.start_time, n.notes FROM alert_notes n
       JOIN alert_history h ON h.history_id = n.history_id
     WHERE h.end_time IS NULL`,
  )
  const notesOf = db.prepare<[string], { history_id: number; notes: string }>(
    `SELECT history_id, notes FROM alert_notes
     WHERE history_id IN (SELECT value FROM json_each(?))`,
  )

  return {
    addNote: db.transaction((alertId: string, startTime: number, note: AlertNote) => {
      const row = openRow.get(alertId)
      if (!row || row.start_time !== startTime)
        return { ok: false as const, reason: 'missing' as const }
      const notes = parseNotes(row.notes) ?? []
      if (notes.length >= ALERT_NOTES_MAX) return { ok: false as const, reason: 'full' as const }
      notes.push(note)
      const text = note.text.toLowerCase()
      writeNotes.run({ historyId: row.history_id, notes: JSON.stringify(notes), text })
      searchNote.run({ historyId: row.history_id, text })
      return { ok: true as const, notes }
    }),
    openNotes() {
      const out = new Map<string, AlertNote[]>()
      for (const row of openWithNotes.all()) {
        const notes = parseNotes(row.notes)
        if (notes) out.set(occurrenceKey(row.alert_id, row.start_time), notes)
      }
      return out
    },
    notesOf(historyIds) {
      const out = new Map<number, AlertNote[]>()
      // Few occurrences have notes: a page without rows asks nothing.
      if (historyIds.length === 0) return out
      for (const row of notesOf.all(JSON.stringify(historyIds))) {
        const notes = parseNotes(row.notes)
        if (notes) out.set(row.history_id, notes)
      }
      return out
    },
  }
}
