import { Loader2, Trash2 } from 'lucide-react'
import { useRef, useState } from 'react'
import { BUTTON, FOCUS_RING } from '../../components/button-classes.ts'
import { Modal } from '../../components/Modal.tsx'
import { showToast } from '../../components/toast-store.ts'
import { deleteNode, type NodeView } from './nodes-api.ts'

/** Spec 001 §5: the delete confirmation. */
export const DELETE_CONFIRM_TEXT = 'Are you sure you want to delete this node?'

/** The destructive button: the primary look in red. */
const DANGER = `inline-flex items-center gap-1.5 rounded-md bg-red-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-red-700 ${FOCUS_RING}`

/** Confirms and deletes a node (DELETE /api/config/nodes/{id}); Cancel has the focus. */
export function DeleteNodeDialog({
  node,
  onClose,
  onDeleted,
}: {
  node: NodeView
  onClose: () => void
  onDeleted: () => void
}) {
  const cancel = useRef<HTMLButtonElement>(null)
  const [busy, setBusy] = useState(false)

  const confirm = async () => {
    setBusy(true)
    try {
      await deleteNode(node.id)
    } catch (error) {
      setBusy(false)
      showToast(error instanceof Error ? error.message : 'Failed to delete node', 'error')
      return
    }
    showToast('Node deleted successfully', 'success')
    onDeleted()
  }

  return (
    <Modal
      role="alertdialog"
      size="sm"
      title="Delete node"
      describedBy="delete-node-text"
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
            className={`${DANGER} justify-center disabled:opacity-60`}
          >
            {busy ? (
              <Loader2 className="size-4 animate-spin" aria-hidden />
            ) : (
              <Trash2 className="size-4" aria-hidden />
            )}
            {busy ? 'Deleting...' : 'Delete'}
          </button>
        </>
      }
    >
      <div id="delete-node-text" className="flex flex-col gap-1 text-sm">
        <p>{DELETE_CONFIRM_TEXT}</p>
        <p className="text-gray-600 dark:text-gray-400">
          <span className="font-medium text-gray-900 dark:text-gray-100">
            {node.name || node.host}
          </span>{' '}
          ({node.host}) is no longer monitored; its data leaves the dashboard.
        </p>
      </div>
    </Modal>
  )
}
