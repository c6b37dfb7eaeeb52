import type { NodeSummaryModel, NodeSummaryRequest } from '../../shared/views/node-summary-types.ts'
import { useWorkerView, type ViewChannel } from './useWorkerView.ts'

const NODE_SUMMARY: ViewChannel<NodeSummaryRequest, NodeSummaryModel> = {
  subscribe: (api, request, onModel) => api.subscribeNodeSummary(request, onModel),
  update: (api, id, request) => void api.updateNodeSummary(id, request),
}

/** The node summary of `request` (tab, sort), live from the worker; null until the first. */
export function useNodeSummary(request: NodeSummaryRequest): NodeSummaryModel | null {
  return useWorkerView(NODE_SUMMARY, request)
}
