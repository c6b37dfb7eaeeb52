import { AlertTriangle, Frame, Globe, History, Radar } from 'lucide-react'
import { FOCUS_RING } from '../../components/button-classes.ts'
import { Card } from '../../components/Card.tsx'
import { Switch } from '../../components/Switch.tsx'
import { TextField } from '../../components/TextField.tsx'
import { Notice } from '../security/fields.tsx'
import { ENV_OVERRIDE_LINES, type SystemForm } from './system-api.ts'
import {
  HISTORY_BYTES_PER_GUEST_HOUR,
  HISTORY_RETENTION_MAX,
  HISTORY_RETENTION_MIN,
} from '../../../shared/model/history-retention.ts'

export interface CardProps {
  form: SystemForm
  set: (patch: Partial<SystemForm>) => void
  /** Fields fixed by environment variables. */
  fixed: ReadonlySet<keyof SystemForm>
  /** Saving or about to reload: nothing is editable. */
  locked: boolean
}

/** Allowed origins for the live socket (spec 001 §2 System tab). */
export function OriginsCard({ form, set, fixed, locked }: CardProps) {
  const overridden = fixed.has('allowedOrigins')
  return (
    <Card
      title="Network access"
      icon={<Globe className="size-4" aria-hidden />}
      description="Which other web origins may open the live connection. Applies as soon as you save."
    >
      <div className="flex flex-col gap-3">
        <TextField
          id="system-allowed-origins"
          label="Allowed origins"
          value={form.allowedOrigins}
          placeholder="Same host only"
          disabled={overridden || locked}
          autoComplete="off"
          spellCheck={false}
          // With the override the warning explains the disabled field.
          // (an undefined prop would unlink the hint, so it is only passed with the override).
          {...(overridden ? { 'aria-describedby': 'system-allowed-origins-env' } : {})}
          onChange={(event) => set({ allowedOrigins: event.target.value })}
          hint={
            overridden
              ? undefined
              : 'Comma-separated, e.g. https://dash.example.com. Empty: only this address. * allows any origin.'
          }
        />
        {overridden && (
          <Notice
            tone="warning"
            label="Allowed origins are set by the environment"
            icon={<AlertTriangle className="size-4" aria-hidden />}
          >
            <div id="system-allowed-origins-env">
              <p className="font-medium">{ENV_OVERRIDE_LINES[0]}</p>
              <p>{ENV_OVERRIDE_LINES[1]}</p>
            </div>
          </Notice>
        )}
      </div>
    </Card>
  )
}

/** Embedding in other pages (frame-ancestors / X-Frame-Options). */
export function EmbeddingCard({ form, set, fixed, locked }: CardProps) {
  const overridden = fixed.has('allowEmbedding')
  const disabled = overridden || locked
  return (
    <Card
      title="Embedding"
      icon={<Frame className="size-4" aria-hidden />}
      description="Whether dashboards such as Homepage or Organizr may show Pulse in a frame. Applies as soon as you save."
    >
      <div className="flex flex-col gap-3">
        <label className="flex items-start gap-2 text-sm text-gray-800 dark:text-gray-200">
          <input
            type="checkbox"
            className={`mt-0.5 size-4 rounded border-gray-300 accent-blue-600 disabled:opacity-60 dark:border-gray-600 ${FOCUS_RING}`}
            checked={form.allowEmbedding}
            disabled={disabled}
            onChange={(event) => set({ allowEmbedding: event.target.checked })}
          />
          <span>
            Allow embedding
            <span className="block text-xs text-gray-600 dark:text-gray-400">
              Off: no page may frame Pulse. On: this address and the embed origins listed in this
              card may.
            </span>
          </span>
        </label>
        {form.allowEmbedding && (
          <TextField
            id="system-embed-origins"
            label="Allowed embed origins"
            value={form.allowedEmbedOrigins}
            placeholder="https://homepage.example.com"
            disabled={disabled}
            autoComplete="off"
            spellCheck={false}
            onChange={(event) => set({ allowedEmbedOrigins: event.target.value })}
            hint="Comma-separated origins allowed to frame Pulse besides this address."
          />
        )}
        {overridden && (
          <Notice tone="warning" icon={<AlertTriangle className="size-4" aria-hidden />}>
            Set by ALLOW_EMBEDDING / ALLOWED_EMBED_ORIGINS environment variables. Remove them and
            restart to configure embedding here.
          </Notice>
        )}
      </div>
    </Card>
  )
}

/** Network discovery of Proxmox servers (the same switch as on the PVE tab). */
export function DiscoveryCard({ form, set, fixed, locked }: CardProps) {
  const overridden = fixed.has('discoveryEnabled')
  return (
    <Card
      title="Discovery"
      icon={<Radar className="size-4" aria-hidden />}
      description="Scan the network for Proxmox VE and Backup servers to add."
    >
      <div className="flex flex-col gap-3">
        <div className="flex items-center justify-between gap-3">
          <label htmlFor="system-discovery" className="text-sm text-gray-800 dark:text-gray-200">
            Enable discovery
          </label>
          <Switch
            id="system-discovery"
            checked={form.discoveryEnabled}
            disabled={overridden || locked}
            onChange={(discoveryEnabled) => set({ discoveryEnabled })}
          />
        </div>
        <TextField
          id="system-discovery-subnet"
          label="Subnet to scan"
          value={form.discoverySubnet}
          placeholder="auto"
          disabled={fixed.has('discoverySubnet') || locked}
          autoComplete="off"
          spellCheck={false}
          onChange={(event) => set({ discoverySubnet: event.target.value })}
          hint='"auto", or a subnet such as 192.168.1.0/24 (at most a /22).'
        />
      </div>
    </Card>
  )
}

/** The memory hint under the retention field, for the minutes typed. */
export function retentionCostHint(text: string): string {
  const minutes = Number(text)
  const valid = Number.isInteger(minutes) && minutes > 0
  const perTenThousand = (HISTORY_BYTES_PER_GUEST_HOUR * 10_000 * (valid ? minutes : 60)) / 60
  const mb = Math.round(perTenThousand / 2 ** 20)
  return valid
    ? `Kept in memory: about ${mb} MB per 10,000 guests at ${minutes} minutes (${HISTORY_RETENTION_MIN} to ${HISTORY_RETENTION_MAX}).`
    : `${HISTORY_RETENTION_MIN} to ${HISTORY_RETENTION_MAX} minutes; about ${mb} MB per 10,000 guests at 60.`
}

/** How long the server keeps its own recent metrics history (issue 25). */
export function HistoryCard({ form, set, fixed, locked }: CardProps) {
  const overridden = fixed.has('historyRetentionMinutes')
  return (
    <Card
      title="Metrics history"
      icon={<History className="size-4" aria-hidden />}
      description="The server keeps per-minute points of every resource for the recent charts and trends; longer ranges come from Proxmox."
    >
      <div className="flex flex-col gap-3">
        <TextField
          id="system-history-retention"
          label="Keep recent history (minutes)"
          type="number"
          inputMode="numeric"
          min={HISTORY_RETENTION_MIN}
          max={HISTORY_RETENTION_MAX}
          step={1}
          value={form.historyRetentionMinutes}
          disabled={overridden || locked}
          onChange={(event) => set({ historyRetentionMinutes: event.target.value })}
          hint={retentionCostHint(form.historyRetentionMinutes)}
        />
        {overridden && (
          <Notice tone="warning" icon={<AlertTriangle className="size-4" aria-hidden />}>
            Set by the HISTORY_RETENTION_MINUTES environment variable. Remove it and restart to
            configure the retention here.
          </Notice>
        )}
      </div>
    </Card>
  )
}
