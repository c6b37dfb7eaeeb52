import { CheckCircle2, MinusCircle, XCircle } from 'lucide-react'
import type {
  DiagnosticsAuthMethod,
  PbsDiagnostics,
  PermissionCheck,
  PveDiagnostics,
} from '../../../shared/model/diagnostics.ts'

const AUTH_LABEL: Record<DiagnosticsAuthMethod, string> = {
  api_token: 'API token',
  username_password: 'Username and password',
  none: 'No credentials',
}

/** Connected or Failed, as a badge that does not rely on colour alone. */
export function StatusBadge({ connected }: { connected: boolean }) {
  return connected ? (
    <span className="inline-flex items-center gap-1 rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-medium text-emerald-700 ring-1 ring-emerald-600/20 ring-inset dark:bg-emerald-500/10 dark:text-emerald-300">
      <CheckCircle2 className="size-3.5" aria-hidden />
      Connected
    </span>
  ) : (
    <span className="inline-flex items-center gap-1 rounded-full bg-red-50 px-2 py-0.5 text-xs font-medium text-red-700 ring-1 ring-red-600/20 ring-inset dark:bg-red-500/10 dark:text-red-300">
      <XCircle className="size-3.5" aria-hidden />
      Failed
    </span>
  )
}

function CheckLine({ label, check }: { label: string; check: PermissionCheck }) {
  const Icon =
    check.status === 'ok' ? CheckCircle2 : check.status === 'failed' ? XCircle : MinusCircle
  const colour =
    check.status === 'ok'
      ? 'text-emerald-600 dark:text-emerald-400'
      : check.status === 'failed'
        ? 'text-red-600 dark:text-red-400'
        : 'text-gray-400 dark:text-gray-500'
  const word = check.status === 'ok' ? 'OK' : check.status === 'failed' ? 'Failed' : 'Skipped'
  return (
    <li className="flex items-start gap-2">
      <Icon className={`mt-0.5 size-3.5 shrink-0 ${colour}`} aria-hidden />
      <span className="min-w-0 break-words">
        <span className="font-medium text-gray-800 dark:text-gray-200">{label}:</span>{' '}
        <span className="sr-only">{word}. </span>
        {check.message}
      </span>
    </li>
  )
}

function Field({
  term,
  wide = false,
  children,
}: {
  term: string
  /** The whole row on a phone (a URL does not fit half of it). */
  wide?: boolean
  children: React.ReactNode
}) {
  return (
    <div className={`min-w-0 ${wide ? 'col-span-2 sm:col-span-1' : ''}`}>
      <dt className="text-xs text-gray-500 dark:text-gray-400">{term}</dt>
      <dd className="truncate text-sm text-gray-900 dark:text-gray-100" title={String(children)}>
        {children}
      </dd>
    </div>
  )
}

/** One PVE node or PBS result. */
export function NodeResult({ node }: { node: PveDiagnostics | PbsDiagnostics }) {
  const version = node.details?.version
  return (
    <li
      aria-label={`${node.type === 'pve' ? 'PVE' : 'PBS'} ${node.name}`}
      className="rounded-md border border-gray-200 p-3 dark:border-gray-800"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="min-w-0 truncate text-sm font-semibold text-gray-900 dark:text-gray-100">
          {node.name}
        </h3>
        <StatusBadge connected={node.connected} />
      </div>
      <dl className="mt-2 grid grid-cols-2 gap-x-4 gap-y-1 sm:grid-cols-3">
        <Field term="Host" wide>
          {node.host}
        </Field>
        <Field term="Auth method">{AUTH_LABEL[node.authMethod]}</Field>
        <Field term="Version">{version ?? '—'}</Field>
      </dl>
      {node.error && (
        <p role="alert" className="mt-2 text-sm break-words text-red-700 dark:text-red-300">
          {node.error}
        </p>
      )}
      {node.type === 'pve' && node.connected && <PveChecks node={node} />}
      {node.type === 'pbs' && node.details?.datastores !== undefined && (
        <p className="mt-2 text-xs text-gray-600 dark:text-gray-400">
          {node.details.datastores} datastore{node.details.datastores === 1 ? '' : 's'}
        </p>
      )}
    </li>
  )
}

function PveChecks({ node }: { node: PveDiagnostics }) {
  const agent = node.vmDiskCheck
  const disks = node.physicalDisks
  const members = node.clusterInfo?.nodes ?? node.details?.node_count
  return (
    <>
      <p className="mt-2 text-xs text-gray-600 dark:text-gray-400">
        {node.clusterInfo?.name ? `Cluster ${node.clusterInfo.name}, ` : ''}
        {members ?? 0} node{members === 1 ? '' : 's'}
        {agent ? `, ${agent.vmsFound} VM${agent.vmsFound === 1 ? '' : 's'}` : ''}
        {disks ? `, ${disks.totalDisks} physical disk${disks.totalDisks === 1 ? '' : 's'}` : ''}
      </p>
      <ul aria-label="Permission checks" className="mt-2 space-y-1 text-xs">
        {agent && (
          <CheckLine
            label={`Guest agent (${agent.permission}${agent.testVMID ? `, VM ${agent.testVMID}` : ''})`}
            check={agent.testResult}
          />
        )}
        {node.backupListing && <CheckLine label="Backup listing" check={node.backupListing} />}
        {disks && <CheckLine label="Physical disks" check={disks.testResult} />}
      </ul>
    </>
  )
}
