import { useLocation } from 'wouter'
import type { PaletteItem } from '../../shared/views/palette-types.ts'
import { chooseTheme } from '../live/theme-sync.ts'
import { uiState } from '../state.ts'
import { keepWallView, useWallView, wallViewHref } from '../wall/wall-view.ts'
import { openShortcuts } from './palette-state.ts'

/**
 * What choosing a palette item does: close the palette, then go to its route (on the wall when
 * the wall view is on and the route is a live one) or run its action.
 */
export function usePaletteChoice(onClose: () => void): (item: PaletteItem) => void {
  const [path, navigate] = useLocation()
  const wallView = useWallView()
  return (item) => {
    onClose()
    switch (item.action) {
      case 'wall-view':
        navigate(wallViewHref(path))
        return
      case 'exit-wall-view':
        navigate(path)
        return
      case 'shortcuts':
        openShortcuts()
        return
      case 'theme':
        void chooseTheme(!uiState.dark)
        return
      case undefined:
        navigate(keepWallView(item.href, wallView))
    }
  }
}
