// Placeholder until the history fetch lands (issue 25, charts): the API shape is fixed here.
import type { HistoryChartData, HistoryChartRequest } from '../shared/views/history-types.ts'

/** Fetches one resource's history and downsamples it to the chart's width. */
export function fetchHistoryChart(
  request: HistoryChartRequest,
  _fetch: typeof fetch = fetch,
): Promise<HistoryChartData> {
  return Promise.reject(new Error(`history for ${request.resourceId}: not built yet`))
}
