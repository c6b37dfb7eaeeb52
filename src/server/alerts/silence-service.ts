// The silence service (issue 28 item 1): the stored silences, which of them are active now, which
// silence covers an alert (for the published alerts and for the notifications), and what happens
// at a silence's boundaries: the live state is published again (alerts marked or unmarked) and the
// alerts a silence stopped covering are handed to `onUncovered`, to be notified once.
//
// Bounds: at most SILENCES_OPEN_MAX silences not yet ended (a create beyond answers 400), so the
// cost of marking is alerts x silences at most; the ended ones beyond SILENCES_ENDED_KEPT are
// deleted, oldest first. Boundaries are checked every `tickMs` (a silence ends within that of its
// time) and at once after a create or an end.
import type { Alert } from '../../shared/model/alerts.ts'
import { AppError } from '../../shared/model/errors.ts'
import {
  SILENCES_ENDED_KEPT,
  SILENCES_OPEN_MAX,
  type AlertSilenced,
  type Silence,
  type SilenceView,
} from '../../shared/model/silences.ts'
import type { Guest, State } from '../../shared/model/state.ts'
import type { SilencesRepo } from '../store/silences-repo.ts'
import {
  createSilenceMatcher,
  silenceStatus,
  type GuestLookup,
  type SilenceMatcher,
} from './silences.ts'

export const SILENCE_TICK_MS = 10_000

export interface SilenceServiceDeps {
  repo: SilencesRepo
  now: () => number
  /** The alerts active now (the alert service's). */
  alerts: () => readonly Alert[]
  /** Silences changed what they cover: publish the live state again. */
  onChange: () => void
  /** Alerts no silence covers any more, that one did until now. */
  onUncovered: (alerts: readonly Alert[]) => void
  log: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void }
  tickMs?: number
}

export interface SilenceService {
  /** Every kept silence with its state now, newest first. */
  list(): SilenceView[]
  get(id: string): SilenceView | undefined
  /** Store a new silence (its id, author and createdAt set by the caller); 400 beyond the bound. */
  create(silence: Silence): SilenceView
  /** End a silence early; undefined when there is none of that id. An ended one stays as it was. */
  end(id: string, by: string): SilenceView | undefined
  /**
   * The state about to be evaluated (live-state's decorate, before the alert service's): tag and
   * search silences read its guests, for the published marks and for the notifications alike.
   */
  seen(state: State): void
  /** The silence covering `alert` now, if any. */
  covering(alert: Alert): AlertSilenced | undefined
  /** `alerts` with each covered one replaced by a copy marked `silenced` (the same array if none). */
  mark(alerts: Alert[], state: State): Alert[]
  /** Check the boundaries now (tests; the timer does it every tickMs). */
  tick(): void
  /** Read the stored silences again (a standby collector taking over). */
  reload(): void
  start(): void
  stop(): void
}

export function createSilenceService(deps: SilenceServiceDeps): SilenceService {
  const { repo, log } = deps
  const load = (): Silence[] => {
    const loaded = repo.list()
    if (loaded.unreadable.length > 0)
      log.warn({ ids: loaded.unreadable }, 'stored silences that cannot be read are ignored')
    return loaded.silences
  }
  let silences: Silence[] = load()
  let matcher: SilenceMatcher = createSilenceMatcher(silences, deps.now())
  let activeKey = matcher.activeKey
  let timer: ReturnType<typeof setInterval> | null = null
  let lastState: State | null = null
  const noGuests: GuestLookup = () => undefined
  let marks: { key: string; same: Map<string, AlertSilenced> } = { key: '', same: new Map() }

  // Guests by id, only while a tag or search silence is active. mark() indexes just the guests
  // its alerts name (a pass over the guest lists with a set lookup each: at 100,000 guests a full
  // index cost more than the matching); a lookup that misses (an alert the dispatcher asks about
  // that was not marked yet) indexes every guest of that state, once.
  let lookupOf: {
    vms: unknown
    containers: unknown
    byId: Map<string, Guest>
    full: boolean
  } | null = null
  // Where each wanted guest was in the last state's lists: polls list the guests in the same
  // order, so most are found again by one id comparison, without hashing the new state's id
  // strings (the alerts' resourceId strings are the same from poll to poll, their hash cached).
  let positions = new Map<string, { list: 0 | 1; index: number }>()
  const indexGuests = (state: State, wanted: ReadonlySet<string> | null) => {
    const byId = new Map<string, Guest>()
    const lists = [state.vms, state.containers] as const
    if (wanted === null) {
      for (const list of lists) for (const g of list) byId.set(g.id, g)
      lookupOf = { vms: state.vms, containers: state.containers, byId, full: true }
      return byId
    }
    const next = new Map<string, { list: 0 | 1; index: number }>()
    const missing = new Set<string>()
    for (const id of wanted) {
      const at = positions.get(id)
      const guest = at && lists[at.list][at.index]
      if (guest && guest.id === id) {
        byId.set(id, guest)
        next.set(id, at)
      } else missing.add(id)
    }
    if (missing.size > 0) {
      // A guest id ends in its VMID: numbers first, so the ids of the new state are hashed only
      // for the few guests whose VMID an alert names.
      const vmids = new Set([...missing].map((id) => Number(id.slice(id.lastIndexOf('-') + 1))))
      lists.forEach((list, l) => {
        for (let i = 0; i < list.length; i++) {
          const g = list[i]!
          if (!vmids.has(g.vmid) || !missing.has(g.id)) continue
          byId.set(g.id, g)
          next.set(g.id, { list: l as 0 | 1, index: i })
        }
      })
    }
    positions = next
    lookupOf = { vms: state.vms, containers: state.containers, byId, full: false }
    return byId
  }
  const guestLookup = (state: State | null, wanted: ReadonlySet<string> | null = null) => {
    if (!state) return noGuests
    const same = lookupOf?.vms === state.vms && lookupOf.containers === state.containers
    let byId = same ? lookupOf!.byId : indexGuests(state, wanted)
    const lookup: GuestLookup = (id) => {
      const found = byId.get(id)
      if (found || lookupOf?.full) return found
      byId = indexGuests(state, null)
      return byId.get(id)
    }
    return lookup
  }

  const view = (s: Silence, now: number): SilenceView => {
    const status = silenceStatus(s, now)
    const out: SilenceView = { ...s, state: status.state }
    if (status.activeUntil !== undefined)
      out.activeUntil =
        status.activeUntil === null ? null : new Date(status.activeUntil).toISOString()
    if (status.nextStart !== undefined) out.nextStart = new Date(status.nextStart).toISOString()
    return out
  }

  /** Recompile the matcher; tell what changed (publish, and the alerts no longer covered). */
  const check = () => {
    const now = deps.now()
    const before = matcher
    const next = createSilenceMatcher(silences, now)
    const key = next.activeKey
    matcher = next
    if (key === activeKey) return
    activeKey = key
    try {
      const lookup = before.readsGuests || next.readsGuests ? guestLookup(lastState) : noGuests
      const uncovered = deps
        .alerts()
        .filter((a) => before.covering(a, lookup) && !next.covering(a, lookup))
      if (uncovered.length > 0) deps.onUncovered(uncovered)
    } catch (err) {
      log.error({ err }, 'notifying the alerts a silence stopped covering failed')
    }
    deps.onChange()
  }

  const prune = (now: number) => {
    const ended = silences.filter((s) => silenceStatus(s, now).state === 'ended')
    if (ended.length <= SILENCES_ENDED_KEPT) return
    const drop = new Set(ended.slice(0, ended.length - SILENCES_ENDED_KEPT).map((s) => s.id))
    repo.remove([...drop])
    silences = silences.filter((s) => !drop.has(s.id))
  }

  return {
    list() {
      const now = deps.now()
      return silences.map((s) => view(s, now)).reverse()
    },
    get(id) {
      const s = silences.find((x) => x.id === id)
      return s && view(s, deps.now())
    },
    create(silence) {
      const now = deps.now()
      const open = silences.filter((s) => silenceStatus(s, now).state !== 'ended').length
      if (open >= SILENCES_OPEN_MAX)
        throw new AppError('FIELD_INVALID', {
          field: 'silences',
          problem: `at most ${SILENCES_OPEN_MAX} silences can be active or upcoming; end some first`,
        })
      repo.insert(silence, now)
      silences = [...silences, silence]
      prune(now)
      check()
      return view(silence, now)
    },
    end(id, by) {
      const now = deps.now()
      const s = silences.find((x) => x.id === id)
      if (!s) return undefined
      if (silenceStatus(s, now).state === 'ended') return view(s, now)
      const ended: Silence = { ...s, endedAt: new Date(now).toISOString(), endedBy: by }
      repo.replace(ended, now)
      silences = silences.map((x) => (x.id === id ? ended : x))
      check()
      return view(ended, now)
    },
    seen(state) {
      lastState = state
    },
    covering(alert) {
      const lookup = matcher.readsGuests ? guestLookup(lastState) : noGuests
      return matcher.covering(alert, lookup)
    },
    mark(alerts, state) {
      if (activeKey === '') return alerts
      const lookup = matcher.readsGuests
        ? guestLookup(state, new Set(alerts.map((a) => a.resourceId)))
        : noGuests
      if (marks.key !== activeKey) marks = { key: activeKey, same: new Map() }
      let out: Alert[] | null = null
      const perResource = new Map<string, number>()
      for (let i = 0; i < alerts.length; i++) {
        const found = matcher.covering(alerts[i]!, lookup, perResource)
        if (!found) continue
        // The same object for the same silence and end: the live diff then sees no change.
        const key = `${found.silenceId}@${found.until ?? ''}`
        let silenced = marks.same.get(key)
        if (!silenced) marks.same.set(key, (silenced = found))
        out ??= alerts.slice()
        out[i] = { ...alerts[i]!, silenced }
      }
      return out ?? alerts
    },
    tick: check,
    reload() {
      silences = load()
      matcher = createSilenceMatcher(silences, deps.now())
      activeKey = matcher.activeKey
    },
    start() {
      if (timer) return
      timer = setInterval(() => {
        try {
          check()
        } catch (err) {
          log.error({ err }, 'checking the silences failed')
        }
      }, deps.tickMs ?? SILENCE_TICK_MS)
      timer.unref()
    },
    stop() {
      if (timer) clearInterval(timer)
      timer = null
    },
  }
}
