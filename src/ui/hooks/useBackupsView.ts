import type { BackupsViewModel, BackupsViewRequest } from '../../shared/views/backups-types.ts'
import { useWorkerView, type ViewChannel } from './useWorkerView.ts'

const BACKUPS: ViewChannel<BackupsViewRequest, BackupsViewModel> = {
  subscribe: (api, request, onModel) => api.subscribeBackups(request, onModel),
  update: (api, id, request) => void api.updateBackups(id, request),
}

/** The backups view of `request` (filters, sort, range, window), live from the worker; null until the first. */
export function useBackupsView(request: BackupsViewRequest): BackupsViewModel | null {
  return useWorkerView(BACKUPS, request)
}
