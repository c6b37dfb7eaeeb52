import { Loader2, Network, Pencil, PlugZap, Trash2, TriangleAlert } from 'lucide-react'
import { useId } from 'react'
import { roleReason, useRole } from '../../auth/useRole.ts'
import { BUTTON } from '../../components/button-classes.ts'
import type { ClusterEndpointView, NodeView } from './nodes-api.ts'
import { DOT_CLASS, authSummary, featureBadges, statusLabel, statusTone } from './node-status.ts'

/** A status dot; the status is its accessible name (the colour alone says nothing to a reader). */
export function StatusDot({ status, label }: { status: string; label?: string }) {
  const tone = statusTone(status)
  return (
    <span
      role="img"
      aria-label={label ?? `Status: ${statusLabel(status)}`}
      title={label ?? statusLabel(status)}
      data-tone={tone}
      className={`inline-block size-2.5 shrink-0 rounded-full ${DOT_CLASS[tone]}`}
    />
  )
}

function Badge({ children }: { children: string }) {
  return (
    <li className="rounded bg-gray-100 px-1.5 py-0.5 text-xs text-gray-700 dark:bg-gray-800 dark:text-gray-300">
      {children}
    </li>
  )
}

function EndpointRow({ endpoint }: { endpoint: ClusterEndpointView }) {
  return (
    <li className="flex min-w-0 items-center gap-2" data-endpoint={endpoint.NodeName}>
      <StatusDot
        status={endpoint.Online ? 'online' : 'offline'}
        label={endpoint.Online ? 'Online' : 'Offline'}
      />
      <span className="font-medium">{endpoint.NodeName}</span>
      <span className="truncate font-mono text-gray-600 dark:text-gray-400">
        {endpoint.IP || endpoint.Host}
      </span>
    </li>
  )
}

/** A PVE cluster: its name, the endpoint count, each endpoint, and the failover note. */
function ClusterBlock({ node }: { node: NodeView }) {
  const count = node.clusterEndpoints.length
  return (
    <div
      data-cluster=""
      className="rounded-md border border-blue-200 bg-blue-50/60 px-3 py-2 text-xs dark:border-blue-900 dark:bg-blue-950/40"
    >
      <p className="flex flex-wrap items-center gap-x-2 gap-y-1 font-medium text-blue-900 dark:text-blue-200">
        <Network className="size-3.5" aria-hidden />
        <span>Cluster: {node.clusterName || 'unnamed'}</span>
        <span className="font-normal text-blue-800 dark:text-blue-300">
          {count} {count === 1 ? 'endpoint' : 'endpoints'}
        </span>
      </p>
      {count > 0 && (
        <ul
          aria-label="Cluster endpoints"
          className="mt-1.5 grid gap-1 text-gray-800 sm:grid-cols-2 dark:text-gray-200"
        >
          {node.clusterEndpoints.map((endpoint) => (
            <EndpointRow key={`${endpoint.NodeName}-${endpoint.IP}`} endpoint={endpoint} />
          ))}
        </ul>
      )}
      <p className="mt-1.5 text-blue-800 dark:text-blue-300">
        Automatic failover enabled: when this endpoint does not answer, Pulse uses another cluster
        node.
      </p>
    </div>
  )
}

interface NodeItemProps {
  node: NodeView
  testing: boolean
  onTest: () => void
  onEdit: () => void
  onDelete: () => void
}

function NodeItem({ node, testing, onTest, onEdit, onDelete }: NodeItemProps) {
  const nameId = useId()
  // Issue 29 item 6: testing needs an operator, changing a node an admin.
  const { can } = useRole()
  const mayTest = can('operator')
  const badges = featureBadges(node)
  return (
    <li
      aria-labelledby={nameId}
      data-node={node.id}
      className="flex flex-col gap-2 px-4 py-3 sm:flex-row sm:items-start sm:gap-4"
    >
      <div className="flex min-w-0 flex-1 flex-col gap-1.5">
        <div className="flex min-w-0 items-center gap-2">
          <StatusDot status={node.status} />
          <h3 id={nameId} className="truncate text-sm font-semibold">
            {node.name || node.host}
          </h3>
        </div>
        <p className="truncate font-mono text-xs text-gray-700 dark:text-gray-300">{node.host}</p>
        <p className="truncate text-xs text-gray-600 dark:text-gray-400" data-auth="">
          {authSummary(node)}
        </p>
        {badges.length > 0 && (
          <ul aria-label="Monitored features" className="flex flex-wrap gap-1">
            {badges.map((badge) => (
              <Badge key={badge}>{badge}</Badge>
            ))}
          </ul>
        )}
        {node.type === 'pve' && node.isCluster && <ClusterBlock node={node} />}
        {node.status === 'error' && node.error && (
          <p
            data-node-error=""
            className="flex items-start gap-1.5 text-xs break-words text-red-700 dark:text-red-400"
          >
            <TriangleAlert className="mt-0.5 size-3.5 shrink-0" aria-hidden />
            {node.error}
          </p>
        )}
      </div>
      <div className="flex shrink-0 flex-wrap gap-2">
        <button
          type="button"
          onClick={onTest}
          disabled={testing || !mayTest}
          aria-describedby={nameId}
          title={mayTest ? undefined : roleReason('operator')}
          className={`${BUTTON.secondary} disabled:opacity-60`}
        >
          {testing ? (
            <Loader2 className="size-4 animate-spin" aria-hidden />
          ) : (
            <PlugZap className="size-4" aria-hidden />
          )}
          {testing ? 'Testing...' : 'Test connection'}
        </button>
        {can('admin') && (
          <>
            <button
              type="button"
              onClick={onEdit}
              aria-describedby={nameId}
              className={BUTTON.secondary}
            >
              <Pencil className="size-4" aria-hidden />
              Edit
            </button>
            <button
              type="button"
              onClick={onDelete}
              aria-describedby={nameId}
              className={`${BUTTON.secondary} text-red-700 dark:text-red-400`}
            >
              <Trash2 className="size-4" aria-hidden />
              Delete
            </button>
          </>
        )}
      </div>
    </li>
  )
}

export interface NodeListProps {
  nodes: readonly NodeView[]
  label: string
  /** Ids of nodes whose connection test is running. */
  testing: ReadonlySet<string>
  onTest: (node: NodeView) => void
  onEdit: (node: NodeView) => void
  onDelete: (node: NodeView) => void
}

/** The configured nodes of one type, each with its status, features and actions. */
export function NodeList({ nodes, label, testing, onTest, onEdit, onDelete }: NodeListProps) {
  return (
    <ul aria-label={label} className="-mx-4 -my-3 divide-y divide-gray-200 dark:divide-gray-800">
      {nodes.map((node) => (
        <NodeItem
          key={node.id}
          node={node}
          testing={testing.has(node.id)}
          onTest={() => onTest(node)}
          onEdit={() => onEdit(node)}
          onDelete={() => onDelete(node)}
        />
      ))}
    </ul>
  )
}
