import { useEffect, type RefObject } from 'react'

/** Why a popover closed. */
export type DismissReason = 'escape' | 'outside'

/**
 * While `open`, closes a popover on Escape anywhere or on a pointer press outside `container`.
 * Escape is taken in the capture phase and stopped there, so the page's global Escape (reset
 * filters, hide the filter bar) does not also run.
 */
export function useDismiss(
  open: boolean,
  container: RefObject<HTMLElement | null>,
  onDismiss: (reason: DismissReason) => void,
): void {
  useEffect(() => {
    if (!open) return
    const onKeyDown = (event: KeyboardEvent) => {
      // Another open popover may already have taken this Escape.
      if (event.key !== 'Escape' || event.defaultPrevented) return
      event.preventDefault()
      event.stopPropagation()
      onDismiss('escape')
    }
    const onPointerDown = (event: PointerEvent) => {
      const root = container.current
      if (root && event.target instanceof Node && !root.contains(event.target)) {
        onDismiss('outside')
      }
    }
    document.addEventListener('keydown', onKeyDown, true)
    document.addEventListener('pointerdown', onPointerDown, true)
    return () => {
      document.removeEventListener('keydown', onKeyDown, true)
      document.removeEventListener('pointerdown', onPointerDown, true)
    }
  }, [open, container, onDismiss])
}
