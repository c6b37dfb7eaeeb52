import { Loader2 } from 'lucide-react'
import type { ReactNode } from 'react'
import { BUTTON } from './button-classes.ts'

export interface ModalActionsProps {
  onCancel: () => void
  /** A request is running: both buttons are disabled and the submit shows a spinner. */
  busy: boolean
  /** Id of the form the submit button submits. */
  formId: string
  submitLabel: string
  busyLabel: string
  /** Disables the submit button (beyond `busy`). */
  disabled?: boolean
  /** Id of what explains why the submit is disabled. */
  describedBy?: string | undefined
  /** The dismiss button's text (default Cancel; Done where nothing is lost). */
  cancelLabel?: string
  /** Icon in the submit button while not busy. */
  icon?: ReactNode
}

/** A modal's footer: Cancel and a submit for the form, with a spinner while busy. */
export function ModalActions({
  onCancel,
  busy,
  formId,
  submitLabel,
  busyLabel,
  disabled = false,
  describedBy,
  icon,
  cancelLabel = 'Cancel',
}: ModalActionsProps) {
  return (
    <>
      <button
        type="button"
        onClick={onCancel}
        disabled={busy}
        className={`${BUTTON.secondary} justify-center`}
      >
        {cancelLabel}
      </button>
      <button
        type="submit"
        form={formId}
        disabled={busy || disabled}
        aria-describedby={describedBy}
        className={`${BUTTON.primary} justify-center disabled:opacity-60`}
      >
        {busy ? <Loader2 className="size-4 animate-spin" aria-hidden /> : icon}
        {busy ? busyLabel : submitLabel}
      </button>
    </>
  )
}
