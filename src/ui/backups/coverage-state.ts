// The coverage and jobs views' UI state (valtio): what the user chose; the worker does the rest.
import { proxy } from 'valtio'
import type { CoverageFilter, CoverageSortKey } from '../../shared/views/backup-coverage-types.ts'
import type { SortDirection } from '../../shared/views/guest-view-types.ts'

export interface CoverageUiState {
  search: string
  filter: CoverageFilter
  sort: { key: CoverageSortKey; direction: SortDirection }
  /** Jobs view: only failed and overdue jobs. */
  problemsOnly: boolean
}

export const coverageState = proxy<CoverageUiState>({
  search: '',
  filter: 'all',
  sort: { key: 'worst', direction: 'asc' },
  problemsOnly: false,
})

/** A header click: the same column flips its direction, another starts ascending ('newest' too). */
export function nextCoverageSort(
  current: CoverageUiState['sort'],
  key: CoverageSortKey,
): CoverageUiState['sort'] {
  if (current.key === key) return { key, direction: current.direction === 'asc' ? 'desc' : 'asc' }
  return { key, direction: 'asc' }
}
