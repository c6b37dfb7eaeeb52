import { ArrowLeft, CheckCircle2, Loader2, Network, PlugZap } from 'lucide-react'
import { useEffect, useId, useRef, useState, type FormEvent } from 'react'
import { ErrorPanel } from '../../auth/AuthCard.tsx'
import { BUTTON } from '../../components/button-classes.ts'
import { Modal } from '../../components/Modal.tsx'
import { ModalActions } from '../../components/ModalActions.tsx'
import { showToast } from '../../components/toast-store.ts'
import { hostnameOf } from './discovery.ts'
import {
  TYPE_LABEL,
  clearsSetupCommand,
  defaultNodeForm,
  formFromNode,
  saveProblem,
  testPlan,
  toPayload,
  type NodeForm,
} from './node-form.ts'
import {
  addNode,
  testNodeConfig,
  testStoredNode,
  updateNode,
  type NodeType,
  type NodeView,
  type SetupScriptUrl,
  type TestSuccess,
} from './nodes-api.ts'
import { AuthSection, BasicSection, CoverageNote, SslSection } from './NodeFormSections.tsx'

type TestState =
  | { kind: 'idle' }
  | { kind: 'testing' }
  | { kind: 'success'; result: TestSuccess }
  | { kind: 'error'; message: string }

/** The modal's title, e.g. "Add Proxmox VE node". */
export function nodeModalTitle(type: NodeType, editing: boolean): string {
  return `${editing ? 'Edit' : 'Add'} ${TYPE_LABEL[type]} node`
}

/** What a successful test found: the cluster (PVE) or the datastores (PBS). */
function successDetail(result: TestSuccess): string {
  if (result.isCluster) {
    const nodes = result.nodeCount > 0 ? ` with ${result.nodeCount} nodes` : ''
    return `Cluster detected: ${result.clusterName || 'unnamed'}${nodes}. Every cluster node is monitored, with automatic failover between them.`
  }
  if (result.datastoreCount >= 0) {
    return `${result.datastoreCount} ${result.datastoreCount === 1 ? 'datastore' : 'datastores'} found.`
  }
  return ''
}

function TestResult({ test }: { test: TestState }) {
  if (test.kind === 'error') return <ErrorPanel>{test.message}</ErrorPanel>
  if (test.kind !== 'success') return null
  const detail = successDetail(test.result)
  return (
    <div
      data-test-result="success"
      className="flex items-start gap-2 rounded-md border border-emerald-200 bg-emerald-50 px-3 py-2 text-sm text-emerald-900 dark:border-emerald-900 dark:bg-emerald-950 dark:text-emerald-200"
    >
      <CheckCircle2 className="mt-0.5 size-4 shrink-0" aria-hidden />
      <div className="min-w-0">
        <p className="font-medium">{test.result.message}</p>
        {detail && (
          <p data-cluster-note={test.result.isCluster ? '' : undefined} className="text-xs">
            {test.result.isCluster && <Network className="mr-1 inline size-3.5" aria-hidden />}
            {detail}
          </p>
        )}
      </div>
    </div>
  )
}

export interface NodeModalProps {
  type: NodeType
  /** The node being edited; null adds one. */
  node: NodeView | null
  /** A prefilled new-node form (from a discovered server). */
  initial?: NodeForm | undefined
  /** Opened from a discovered server: offers Back to Discovery. */
  fromDiscovery?: boolean
  /** The configured nodes, polled while open: a node the setup script registers closes it. */
  nodes: readonly NodeView[]
  onClose: () => void
  onBackToDiscovery?: () => void
  /** Saved (or registered by the script); the tab closes the modal and reloads. */
  onSaved: (node: NodeView | null) => void
}

/**
 * Add/Edit node (spec 001 §2 Add/Edit node modal, §4 Node form and Test connection, §5):
 * Basic information, Authentication (with Quick and Manual Setup), SSL settings, the coverage
 * note, and Test Connection / Back to Discovery / Cancel / Add or Update.
 */
export function NodeModal({
  type,
  node,
  initial,
  fromDiscovery = false,
  nodes,
  onClose,
  onBackToDiscovery,
  onSaved,
}: NodeModalProps) {
  const formId = useId()
  // Opened without a node (or for another type) the form starts from the defaults; the tab
  // mounts the modal afresh each time it opens, which is the spec's reset key.
  const [form, setForm] = useState<NodeForm>(() =>
    node ? formFromNode(node) : (initial ?? defaultNodeForm(type)),
  )
  const [setup, setSetup] = useState<SetupScriptUrl | null>(null)
  const [test, setTest] = useState<TestState>({ kind: 'idle' })
  const [error, setError] = useState('')
  const [busy, setBusy] = useState(false)
  const known = useRef(new Set(nodes.map((item) => item.id)))
  const alive = useRef(true)
  useEffect(
    () => () => {
      alive.current = false
    },
    [],
  )

  const update = (patch: Partial<NodeForm>) => {
    const next = { ...form, ...patch }
    if (clearsSetupCommand(form, next)) setSetup(null)
    setForm(next)
  }

  // A node the setup script registered for this host, seen by the tab's 3 s poll: the fallback
  // for a server that does not announce node_auto_registered (the tab closes the dialog on it).
  const host = hostnameOf(form.host)
  useEffect(() => {
    if (node || busy || !host) return
    const registered = nodes.find(
      (item) => !known.current.has(item.id) && item.type === type && hostnameOf(item.host) === host,
    )
    if (registered) {
      showToast('Node added successfully', 'success')
      onSaved(registered)
    }
  }, [nodes, node, busy, host, type, onSaved])

  const runTest = async () => {
    const plan = testPlan(form, node)
    if (plan.kind === 'invalid') {
      setTest({ kind: 'error', message: plan.problem })
      return
    }
    setTest({ kind: 'testing' })
    try {
      const result =
        plan.kind === 'stored' ? await testStoredNode(plan.id) : await testNodeConfig(plan.payload)
      if (alive.current) setTest({ kind: 'success', result })
    } catch (err) {
      const message = err instanceof Error ? err.message : 'Connection test failed'
      if (alive.current) setTest({ kind: 'error', message })
    }
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (busy) return
    const problem = saveProblem(form, node)
    if (problem) {
      setError(problem)
      return
    }
    setError('')
    setBusy(true)
    let saved: NodeView | null
    try {
      const payload = toPayload(form)
      saved = node ? await updateNode(node.id, payload) : await addNode(payload)
    } catch (err) {
      if (alive.current) {
        setBusy(false)
        setError(err instanceof Error ? err.message : 'Operation failed')
      }
      return
    }
    showToast(node ? 'Node updated successfully' : 'Node added successfully', 'success')
    onSaved(saved)
  }

  const testing = test.kind === 'testing'
  return (
    <Modal
      title={nodeModalTitle(type, node !== null)}
      size="lg"
      onClose={onClose}
      dismissible={!busy}
      footer={
        <>
          <button
            type="button"
            onClick={() => void runTest()}
            disabled={testing || busy}
            className={`${BUTTON.secondary} justify-center disabled:opacity-60 sm:mr-auto`}
          >
            {testing ? (
              <Loader2 className="size-4 animate-spin" aria-hidden />
            ) : (
              <PlugZap className="size-4" aria-hidden />
            )}
            {testing ? 'Testing...' : 'Test Connection'}
          </button>
          {fromDiscovery && onBackToDiscovery && (
            <button
              type="button"
              onClick={onBackToDiscovery}
              disabled={busy}
              className={`${BUTTON.secondary} justify-center disabled:opacity-60`}
            >
              <ArrowLeft className="size-4" aria-hidden />
              Back to Discovery
            </button>
          )}
          <ModalActions
            onCancel={onClose}
            busy={busy}
            formId={formId}
            submitLabel={node ? 'Update Node' : 'Add Node'}
            busyLabel={node ? 'Updating...' : 'Adding...'}
          />
        </>
      }
    >
      <form
        id={formId}
        className="flex flex-col gap-5"
        onSubmit={(submitEvent) => void submit(submitEvent)}
        noValidate
      >
        <BasicSection form={form} update={update} disabled={busy} />
        <AuthSection
          form={form}
          update={update}
          disabled={busy}
          editing={node !== null}
          setup={setup}
          onSetup={setSetup}
        />
        <SslSection form={form} update={update} disabled={busy} />
        <CoverageNote form={form} />
        <div aria-live="polite" data-testid="test-result">
          <TestResult test={test} />
        </div>
        {error && <ErrorPanel>{error}</ErrorPanel>}
      </form>
    </Modal>
  )
}
