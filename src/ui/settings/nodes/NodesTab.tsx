import { Loader2, Plus, RefreshCw, Server } from 'lucide-react'
import { useCallback, useEffect, useId, useRef, useState } from 'react'
import { ErrorPanel } from '../../auth/AuthCard.tsx'
import { roleReason, useRole } from '../../auth/useRole.ts'
import { BUTTON } from '../../components/button-classes.ts'
import { Card } from '../../components/Card.tsx'
import { EmptyState } from '../../components/EmptyState.tsx'
import { Switch } from '../../components/Switch.tsx'
import { showToast } from '../../components/toast-store.ts'
import { useLiveEvent } from '../../live/live-events.ts'
import { DeleteNodeDialog } from './DeleteNodeDialog.tsx'
import { DiscoveryPanel } from './DiscoveryPanel.tsx'
import { MODAL_POLL_MS, unconfiguredServers } from './discovery.ts'
import { formFromDiscovered, type NodeForm } from './node-form.ts'
import { NodeList } from './NodeList.tsx'
import { NodeModal } from './NodeModal.tsx'
import { testStoredNode, type DiscoveredServer, type NodeType, type NodeView } from './nodes-api.ts'
import { useDiscovery, type Discovery } from './useDiscovery.ts'
import { useNodeList, type NodeList as NodeListState } from './useNodeList.ts'

const SHORT: Record<NodeType, string> = { pve: 'PVE', pbs: 'PBS' }

interface ModalState {
  node: NodeView | null
  initial?: NodeForm
  fromDiscovery: boolean
  /** A fresh form each time the modal opens (the spec's reset key). */
  key: number
}

function DiscoveryControls({ discovery, type }: { discovery: Discovery; type: NodeType }) {
  const id = useId()
  const settings = discovery.settings
  const enabled = settings?.discoveryEnabled ?? false
  return (
    <>
      <div className="flex items-center gap-2 text-sm">
        <label htmlFor={id} className="font-medium text-gray-700 dark:text-gray-300">
          Discovery
        </label>
        <Switch
          id={id}
          checked={enabled}
          disabled={!settings || discovery.saving || settings.enabledOverridden}
          onChange={(on) => void discovery.toggle(on)}
        />
        <span aria-hidden className="w-7 text-xs text-gray-600 dark:text-gray-400">
          {enabled ? 'On' : 'Off'}
        </span>
      </div>
      <button
        type="button"
        aria-label="Refresh discovery"
        title={`Look for ${SHORT[type]} servers on the network again`}
        onClick={() => void discovery.scan('refresh')}
        disabled={discovery.status?.scanning ?? false}
        className={`${BUTTON.secondary} disabled:opacity-60`}
      >
        <RefreshCw
          className={`size-4 ${discovery.status?.scanning ? 'animate-spin' : ''}`}
          aria-hidden
        />
        <span className="hidden sm:inline">Refresh</span>
      </button>
    </>
  )
}

function ListBody({
  list,
  type,
  nodes,
  testing,
  onTest,
  onEdit,
  onDelete,
}: {
  list: NodeListState
  type: NodeType
  nodes: NodeView[]
  testing: ReadonlySet<string>
  onTest: (node: NodeView) => void
  onEdit: (node: NodeView) => void
  onDelete: (node: NodeView) => void
}) {
  if (list.nodes === null) {
    if (!list.error) {
      return (
        <p
          role="status"
          className="flex items-center gap-2 text-sm text-gray-600 dark:text-gray-400"
        >
          <Loader2 className="size-4 animate-spin" aria-hidden />
          Loading nodes...
        </p>
      )
    }
    return (
      <div className="flex flex-col items-start gap-2">
        <ErrorPanel>Failed to load nodes: {list.error}</ErrorPanel>
        {list.retrying ? (
          <p role="status" className="text-xs text-gray-600 dark:text-gray-400">
            Trying again in a few seconds...
          </p>
        ) : (
          <button type="button" className={BUTTON.secondary} onClick={() => void list.reload()}>
            Try again
          </button>
        )}
      </div>
    )
  }
  if (nodes.length === 0) {
    return (
      <EmptyState
        icon={<Server className="size-8" aria-hidden />}
        title={`No ${SHORT[type]} nodes configured`}
        description="Add a node to start monitoring"
      />
    )
  }
  return (
    <NodeList
      nodes={nodes}
      label={`${SHORT[type]} nodes`}
      testing={testing}
      onTest={onTest}
      onEdit={onEdit}
      onDelete={onDelete}
    />
  )
}

/**
 * Settings > PVE Nodes or PBS Nodes (spec 001 §2): the configured nodes of `type` with their
 * status and actions, discovery (switch, refresh, panel), and the node and delete dialogs. The
 * socket's node and discovery events keep them current; while the node dialog is open they are
 * also polled every 3 s, as spec 001 §4 asks.
 */
export function NodesTab({ type }: { type: NodeType }) {
  const list = useNodeList()
  // Issue 29 item 6: adding a node needs an admin (the list shows why the button is off).
  const mayAdd = useRole().can('admin')
  const discovery = useDiscovery()
  const [modal, setModal] = useState<ModalState | null>(null)
  const [deleting, setDeleting] = useState<NodeView | null>(null)
  const [testing, setTesting] = useState<ReadonlySet<string>>(() => new Set())
  const panelRef = useRef<HTMLDivElement>(null)
  const opened = useRef(0)

  const { reload, upsert } = list
  const { refresh } = discovery
  const modalOpen = modal !== null
  useEffect(() => {
    if (!modalOpen) return
    const timer = setInterval(() => {
      void reload()
      void refresh()
    }, MODAL_POLL_MS)
    return () => clearInterval(timer)
  }, [modalOpen, reload, refresh])

  // Spec 001 §4: the setup script registered a node: the dialog has done its job (the toast is
  // the shell's). The list reloads itself on the same event; discovery hides the server now.
  useLiveEvent(['node_auto_registered'], () => {
    setModal(null)
    void refresh()
  })

  const open = (node: NodeView | null, initial?: NodeForm) =>
    setModal({ node, initial, fromDiscovery: initial !== undefined, key: ++opened.current })
  const close = useCallback(() => setModal(null), [])

  const onSaved = useCallback(
    (saved: NodeView | null) => {
      setModal(null)
      // Spec 001 §4: pending after add or edit until the server reports otherwise.
      if (saved) upsert({ ...saved, status: 'pending' })
      void reload()
      void refresh()
    },
    [upsert, reload, refresh],
  )

  const testNode = async (node: NodeView) => {
    setTesting((ids) => new Set(ids).add(node.id))
    try {
      const result = await testStoredNode(node.id)
      showToast(result.message, 'success')
    } catch (error) {
      showToast(error instanceof Error ? error.message : 'Connection failed', 'error')
    } finally {
      setTesting((ids) => {
        const next = new Set(ids)
        next.delete(node.id)
        return next
      })
    }
  }

  const backToDiscovery = () => {
    setModal(null)
    // After the dialog has handed the focus back to its opener: the panel, when that is gone.
    requestAnimationFrame(() => {
      const panel = panelRef.current
      if (panel && !panel.contains(document.activeElement)) panel.focus()
    })
  }

  const all = list.nodes ?? []
  const nodes = all.filter((node) => node.type === type)
  const servers = unconfiguredServers(discovery.status?.servers ?? [], all, type)
  const label = type === 'pve' ? 'Proxmox VE nodes' : 'Proxmox Backup Server nodes'

  return (
    <div className="flex flex-col gap-4">
      <Card
        title={label}
        icon={<Server className="size-4" aria-hidden />}
        description={
          type === 'pve'
            ? 'Hypervisor nodes and clusters whose guests, storage and backups are monitored.'
            : 'Backup servers whose datastores and jobs are monitored.'
        }
        actions={
          <>
            <DiscoveryControls discovery={discovery} type={type} />
            <button
              type="button"
              className={`${BUTTON.primary} disabled:cursor-not-allowed disabled:opacity-50`}
              onClick={() => open(null)}
              disabled={!mayAdd}
              title={mayAdd ? undefined : roleReason('admin')}
            >
              <Plus className="size-4" aria-hidden />
              Add {SHORT[type]} Node
            </button>
          </>
        }
      >
        <ListBody
          list={list}
          type={type}
          nodes={nodes}
          testing={testing}
          onTest={(node) => void testNode(node)}
          onEdit={(node) => open(node)}
          onDelete={setDeleting}
        />
      </Card>
      <DiscoveryPanel
        type={type}
        enabled={discovery.settings?.discoveryEnabled ?? false}
        status={discovery.status}
        servers={servers}
        onScan={() => void discovery.scan('scan')}
        onConfigure={(server: DiscoveredServer) => open(null, formFromDiscovered(server))}
        panelRef={panelRef}
      />

      {modal && (
        <NodeModal
          key={modal.key}
          type={type}
          node={modal.node}
          initial={modal.initial}
          fromDiscovery={modal.fromDiscovery}
          nodes={all}
          onClose={close}
          onBackToDiscovery={backToDiscovery}
          onSaved={onSaved}
        />
      )}
      {deleting && (
        <DeleteNodeDialog
          node={deleting}
          onClose={() => setDeleting(null)}
          onDeleted={() => {
            setDeleting(null)
            void reload()
            void refresh()
          }}
        />
      )}
    </div>
  )
}
