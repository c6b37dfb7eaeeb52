import { X } from 'lucide-react'
import {
  useEffect,
  useId,
  useRef,
  type KeyboardEvent as ReactKeyboardEvent,
  type ReactNode,
  type RefObject,
} from 'react'
import { createPortal } from 'react-dom'
import { FOCUS_RING } from './button-classes.ts'

const FOCUSABLE = [
  'a[href]',
  'button:not([disabled])',
  'input:not([disabled]):not([type="hidden"])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  '[tabindex]:not([tabindex="-1"])',
  '[contenteditable]:not([contenteditable="false"])',
].join(', ')

/** The focusable, visible elements inside `root`, in tab order (positive tabindex unused here). */
export function focusableIn(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
    (element) => element.getClientRects().length > 0 && !element.closest('[inert]'),
  )
}

/** Open dialogs, innermost last: only the innermost takes Escape and holds the focus. */
const openDialogs: symbol[] = []

const isTop = (id: symbol) => openDialogs.at(-1) === id

const SIZES = { sm: 'sm:max-w-sm', md: 'sm:max-w-lg', lg: 'sm:max-w-2xl' } as const

const PLACEMENTS = {
  center: { backdrop: 'items-end sm:items-center sm:p-4', panel: 'rounded-t-lg sm:rounded-lg' },
  top: { backdrop: 'items-start p-2 sm:p-4 sm:pt-[10vh]', panel: 'rounded-lg' },
} as const

export interface ModalProps {
  title: string
  onClose: () => void
  children: ReactNode
  /** Buttons row at the bottom. */
  footer?: ReactNode
  /** 'alertdialog' for confirmations. */
  role?: 'dialog' | 'alertdialog'
  size?: keyof typeof SIZES
  /** False while the dialog must not be closed (a request running, a one-time secret shown). */
  dismissible?: boolean
  /** Focused on open; else the first `[data-autofocus]`, else the first field, else the dialog. */
  initialFocus?: RefObject<HTMLElement | null>
  /** Id of an element inside that describes the dialog. */
  describedBy?: string
  /**
   * 'top' holds the dialog near the top on every screen (a search whose results grow downwards,
   * clear of a phone's on-screen keyboard); default a bottom sheet on a phone, centred wider.
   */
  placement?: 'center' | 'top'
}

/**
 * An accessible modal dialog in a portal: role dialog (or alertdialog) with aria-modal, labelled
 * by its title; focus moves in on open, Tab cycles inside, Escape closes (when dismissible), and
 * focus returns to where it was on close. The dashboard's global keys see `aria-modal="true"` and
 * stand aside while it is open.
 */
export function Modal({
  title,
  onClose,
  children,
  footer,
  role = 'dialog',
  size = 'md',
  dismissible = true,
  initialFocus,
  describedBy,
  placement = 'center',
}: ModalProps) {
  const titleId = useId()
  const panel = useRef<HTMLDivElement>(null)
  const latest = useRef({ onClose, dismissible })
  useEffect(() => {
    latest.current = { onClose, dismissible }
  })

  // Focus in on open and back on close; register as the innermost dialog.
  useEffect(() => {
    const id = Symbol('dialog')
    openDialogs.push(id)
    const previous = document.activeElement
    const root = panel.current
    let lastInside: HTMLElement | null = null
    if (root) {
      const target =
        initialFocus?.current ??
        root.querySelector<HTMLElement>('[data-autofocus]') ??
        focusableIn(root).find((element) => element.matches('input, select, textarea')) ??
        root
      target.focus()
      lastInside = target
    }

    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || !isTop(id) || event.defaultPrevented) return
      event.preventDefault()
      event.stopPropagation()
      if (latest.current.dismissible) latest.current.onClose()
    }
    // Focus that leaves the dialog (a click behind it, a programmatic focus) is brought back to
    // where it was inside; the toasts stay usable.
    const onFocusIn = (event: FocusEvent) => {
      const box = panel.current
      if (!box || !isTop(id) || !(event.target instanceof HTMLElement)) return
      if (box.contains(event.target)) {
        lastInside = event.target
        return
      }
      if (event.target.closest('[data-toasts]')) return
      const back = lastInside?.isConnected ? lastInside : (focusableIn(box)[0] ?? box)
      back.focus()
    }
    document.addEventListener('keydown', onKeyDown, true)
    document.addEventListener('focusin', onFocusIn)
    return () => {
      document.removeEventListener('keydown', onKeyDown, true)
      document.removeEventListener('focusin', onFocusIn)
      const index = openDialogs.indexOf(id)
      if (index >= 0) openDialogs.splice(index, 1)
      if (previous instanceof HTMLElement && previous.isConnected) previous.focus()
    }
    // Mount and unmount only: the focus must not jump while the dialog re-renders.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])

  const onKeyDown = (event: ReactKeyboardEvent) => {
    if (event.key !== 'Tab' || !panel.current) return
    const items = focusableIn(panel.current)
    const first = items[0]
    const last = items.at(-1)
    if (!first || !last) {
      event.preventDefault()
      panel.current.focus()
      return
    }
    const active = document.activeElement
    if (event.shiftKey && (active === first || active === panel.current)) {
      event.preventDefault()
      last.focus()
    } else if (!event.shiftKey && active === last) {
      event.preventDefault()
      first.focus()
    }
  }

  return createPortal(
    <div
      className={`fixed inset-0 z-50 flex justify-center bg-gray-950/50 ${PLACEMENTS[placement].backdrop}`}
    >
      <div
        ref={panel}
        role={role}
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={describedBy}
        tabIndex={-1}
        onKeyDown={onKeyDown}
        className={`flex max-h-[92dvh] w-full flex-col border border-gray-200 bg-white text-gray-900 shadow-xl outline-none dark:border-gray-800 dark:bg-gray-900 dark:text-gray-100 ${PLACEMENTS[placement].panel} ${SIZES[size]}`}
      >
        <div className="flex items-center gap-2 border-b border-gray-200 px-4 py-3 dark:border-gray-800">
          <h2 id={titleId} className="min-w-0 flex-1 text-base font-semibold">
            {title}
          </h2>
          {dismissible && (
            <button
              type="button"
              aria-label="Close"
              onClick={onClose}
              className={`rounded p-1 text-gray-500 hover:bg-gray-100 hover:text-gray-800 dark:text-gray-400 dark:hover:bg-gray-800 dark:hover:text-gray-100 ${FOCUS_RING}`}
            >
              <X className="size-4" aria-hidden />
            </button>
          )}
        </div>
        <div className="min-h-0 flex-1 overflow-y-auto px-4 py-4">{children}</div>
        {footer && (
          <div className="flex flex-col-reverse gap-2 border-t border-gray-200 px-4 py-3 sm:flex-row sm:justify-end dark:border-gray-800">
            {footer}
          </div>
        )}
      </div>
    </div>,
    document.body,
  )
}
