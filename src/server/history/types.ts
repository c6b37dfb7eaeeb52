// The server's metrics-history parts and how they meet (issue 25; ARCHITECTURE.md "Metrics
// history"): Proxmox RRD is the source of truth, read on demand (source-reader.ts); what only we
// have, the points of the recent minutes at poll resolution, lives in a bounded store of our own
// (recent-store.ts), fed from every polled state.
import type { CollectedState } from '../collect/collected-state.ts'
import type { HistoryMetric, HistorySeries } from '../../shared/model/history.ts'

/** The bounded in-memory store of recent per-minute points for every resource. */
export interface RecentStore {
  /**
   * Adds one polled state's values at `atMs` (epoch ms): per resource and metric, into the
   * current minute's average and peak. Resources absent from `state`, offline or stopped record
   * nothing for that minute, so their chart shows a gap. Bounded: O(resources) with no
   * allocation per guest.
   */
  record(state: CollectedState, atMs: number): void
  /**
   * The minutes held for `resourceId` since `sinceSec` (unix seconds), per metric asked, with
   * `max` per minute; undefined when the resource is unknown to the store. Minutes with no
   * sample are null (gaps); the minute under way is included as it stands.
   */
  series(
    resourceId: string,
    metrics: readonly HistoryMetric[],
    sinceSec: number,
  ): Partial<Record<HistoryMetric, HistorySeries>> | undefined
  /** Minutes kept per resource (the retention). */
  readonly retentionMinutes: number
  /** Changes the retention; shrinking drops the oldest minutes, growing starts empty. */
  setRetentionMinutes(minutes: number): void
  /** Resources held and bytes of typed arrays allocated, for diagnostics and the bench. */
  stats(): { resources: number; bytes: number; retentionMinutes: number }
}
