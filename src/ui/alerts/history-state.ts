// The alert history tab's UI state (valtio): what the user chose; the worker turns it into a view.
import { proxy } from 'valtio'
import type {
  HistoryBucketFilter,
  HistoryRange,
  HistorySeverity,
} from '../../shared/views/alert-history-types.ts'

export interface HistoryState {
  /** Saved locally (spec 001 §3 local preferences: history time and severity filters). */
  range: HistoryRange
  severity: HistorySeverity
  /** Never saved. */
  search: string
  /** The chart bar chosen, or null. */
  bucket: HistoryBucketFilter | null
  /** Bumped after Clear All History so the worker refetches. */
  reload: number
}

/** Spec 001 §2: default time filter 7d, all levels. */
export function defaultHistoryState(): HistoryState {
  return { range: '7d', severity: 'all', search: '', bucket: null, reload: 0 }
}

export const historyState = proxy<HistoryState>(defaultHistoryState())
