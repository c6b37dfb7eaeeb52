import type { BackupsViewModel, BackupsViewRequest } from '../../shared/views/backups-types.ts'
import { useWorkerViewState, type ViewChannel, type WorkerViewState } from './useWorkerView.ts'

const BACKUPS: ViewChannel<BackupsViewRequest, BackupsViewModel> = {
  subscribe: (api, request, onModel) => api.subscribeBackups(request, onModel),
  // The promise tells when the list answers the new filters (BackupsPage shows "Updating").
  update: (api, id, request) => Promise.resolve(api.updateBackups(id, request)),
}

/**
 * The backups view of `request` (filters, sort, range, window), live from the worker (null until
 * the first), and the JSON of the request it answers.
 */
export function useBackupsView(request: BackupsViewRequest): WorkerViewState<BackupsViewModel> {
  return useWorkerViewState(BACKUPS, request)
}
