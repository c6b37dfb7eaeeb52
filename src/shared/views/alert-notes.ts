// Notes on an alert occurrence (issue 28 item 4) as the Overview and History show them: validated
// (a note that is not one is left out) and with the time written for the reader. Pure.
import type { AlertNote } from '../model/alerts.ts'

/** One note, ready to show. */
export interface AlertNoteView {
  author: string
  /** ISO 8601, as stored. */
  at: string
  /** Local date and time, e.g. 'Nov 29, 2026, 14:05'; '' when unreadable. */
  atText: string
  text: string
}

const formatter = new Intl.DateTimeFormat(undefined, {
  dateStyle: 'medium',
  timeStyle: 'short',
  hourCycle: 'h23',
})

/** The notes of an alert or history row (`alert.notes`, any shape), oldest first. */
export function toNoteViews(value: unknown): AlertNoteView[] {
  if (!Array.isArray(value)) return []
  const out: AlertNoteView[] = []
  for (const note of value as Partial<AlertNote>[]) {
    if (!note || typeof note.text !== 'string' || typeof note.author !== 'string') continue
    const at = typeof note.at === 'string' ? note.at : ''
    const ms = Date.parse(at)
    out.push({
      author: note.author,
      at,
      atText: Number.isFinite(ms) ? formatter.format(ms) : '',
      text: note.text,
    })
  }
  return out
}

/** '1 note', '3 notes'. */
export function notesLabel(count: number): string {
  return `${count} note${count === 1 ? '' : 's'}`
}
