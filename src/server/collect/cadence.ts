// Collector cadences in time, not in poll cycles: a 60 s poll interval must not stretch "disks
// every 5 minutes" into every 30 minutes. The scheduler (collector.ts) asks isDue once per cycle
// with the cycle's start time from the injected clock.

/** How often each collector runs. At the default 10 s poll these are the old cycle counts. */
export const CADENCE_MS = {
  /** /cluster/status: membership changes rarely (every 3rd cycle at 10 s). */
  clusterStatus: 30_000,
  /** The configured host, probed in the background while failed over to another member. */
  homeProbe: 30_000,
  /** /nodes/{n}/storage: every cycle at 10 s. */
  storage: 10_000,
  ceph: 30_000,
  zfs: 60_000,
  /** Backup volumes of every storage with backup content. */
  backups: 60_000,
  /** vzdump tasks of the last week. */
  tasks: 60_000,
  /** Backup jobs (/cluster/backup) and the guests in none (not-backed-up), issue 26. */
  backupJobs: 60_000,
  /** disks/list runs SMART and can wake spun-down disks. */
  disks: 5 * 60_000,
  /** Each guest's snapshot list is re-read this often; the calls are spread over the cycles. */
  snapshots: 5 * 60_000,
  /** SMART temperatures (disks/smart), a bounded batch at a time, on a disks refresh. */
  smart: 30 * 60_000,
  /** Each running guest's status/current and agent data, spread over the cycles. */
  guestDetails: 60_000,
  /** Longest wait after repeated guest-agent failures. */
  guestAgentMaxBackoff: 30 * 60_000,
  /** PBS namespaces and snapshots (the issue asks for 60 s). */
  pbsContent: 60_000,
  /** PBS sync, verify, prune and GC jobs and their tasks (issue 26). */
  pbsJobs: 60_000,
} as const

/** The name of a cadence class. */
export type CadenceName = keyof typeof CADENCE_MS

/** The poll interval the cadences were tuned at; the default of createPoller. */
export const DEFAULT_POLL_INTERVAL_MS = 10_000

/**
 * Whether a collector last run (attempted) at `lastAt` is due at `now`. Never more often than the
 * poll cycle: an interval shorter than the poll interval means "every cycle". Half a poll
 * interval of slack absorbs the few ms by which cycle starts drift, so a 30 s cadence at a 10 s
 * poll runs on every third cycle, not every fourth. A clock that went back makes it due.
 */
export function isDue(lastAt: number, intervalMs: number, now: number, pollIntervalMs: number) {
  if (now < lastAt) return true
  const effective = Math.max(intervalMs, pollIntervalMs)
  return now - lastAt >= effective - pollIntervalMs / 2
}

/**
 * Poll cycles per interval, at least 1: for the per-guest detail refresh, which spreads its
 * guests over the cycles of one interval (pve-agent.ts counts in cycles).
 */
export function cyclesPer(intervalMs: number, pollIntervalMs: number): number {
  return Math.max(1, Math.round(intervalMs / Math.max(1, pollIntervalMs)))
}
