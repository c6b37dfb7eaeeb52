import type { GuestViewModel, GuestViewRequest } from '../../shared/views/guest-view-types.ts'
import { useWorkerView, type ViewChannel } from './useWorkerView.ts'

const GUESTS: ViewChannel<GuestViewRequest, GuestViewModel> = {
  subscribe: (api, request, onModel) => api.subscribeGuests(request, onModel),
  update: (api, id, request) => void api.updateGuests(id, request),
}

/** The guest view of `request` (filters, sort, window), live from the worker; null until the first. */
export function useView(request: GuestViewRequest): GuestViewModel | null {
  return useWorkerView(GUESTS, request)
}
