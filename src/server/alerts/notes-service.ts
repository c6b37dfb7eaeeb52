// Notes on alerts (issue 28 item 4): who wrote what, when, on one occurrence of an alert. Stored on
// the occurrence's history row (store/alert-history.ts), so they stay in History with it and are
// pruned with it; the notes of the open occurrences are held here to mark the published alerts
// (live-state's decorate and GET /api/alerts/active), as the silences mark them.
//
// Bounds: ALERT_NOTES_MAX notes of ALERT_NOTE_MAX characters per occurrence; marking costs one map
// lookup per alert, nothing at all while no open occurrence has a note.
import type { Alert, AlertNote } from '../../shared/model/alerts.ts'
import type { AlertHistoryRepo } from '../store/alert-history.ts'

export interface NotesServiceDeps {
  repo: Pick<AlertHistoryRepo, 'addNote' | 'openNotes'>
  /** The active alerts (alert service). */
  active: () => readonly Alert[]
  now: () => number
  /** A note was added: publish the alerts again. */
  onChange: () => void
}

export type AddNoteResult =
  | { ok: true; note: AlertNote; notes: AlertNote[] }
  | { ok: false; status: 400 | 404; message: string }

export interface NotesService {
  add(alertId: string, author: string, text: string): AddNoteResult
  /** `alerts` with each noted one replaced by a copy carrying its notes (the same array if none). */
  mark(alerts: Alert[]): Alert[]
  /** Read the open occurrences' notes again (a standby collector taking over). */
  reload(): void
}

interface Held {
  startMs: number
  notes: AlertNote[]
}

export function createNotesService(deps: NotesServiceDeps): NotesService {
  let held = new Map<string, Held>()
  const copies = new WeakMap<Alert, { notes: AlertNote[]; copy: Alert }>()
  const load = () => {
    held = new Map()
    for (const [key, notes] of deps.repo.openNotes()) {
      const at = key.lastIndexOf('@')
      held.set(key.slice(0, at), { startMs: Number(key.slice(at + 1)), notes })
    }
  }
  load()
  return {
    add(alertId, author, text) {
      const alert = deps.active().find((a) => a.id === alertId)
      if (!alert) return { ok: false, status: 404, message: `alert not found: ${alertId}` }
      const startMs = Date.parse(alert.startTime)
      const note: AlertNote = { author, at: new Date(deps.now()).toISOString(), text }
      const result = deps.repo.addNote(alertId, startMs, note)
      if (!result.ok) {
        return result.reason === 'full'
          ? { ok: false, status: 400, message: 'text: this alert has the most notes it can hold' }
          : { ok: false, status: 404, message: `alert not found: ${alertId}` }
      }
      held.set(alertId, { startMs, notes: result.notes })
      deps.onChange()
      return { ok: true, note, notes: result.notes }
    },
    mark(alerts) {
      if (held.size === 0) return alerts
      let out: Alert[] | null = null
      let hits = 0
      for (let i = 0; i < alerts.length; i++) {
        const alert = alerts[i]!
        const entry = held.get(alert.id)
        if (!entry || Date.parse(alert.startTime) !== entry.startMs) continue
        hits++
        let cached = copies.get(alert)
        if (cached?.notes !== entry.notes) {
          cached = { notes: entry.notes, copy: { ...alert, notes: entry.notes } }
          copies.set(alert, cached)
        }
        out ??= alerts.slice()
        out[i] = cached.copy
      }
      // Occurrences that ended (or started anew) keep their notes in History only.
      if (hits < held.size) {
        const starts = new Map<string, string>()
        for (const alert of alerts) if (held.has(alert.id)) starts.set(alert.id, alert.startTime)
        for (const [id, entry] of held) {
          const start = starts.get(id)
          if (start === undefined || Date.parse(start) !== entry.startMs) held.delete(id)
        }
      }
      return out ?? alerts
    },
    reload: load,
  }
}
