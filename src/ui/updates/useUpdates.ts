import { useEffect } from 'react'
import { useSnapshot } from 'valtio'
import type { UpdateInfo } from '../../shared/model/updates.ts'
import { visibleUpdate } from './update-cache.ts'
import { checkForUpdates, updateState } from './update-store.ts'

/** The update to announce (banner, red dot), or null. */
export function useVisibleUpdate(): UpdateInfo | null {
  const { cache } = useSnapshot(updateState)
  return visibleUpdate(cache as typeof updateState.cache)
}

/** Spec 001 §4: one automatic check when the app opens, on the saved channel, when allowed. */
export function useStartupUpdateCheck(): void {
  useEffect(() => {
    void checkForUpdates()
  }, [])
}
