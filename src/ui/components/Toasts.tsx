import { CircleAlert, CircleCheck, CircleX, Info, X, type LucideIcon } from 'lucide-react'
import { useEffect, useState } from 'react'
import { createPortal } from 'react-dom'
import { useSnapshot } from 'valtio'
import { FOCUS_RING } from './button-classes.ts'
import { dismissToast, toastState, type Toast, type ToastType } from './toast-store.ts'

export { showToast } from './toast-store.ts'

const LOOK: Record<ToastType, { icon: LucideIcon; box: string; tint: string }> = {
  success: {
    icon: CircleCheck,
    box: 'border-emerald-200 dark:border-emerald-900',
    tint: 'text-emerald-600 dark:text-emerald-400',
  },
  error: {
    icon: CircleX,
    box: 'border-red-200 dark:border-red-900',
    tint: 'text-red-600 dark:text-red-400',
  },
  warning: {
    icon: CircleAlert,
    box: 'border-amber-200 dark:border-amber-900',
    tint: 'text-amber-600 dark:text-amber-400',
  },
  info: {
    icon: Info,
    box: 'border-blue-200 dark:border-blue-900',
    tint: 'text-blue-600 dark:text-blue-400',
  },
}

function ToastItem({ toast }: { toast: Toast }) {
  const look = LOOK[toast.type]
  const Icon = look.icon
  return (
    <div
      data-toast={toast.type}
      aria-hidden={toast.leaving || undefined}
      className={`pointer-events-auto flex w-full items-start gap-2 rounded-md border bg-white px-3 py-2 text-sm text-gray-800 shadow-lg transition-opacity duration-300 dark:bg-gray-900 dark:text-gray-100 ${look.box} ${toast.leaving ? 'opacity-0' : 'opacity-100'}`}
    >
      <Icon className={`mt-0.5 size-4 shrink-0 ${look.tint}`} aria-hidden />
      <span className="min-w-0 flex-1 break-words">{toast.message}</span>
      <button
        type="button"
        aria-label="Dismiss notification"
        onClick={() => dismissToast(toast.id)}
        className={`-mr-1 shrink-0 rounded p-0.5 text-gray-500 hover:bg-gray-100 hover:text-gray-800 dark:text-gray-400 dark:hover:bg-gray-800 dark:hover:text-gray-100 ${FOCUS_RING}`}
      >
        <X className="size-4" aria-hidden />
      </button>
    </div>
  )
}

/**
 * How far above the window's bottom edge the toasts sit: clear of a save bar showing in the lower
 * half of the window. Measured only while toasts show, at most once a frame.
 */
function useSaveBarInset(active: boolean): number {
  const [inset, setInset] = useState(0)
  useEffect(() => {
    if (!active) return
    let frame = 0
    const measure = () => {
      frame = 0
      const height = window.innerHeight
      let top = height
      for (const bar of document.querySelectorAll('[data-save-bar]')) {
        const box = bar.getBoundingClientRect()
        if (box.height > 0 && box.top > height / 2 && box.top < top) top = box.top
      }
      setInset(Math.round(height - top))
    }
    const schedule = () => {
      frame ||= requestAnimationFrame(measure)
    }
    measure()
    // Bars come and go with unsaved changes, and move with scrolling and resizing.
    const observer = new MutationObserver(schedule)
    observer.observe(document.body, { childList: true, subtree: true })
    window.addEventListener('resize', schedule)
    window.addEventListener('scroll', schedule, true)
    return () => {
      observer.disconnect()
      window.removeEventListener('resize', schedule)
      window.removeEventListener('scroll', schedule, true)
      cancelAnimationFrame(frame)
    }
  }, [active])
  return inset
}

/**
 * The toast stack, bottom right (full width on a phone), above dialogs. Errors sit in an
 * assertive live region, the rest in a polite one; both regions always exist so additions are
 * announced. A sticky save bar in view pushes the stack up, so its buttons stay uncovered.
 */
export function Toasts() {
  const { toasts } = useSnapshot(toastState)
  const errors = toasts.filter((toast) => toast.type === 'error')
  const others = toasts.filter((toast) => toast.type !== 'error')
  const inset = useSaveBarInset(toasts.length > 0)
  return createPortal(
    <div
      data-toasts=""
      style={inset > 0 ? { bottom: inset } : undefined}
      className="pointer-events-none fixed inset-x-0 bottom-0 z-[60] flex flex-col gap-2 p-3 sm:left-auto sm:w-96 sm:p-4"
    >
      <div aria-live="assertive" className="flex flex-col gap-2">
        {errors.map((toast) => (
          <ToastItem key={toast.id} toast={toast} />
        ))}
      </div>
      <div aria-live="polite" className="flex flex-col gap-2">
        {others.map((toast) => (
          <ToastItem key={toast.id} toast={toast} />
        ))}
      </div>
    </div>,
    document.body,
  )
}
