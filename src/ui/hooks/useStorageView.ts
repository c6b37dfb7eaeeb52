import type { StorageViewModel, StorageViewRequest } from '../../shared/views/storage-types.ts'
import { useWorkerView, type ViewChannel } from './useWorkerView.ts'

const STORAGE: ViewChannel<StorageViewRequest, StorageViewModel> = {
  subscribe: (api, request, onModel) => api.subscribeStorage(request, onModel),
  update: (api, id, request) => void api.updateStorage(id, request),
}

/** The storage tab view of `request` (filters, sort, layout), live from the worker; null first. */
export function useStorageView(request: StorageViewRequest): StorageViewModel | null {
  return useWorkerView(STORAGE, request)
}
