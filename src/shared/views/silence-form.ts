// The silence dialog's rules (issue 28 item 1), pure so the dialog and the tests share them: what
// an alert can be silenced as, how a target reads, and the POST body a filled-in form makes.
import { WEEKDAYS } from '../model/alerts.ts'
import type { SilenceTarget, SilenceView, SilenceWindow } from '../model/silences.ts'
import type { AlertsOverviewRow } from './alerts-overview-types.ts'

/** The durations offered (minutes), 'until' a chosen time, or 'open' (weekly windows only). */
export type SilenceDuration = '60' | '240' | '1440' | 'until' | 'open'

export interface SilenceForm {
  target: SilenceTarget
  /** The resource's name when silenced from an alert (sent as the silence's label). */
  label?: string
  duration: SilenceDuration
  /** Epoch ms of the chosen end (duration 'until'); NaN when none or unreadable. */
  until: number
  comment: string
  /** A weekly maintenance window instead of one period from now. */
  weekly: boolean
  window: SilenceWindow
}

export type SilenceBody = Record<string, unknown>

/** The targets an alert can be silenced as: itself, then its resource (the node for a node...). */
export function targetsOfAlert(
  row: Pick<AlertsOverviewRow, 'id' | 'resourceId' | 'resourceType' | 'node' | 'instance'>,
): SilenceTarget[] {
  const out: SilenceTarget[] = [{ kind: 'alert', alertId: row.id }]
  switch (row.resourceType) {
    case 'Node':
      out.push({ kind: 'node', instance: row.instance, node: row.node })
      break
    case 'VM':
    case 'Container':
      out.push({ kind: 'guest', id: row.resourceId })
      if (row.node) out.push({ kind: 'node', instance: row.instance, node: row.node })
      break
    case 'Storage':
      out.push({ kind: 'storage', id: row.resourceId })
      break
    case 'PBS':
      out.push({ kind: 'pbs', instance: row.instance })
      break
    default:
      if (row.node && row.instance)
        out.push({ kind: 'node', instance: row.instance, node: row.node })
  }
  return out
}

/**
 * A target in words: "node pve1 (lab) and everything on it", "guest db-1", "guests tagged db".
 * `names` gives what the dialog knows from the alert: its message and its resource's name.
 */
export function describeTarget(
  target: SilenceTarget,
  names: { alert?: string; resource?: string } = {},
): string {
  switch (target.kind) {
    case 'alert':
      return names.alert ? `this alert (${names.alert})` : `alert ${target.alertId}`
    case 'node':
      return `node ${target.node} (${target.instance}) and everything on it`
    case 'guest':
      return `guest ${names.resource ?? target.id}`
    case 'storage':
      return `storage ${names.resource ?? target.id}`
    case 'pbs':
      return `PBS ${target.instance}`
    case 'tag':
      return `guests tagged ${target.tag}`
    case 'search':
      return `guests matching ${target.query}`
  }
}

/** Sundays 02:00 to 04:00 in `timezone`: the window a new weekly silence starts from. */
export function defaultWindow(timezone: string): SilenceWindow {
  const days = Object.fromEntries(WEEKDAYS.map((d) => [d, d === 'sunday'])) as SilenceWindow['days']
  return { days, start: '02:00', end: '04:00', timezone }
}

/** The POST /api/alerts/silences body of a form, or the field to fix and why. */
export function silenceBody(
  form: SilenceForm,
  now: number,
): { ok: true; body: SilenceBody } | { ok: false; field: string; message: string } {
  const t = form.target
  const empty = (value: string) => value.trim() === ''
  if (t.kind === 'node' && (empty(t.instance) || empty(t.node)))
    return { ok: false, field: 'target', message: 'Name the node and its cluster or instance' }
  if ((t.kind === 'guest' || t.kind === 'storage') && empty(t.id))
    return { ok: false, field: 'target', message: `Give the ${t.kind}'s id` }
  if (t.kind === 'pbs' && empty(t.instance))
    return { ok: false, field: 'target', message: 'Name the PBS instance' }
  if (t.kind === 'tag' && empty(t.tag)) return { ok: false, field: 'target', message: 'Give a tag' }
  if (t.kind === 'search' && empty(t.query))
    return { ok: false, field: 'target', message: 'Give a search expression' }
  const body: SilenceBody = { target: t, comment: form.comment.trim() }
  if (form.label && (t.kind === 'guest' || t.kind === 'storage')) body.label = form.label
  if (form.weekly) {
    if (!WEEKDAYS.some((d) => form.window.days[d]))
      return { ok: false, field: 'window', message: 'Choose at least one day' }
    if (form.window.start === form.window.end)
      return { ok: false, field: 'window', message: 'The window must end at another time' }
    body.window = form.window
  }
  if (form.duration === 'until' || (form.weekly && form.duration !== 'open')) {
    if (!Number.isFinite(form.until) || form.until <= now)
      return { ok: false, field: 'until', message: 'Choose an end in the future' }
    body.endsAt = new Date(form.until).toISOString()
  } else if (form.duration !== 'open') {
    body.durationMinutes = Number(form.duration)
  } else if (!form.weekly) {
    return { ok: false, field: 'until', message: 'Choose how long' }
  }
  return { ok: true, body }
}

/** The silences Overview lists: active first (soonest to end), then upcoming (soonest to start). */
export function listedSilences(all: readonly SilenceView[]): SilenceView[] {
  const end = (s: SilenceView) => (s.activeUntil ? Date.parse(s.activeUntil) : Infinity)
  const start = (s: SilenceView) => (s.nextStart ? Date.parse(s.nextStart) : Infinity)
  const active = all.filter((s) => s.state === 'active').sort((a, b) => end(a) - end(b))
  const upcoming = all.filter((s) => s.state === 'upcoming').sort((a, b) => start(a) - start(b))
  return [...active, ...upcoming]
}
