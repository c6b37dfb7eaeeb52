import { Loader2, Radar, Search, Server, TriangleAlert } from 'lucide-react'
import { useEffect, useState, type Ref } from 'react'
import { BUTTON, FOCUS_RING } from '../../components/button-classes.ts'
import { Card } from '../../components/Card.tsx'
import { Notice } from '../security/fields.tsx'
import { formatScanAge } from './discovery.ts'
import type { DiscoveredServer, DiscoveryStatus, NodeType } from './nodes-api.ts'

/** How often the last-scan age is redrawn between polls. */
const AGE_TICK_MS = 10_000

/** The current time, redrawn every `ms`. */
function useNow(ms: number): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), ms)
    return () => clearInterval(timer)
  }, [ms])
  return now
}

function ServerButton({
  server,
  onConfigure,
}: {
  server: DiscoveredServer
  onConfigure: (server: DiscoveredServer) => void
}) {
  const address = `${server.ip}:${server.port}`
  return (
    <li>
      <button
        type="button"
        data-discovered={server.ip}
        onClick={() => onConfigure(server)}
        className={`flex w-full min-w-0 items-start gap-3 rounded-md border border-dashed border-blue-300 bg-blue-50/50 px-3 py-2 text-left hover:bg-blue-50 dark:border-blue-800 dark:bg-blue-950/30 dark:hover:bg-blue-950/60 ${FOCUS_RING}`}
      >
        <Server className="mt-0.5 size-4 shrink-0 text-blue-600 dark:text-blue-400" aria-hidden />
        <span className="flex min-w-0 flex-1 flex-col gap-0.5">
          <span className="flex flex-wrap items-center gap-2">
            <span className="truncate text-sm font-medium">{server.hostname || server.ip}</span>
            <span className="rounded bg-blue-100 px-1.5 py-0.5 text-xs font-medium text-blue-800 dark:bg-blue-900 dark:text-blue-200">
              Discovered
            </span>
          </span>
          <span className="truncate font-mono text-xs text-gray-600 dark:text-gray-400">
            {address}
            {server.version &&
              server.version !== 'unknown' &&
              ` · ${server.type.toUpperCase()} ${server.version}`}
            {server.release && ` (${server.release})`}
          </span>
          <span className="text-xs text-blue-700 dark:text-blue-300">Click to configure</span>
        </span>
      </button>
    </li>
  )
}

function ScanState({ status, now }: { status: DiscoveryStatus | null; now: number }) {
  if (status?.scanning) {
    return (
      <span className="flex items-center gap-1.5">
        <Loader2 className="size-3.5 animate-spin" aria-hidden />
        Scanning network... (a scan can take up to a minute)
      </span>
    )
  }
  const age = formatScanAge(status?.lastResultAt || status?.lastScanStartedAt || 0, now)
  return <span data-scan-age={age}>{age ? `Last scan: ${age}` : 'No scan yet'}</span>
}

export interface DiscoveryPanelProps {
  type: NodeType
  enabled: boolean
  status: DiscoveryStatus | null
  /** The discovered servers of this type not configured yet. */
  servers: readonly DiscoveredServer[]
  onScan: () => void
  onConfigure: (server: DiscoveredServer) => void
  /** Focus target for "Back to Discovery". */
  panelRef?: Ref<HTMLDivElement>
}

/**
 * The discovery panel (spec 001 §2): scanning indicator or last-scan age, the scan errors, and
 * the servers found that are not configured yet; each opens the node form prefilled.
 */
export function DiscoveryPanel({
  type,
  enabled,
  status,
  servers,
  onScan,
  onConfigure,
  panelRef,
}: DiscoveryPanelProps) {
  const now = useNow(AGE_TICK_MS)
  const label = type === 'pve' ? 'PVE' : 'PBS'
  return (
    <div ref={panelRef} tabIndex={-1} className="outline-none">
      <Card
        title="Discovery"
        icon={<Radar className="size-4" aria-hidden />}
        description={`Proxmox servers found on the network (${label} ports ${type === 'pve' ? 8006 : 8007}).`}
        actions={
          enabled ? (
            <button
              type="button"
              onClick={onScan}
              disabled={status?.scanning ?? false}
              className={`${BUTTON.secondary} disabled:opacity-60`}
            >
              <Search className="size-4" aria-hidden />
              Scan now
            </button>
          ) : undefined
        }
      >
        {!enabled ? (
          <p className="text-sm text-gray-600 dark:text-gray-400">
            Discovery is off. Turn it on to find Proxmox servers on the network automatically.
          </p>
        ) : (
          <div className="flex flex-col gap-3">
            <p
              role="status"
              data-testid="discovery-state"
              className="text-xs text-gray-600 dark:text-gray-400"
            >
              <ScanState status={status} now={now} />
            </p>
            {status && status.errors.length > 0 && (
              <Notice
                tone="warning"
                label="Discovery errors"
                icon={<TriangleAlert className="size-4" aria-hidden />}
              >
                <ul className="list-disc pl-4 text-xs">
                  {status.errors.map((error, index) => (
                    <li key={index}>{error}</li>
                  ))}
                </ul>
              </Notice>
            )}
            {servers.length > 0 ? (
              <ul aria-label={`Discovered ${label} servers`} className="grid gap-2 md:grid-cols-2">
                {servers.map((server) => (
                  <ServerButton
                    key={`${server.ip}:${server.port}`}
                    server={server}
                    onConfigure={onConfigure}
                  />
                ))}
              </ul>
            ) : (
              !status?.scanning && (
                <p className="text-sm text-gray-600 dark:text-gray-400">
                  No new {label} servers found.
                </p>
              )
            )}
          </div>
        )}
      </Card>
    </div>
  )
}
