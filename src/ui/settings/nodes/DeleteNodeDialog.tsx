import { Trash2 } from 'lucide-react'
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx'
import { showToast } from '../../components/toast-store.ts'
import { deleteNode, type NodeView } from './nodes-api.ts'

/** Spec 001 §5: the delete confirmation. */
export const DELETE_CONFIRM_TEXT = 'Are you sure you want to delete this node?'

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
  const confirm = async () => {
    try {
      await deleteNode(node.id)
    } catch (error) {
      showToast(error instanceof Error ? error.message : 'Failed to delete node', 'error')
      return
    }
    showToast('Node deleted successfully', 'success')
    onDeleted()
  }

  return (
    <ConfirmDialog
      title="Delete node"
      describedBy="delete-node-text"
      confirmLabel="Delete"
      busyLabel="Deleting..."
      tone="danger"
      icon={<Trash2 className="size-4" aria-hidden />}
      onConfirm={confirm}
      onClose={onClose}
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
    </ConfirmDialog>
  )
}
