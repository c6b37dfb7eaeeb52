import { Download, ShieldCheck, Lightbulb, Loader2, Play, Server, Stethoscope } from 'lucide-react'
import { useRef, useState } from 'react'
import type { DiagnosticsReport } from '../../../shared/model/diagnostics.ts'
import { formatLocalDateTime } from '../../../shared/format/date-time.ts'
import { roleReason, useRole } from '../../auth/useRole.ts'
import { BUTTON } from '../../components/button-classes.ts'
import { Card } from '../../components/Card.tsx'
import { showToast } from '../../components/toast-store.ts'
import { useConnection } from '../../hooks/useConnection.ts'
import { useApiVersion } from '../../hooks/useServerInfo.ts'
import { pillLabel } from '../../shell/ConnectionPill.tsx'
import { downloadDiagnostics, runDiagnostics } from './diagnostics-api.ts'
import { NodeResult } from './NodeResults.tsx'

/** What this build of the browser side is (spec 001 §2: backend and frontend labels). */
export const FRONTEND_LABEL = 'React SPA + Web Worker'

function Stat({ label, value }: { label: string; value: string | number }) {
  return (
    <div className="min-w-0 rounded-md bg-gray-50 px-3 py-2 dark:bg-gray-800/60">
      <dt className="text-xs text-gray-500 dark:text-gray-400">{label}</dt>
      <dd className="text-sm font-medium text-gray-900 tabular-nums dark:text-gray-100">{value}</dd>
    </div>
  )
}

/** Settings › Diagnostics (spec 001 §2 Diagnostics tab). */
export function DiagnosticsTab() {
  const version = useApiVersion()
  const { status, attempt, serverVersion } = useConnection()
  const [report, setReport] = useState<DiagnosticsReport | null>(null)
  const [running, setRunning] = useState(false)
  const [error, setError] = useState('')
  const [exporting, setExporting] = useState<'full' | 'github' | null>(null)
  const runId = useRef(0)
  const shownVersion = (version || serverVersion).replace(/^v/, '')
  // Issue 29 item 6: running diagnostics needs an operator.
  const mayRun = useRole().can('operator')

  const run = async () => {
    const id = ++runId.current
    setRunning(true)
    setError('')
    try {
      const next = await runDiagnostics()
      if (id === runId.current) setReport(next)
    } catch (err) {
      if (id === runId.current) setError(err instanceof Error ? err.message : String(err))
    } finally {
      if (id === runId.current) setRunning(false)
    }
  }
  const exportAs = async (kind: 'full' | 'github') => {
    setExporting(kind)
    try {
      await downloadDiagnostics(kind === 'github')
    } catch (err) {
      showToast(err instanceof Error ? err.message : String(err), 'error')
    } finally {
      setExporting(null)
    }
  }

  const connection = report?.connection
  return (
    <div className="flex flex-col gap-4">
      <Card
        title="Diagnostics"
        icon={<Stethoscope className="size-4" aria-hidden />}
        description="Tests every configured PVE node and PBS live, with the permissions Pulse needs."
        actions={
          <button
            type="button"
            className={`${BUTTON.primary} disabled:opacity-60`}
            onClick={() => void run()}
            disabled={running || !mayRun}
            title={mayRun ? undefined : roleReason('operator')}
          >
            {running ? (
              <Loader2 className="size-4 animate-spin" aria-hidden />
            ) : (
              <Play className="size-4" aria-hidden />
            )}
            {running ? 'Running...' : 'Run Diagnostics'}
          </button>
        }
      >
        <dl className="grid grid-cols-1 gap-2 text-sm sm:grid-cols-3">
          <Stat label="Version" value={shownVersion ? `Pulse v${shownVersion}` : 'Pulse'} />
          <Stat label="Backend" value={report ? `Node.js (${report.runtime})` : 'Node.js'} />
          <Stat label="Frontend" value={FRONTEND_LABEL} />
        </dl>
        {error && (
          <p role="alert" className="mt-3 text-sm text-red-700 dark:text-red-300">
            {error}
          </p>
        )}
        {!report && !running && !error && (
          <p className="mt-3 text-sm text-gray-600 dark:text-gray-400">
            Run diagnostics first: the results and both exports then include live connection tests.
          </p>
        )}
        <div aria-live="polite" className="sr-only">
          {running ? 'Running diagnostics' : report ? 'Diagnostics finished' : ''}
        </div>
      </Card>

      <Card title="Connection" icon={<Server className="size-4" aria-hidden />}>
        <dl className="grid grid-cols-2 gap-2 sm:grid-cols-3 lg:grid-cols-6">
          <Stat
            label="WebSocket"
            // The first open is not a reconnection, whatever the header pill says.
            value={status === 'connecting' && attempt === 0 ? 'Connecting...' : pillLabel(status)}
          />
          <Stat label="Port" value={connection?.port ?? '—'} />
          <Stat label="PVE nodes" value={connection?.pveNodes ?? '—'} />
          <Stat label="PBS nodes" value={connection?.pbsNodes ?? '—'} />
          <Stat label="VMs" value={connection?.vms ?? '—'} />
          <Stat label="Containers" value={connection?.containers ?? '—'} />
        </dl>
      </Card>

      {report && (
        <Card title="Results" description={`Checked at ${formatLocalDateTime(report.checkedAt)}`}>
          {report.nodes.length + report.pbs.length === 0 ? (
            <p className="text-sm text-gray-600 dark:text-gray-400">No nodes are configured.</p>
          ) : (
            <ul aria-label="Node results" className="grid grid-cols-1 gap-3 xl:grid-cols-2">
              {report.nodes.map((node) => (
                <NodeResult key={node.id} node={node} />
              ))}
              {report.pbs.map((node) => (
                <NodeResult key={node.id} node={node} />
              ))}
            </ul>
          )}
        </Card>
      )}

      {report && (
        <Card title="Recommendations" icon={<Lightbulb className="size-4" aria-hidden />}>
          {report.recommendations.length === 0 ? (
            <p className="text-sm text-gray-600 dark:text-gray-400">
              Nothing to change: every check passed.
            </p>
          ) : (
            <ul className="list-disc space-y-1 pl-5 text-sm text-gray-800 dark:text-gray-200">
              {report.recommendations.map((text) => (
                <li key={text}>{text}</li>
              ))}
            </ul>
          )}
        </Card>
      )}

      <Card
        title="Export"
        icon={<Download className="size-4" aria-hidden />}
        description="Full keeps hosts and names for your own records. For GitHub replaces IPs, hostnames, token ids, node and guest names with placeholders. Neither contains passwords or token values."
      >
        <div className="flex flex-wrap gap-2">
          <button
            type="button"
            className={`${BUTTON.secondary} disabled:opacity-60`}
            onClick={() => void exportAs('full')}
            disabled={!report || exporting !== null}
          >
            <Download className="size-4" aria-hidden />
            Export Full
          </button>
          <button
            type="button"
            className={`${BUTTON.secondary} disabled:opacity-60`}
            onClick={() => void exportAs('github')}
            disabled={!report || exporting !== null}
          >
            <ShieldCheck className="size-4" aria-hidden />
            Export for GitHub
          </button>
        </div>
        {!report && (
          <p className="mt-2 text-xs text-gray-500 dark:text-gray-400">
            Run diagnostics first to enable the exports.
          </p>
        )}
      </Card>
    </div>
  )
}
