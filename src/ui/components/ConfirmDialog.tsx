import { Loader2 } from 'lucide-react'
import { useEffect, useRef, useState, type ReactNode } from 'react'
import { BUTTON, FOCUS_RING } from './button-classes.ts'
import { Modal } from './Modal.tsx'

/** The destructive button: the primary look in red. */
const DANGER = `inline-flex items-center gap-1.5 rounded-md bg-red-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-red-700 ${FOCUS_RING}`

export interface ConfirmDialogProps {
  title: string
  /** Id of the element in `children` that says what will happen. */
  describedBy: string
  confirmLabel: string
  busyLabel: string
  /** 'danger' for a deletion, 'primary' otherwise. */
  tone: 'danger' | 'primary'
  /** Icon of the confirm button while not busy. */
  icon?: ReactNode
  /**
   * The action. While it runs both buttons are disabled and the dialog cannot be dismissed; it
   * handles its own failures (a toast, or closing with a message) and does not throw.
   */
  onConfirm: () => Promise<void>
  onClose: () => void
  children: ReactNode
}

/** A confirmation before an action (an alertdialog); Cancel has the focus, as the safe choice. */
export function ConfirmDialog({
  title,
  describedBy,
  confirmLabel,
  busyLabel,
  tone,
  icon,
  onConfirm,
  onClose,
  children,
}: ConfirmDialogProps) {
  const cancel = useRef<HTMLButtonElement>(null)
  const [busy, setBusy] = useState(false)
  const mounted = useRef(true)
  useEffect(
    () => () => {
      mounted.current = false
    },
    [],
  )
  const confirm = async () => {
    setBusy(true)
    try {
      await onConfirm()
    } finally {
      // The owner usually closes the dialog on success; a failure leaves it open and usable.
      if (mounted.current) setBusy(false)
    }
  }
  return (
    <Modal
      role="alertdialog"
      size="sm"
      title={title}
      describedBy={describedBy}
      onClose={onClose}
      dismissible={!busy}
      initialFocus={cancel}
      footer={
        <>
          <button
            ref={cancel}
            type="button"
            onClick={onClose}
            disabled={busy}
            className={`${BUTTON.secondary} justify-center`}
          >
            Cancel
          </button>
          <button
            type="button"
            onClick={() => void confirm()}
            disabled={busy}
            className={`${tone === 'danger' ? DANGER : BUTTON.primary} justify-center disabled:opacity-60`}
          >
            {busy ? <Loader2 className="size-4 animate-spin" aria-hidden /> : icon}
            {busy ? busyLabel : confirmLabel}
          </button>
        </>
      }
    >
      {children}
    </Modal>
  )
}
