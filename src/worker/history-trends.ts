// Placeholder until the trend column lands (issue 25, pages): the API shape is fixed here.
import type { TrendData, TrendRequest } from '../shared/views/history-types.ts'

/** Fetches the last hour of one metric for the ids on screen, downsampled to the sparkline. */
export function fetchTrends(
  request: TrendRequest,
  _fetch: typeof fetch = fetch,
): Promise<TrendData> {
  return Promise.reject(new Error(`trends for ${request.ids.length} ids: not built yet`))
}
