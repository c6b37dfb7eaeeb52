// Silences (issue 28 item 1), pure: the state of a silence at a moment (active, upcoming, ended;
// when its active period ends or the next begins) and which silence covers an active alert.
//
// Matching, decided where the issue is silent:
// - `node` covers the node's own alerts and everything on it (guests, storage, disks): an
//   administrator rebooting pve3 expects its guests to be quiet too.
// - `pbs` covers the PBS instance's alerts (the server, its datastores, its jobs).
// - `tag` and `search` cover guests only (the search language is the guest search), read from the
//   state the alerts were evaluated against; a search is the dashboard's own (compileGuestSearch).
// - An alert covered by several active silences shows the one that lasts longest.
import type { Alert } from '../../shared/model/alerts.ts'
import type {
  AlertSilenced,
  Silence,
  SilenceState,
  SilenceTarget,
} from '../../shared/model/silences.ts'
import type { Guest } from '../../shared/model/state.ts'
import { compileGuestSearch } from '../../shared/search/index.ts'
import { nextWindowStart, weeklyWindowAt } from '../../shared/views/weekly-window.ts'

export interface SilenceStatus {
  state: SilenceState
  /** Epoch ms the active period ends (active); null: it does not end. */
  activeUntil?: number | null
  /** Epoch ms it next becomes active (upcoming). */
  nextStart?: number
}

const ms = (iso: string) => Date.parse(iso)

/** The state of `s` at `now`. */
export function silenceStatus(s: Silence, now: number): SilenceStatus {
  const ended: SilenceStatus = { state: 'ended' }
  if (s.endedAt !== undefined) return ended
  const end = s.endsAt === null ? null : ms(s.endsAt)
  if (end !== null && end <= now) return ended
  const start = ms(s.startsAt)
  const from = Math.max(now, start)
  if (!s.window) {
    return now < start
      ? { state: 'upcoming', nextStart: start }
      : { state: 'active', activeUntil: end }
  }
  if (now >= start) {
    const inside = weeklyWindowAt(s.window, now)
    if (inside.inside) {
      const until = end === null ? inside.endsAt : Math.min(inside.endsAt, end)
      return { state: 'active', activeUntil: until }
    }
  }
  // The window's next period from the silence's start on (at its start when a period is under way).
  const next = weeklyWindowAt(s.window, from).inside ? from : nextWindowStart(s.window, from)
  if (next === null || (end !== null && next >= end)) return ended
  return { state: 'upcoming', nextStart: next }
}

/** A guest as the matcher reads it: the search language's fields. */
export type GuestLookup = (resourceId: string) => Guest | undefined

type Test = (alert: Alert, guest: GuestLookup) => boolean

function testOf(target: SilenceTarget): Test {
  switch (target.kind) {
    case 'alert':
      return (a) => a.id === target.alertId
    case 'node':
      return (a) => a.node === target.node && a.instance === target.instance
    case 'guest':
    case 'storage':
      return (a) => a.resourceId === target.id
    case 'pbs': {
      const id = `pbs-${target.instance}`
      return (a) =>
        a.resourceId === id ||
        (a.instance === target.instance && a.metadata?.resourceType === 'PBS')
    }
    case 'tag': {
      const tag = target.tag.toLowerCase()
      // Lower-cased only when the length matches: most tags are told apart without a copy.
      const same = (t: string) => t.length === tag.length && t.toLowerCase() === tag
      return (a, guest) => {
        const g = guest(a.resourceId)
        return g !== undefined && Array.isArray(g.tags) && g.tags.some(same)
      }
    }
    case 'search': {
      const predicate = compileGuestSearch(target.query)
      return (a, guest) => {
        const g = guest(a.resourceId)
        return g !== undefined && predicate(g)
      }
    }
  }
}

/** Whether `target` reads guests (tag, search): the caller needs a guest lookup only then. */
export const readsGuests = (target: SilenceTarget): boolean =>
  target.kind === 'tag' || target.kind === 'search'

/** The active silences at one moment, compiled once, asked about each active alert. */
export interface SilenceMatcher {
  /** Whether any active silence reads guests (tag, search). */
  readonly readsGuests: boolean
  /** The active silences and until when ('' when none): what is covered changes only with it. */
  readonly activeKey: string
  /**
   * The silence covering `alert` (the longest lasting), or undefined. With `perResource`, what
   * the silences that read the resource (all but `alert` ones) answer is kept per resource id:
   * the alerts of one guest are asked about once (pass a new map per state).
   */
  covering(
    alert: Alert,
    guest: GuestLookup,
    perResource?: Map<string, number>,
  ): AlertSilenced | undefined
}

/** A matcher of the silences active at `now`. */
export function createSilenceMatcher(silences: readonly Silence[], now: number): SilenceMatcher {
  const active: Array<{ id: string; until: number | null; test: Test; perAlert: boolean }> = []
  for (const s of silences) {
    const status = silenceStatus(s, now)
    if (status.state !== 'active') continue
    active.push({
      id: s.id,
      until: status.activeUntil ?? null,
      test: testOf(s.target),
      perAlert: s.target.kind === 'alert',
    })
  }
  // Longest lasting first (null: no end), so the first match is the one shown.
  active.sort((a, b) => (b.until ?? Infinity) - (a.until ?? Infinity))
  const ids = new Set(active.map((a) => a.id))
  return {
    readsGuests: silences.some((s) => ids.has(s.id) && readsGuests(s.target)),
    activeKey: active.map((a) => `${a.id}@${a.until ?? ''}`).join(','),
    covering(alert, guest, perResource) {
      // The first resource-level silence that matches, by index (active.length: none).
      let resourceAt = perResource?.get(alert.resourceId)
      if (resourceAt === undefined) {
        resourceAt = active.findIndex((a) => !a.perAlert && a.test(alert, guest))
        if (resourceAt < 0) resourceAt = active.length
        perResource?.set(alert.resourceId, resourceAt)
      }
      for (let i = 0; i < active.length; i++) {
        const a = active[i]!
        if (a.perAlert ? !a.test(alert, guest) : i !== resourceAt) continue
        return {
          silenceId: a.id,
          until: a.until === null ? null : new Date(a.until).toISOString(),
        }
      }
      return undefined
    },
  }
}
