// Silences and maintenance windows (issue 28 item 1): while a silence is active, the alerts it
// matches still show (marked silenced, with the time left) but no notification goes out for them;
// when it ends, an alert still firing whose fire was held is notified once.
// API: GET/POST/DELETE /api/alerts/silences (server http/silences.ts).
import type { Weekday } from './alerts.ts'

/** What a silence matches. */
export type SilenceTarget =
  /** One alert (its id: a resource and a condition). */
  | { kind: 'alert'; alertId: string }
  /** A node and everything on it: its guests, storage and disks (a node being rebooted). */
  | { kind: 'node'; instance: string; node: string }
  /** One guest, by its id (`instance-node-vmid` or the cluster form). */
  | { kind: 'guest'; id: string }
  /** One storage, by its id. */
  | { kind: 'storage'; id: string }
  /** A PBS instance: the server, its datastores and jobs. */
  | { kind: 'pbs'; instance: string }
  /** The guests carrying a tag. */
  | { kind: 'tag'; tag: string }
  /** The guests a dashboard search expression matches (`node:pve3 AND tags:db`). */
  | { kind: 'search'; query: string }

export type SilenceTargetKind = SilenceTarget['kind']
export const SILENCE_TARGET_KINDS: readonly SilenceTargetKind[] = [
  'alert',
  'node',
  'guest',
  'storage',
  'pbs',
  'tag',
  'search',
]

/** A weekly maintenance window: silenced only inside it (between startsAt and endsAt). */
export interface SilenceWindow {
  days: Record<Weekday, boolean>
  /** 'HH:MM'. */
  start: string
  end: string
  /** IANA time zone. */
  timezone: string
}

export interface Silence {
  id: string
  target: SilenceTarget
  /** What the target was called when the silence was made (a guest's name), for the list. */
  label?: string
  comment: string
  /** Who created it: the signed-in user or the API token's name. */
  author: string
  /** ISO 8601. */
  createdAt: string
  /** ISO 8601: from when it applies. */
  startsAt: string
  /** ISO 8601: when it stops applying; null for a recurring window kept until deleted. */
  endsAt: string | null
  /** A weekly window: the silence applies only inside it. */
  window?: SilenceWindow
  /** ISO 8601: ended early (DELETE), and by whom. */
  endedAt?: string
  endedBy?: string
}

export type SilenceState = 'active' | 'upcoming' | 'ended'

/** A silence as GET /api/alerts/silences answers: with its state at the time of the answer. */
export interface SilenceView extends Silence {
  state: SilenceState
  /** ISO 8601: when the current active period ends (state active); null: it does not end. */
  activeUntil?: string | null
  /** ISO 8601: when it next becomes active (state upcoming). */
  nextStart?: string
}

/** How an active alert carries the silence that covers it (Alert.silenced). */
export interface AlertSilenced {
  silenceId: string
  /** ISO 8601 when the silence stops covering it; null when it does not end. */
  until: string | null
}

/** Durations the UI offers from an alert (minutes). */
export const SILENCE_QUICK_MINUTES: readonly number[] = [60, 240, 1440]
/** The longest one-off silence (a year), in minutes. */
export const SILENCE_DURATION_MAX_MINUTES = 366 * 24 * 60
export const SILENCE_COMMENT_MAX = 1000
export const SILENCE_QUERY_MAX = 500
export const SILENCE_NAME_MAX = 500
export const SILENCE_LABEL_MAX = 200
/** Silences not yet ended that the server keeps at once (a bound on each evaluation's cost). */
export const SILENCES_OPEN_MAX = 1000
/** Ended silences kept for the list (newest); older ones are deleted. */
export const SILENCES_ENDED_KEPT = 500
