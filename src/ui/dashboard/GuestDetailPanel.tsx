import type { ReactNode } from 'react'
import type { GuestDetail } from '../../shared/views/guest-detail.ts'
import { barClass } from '../components/colours.ts'
import { HistoryPanel } from '../history/HistoryPanel.tsx'
import { PageLink } from '../resource/PageLink.tsx'
import { GuestBackupSummary } from '../backups/GuestBackupSummary.tsx'
import { GuestActiveAlerts } from './GuestActiveAlerts.tsx'

interface Props {
  id: string
  /** The guest's id for its metrics history (issue 25). */
  resourceId: string
  name: string
  detail: GuestDetail
  /** Inactive guests get a dimmed panel (spec 000 §4). */
  active: boolean
  /** The guest's own page (issue 25); the panel links to it. */
  pageHref?: string
  /** Draw the history charts (default); the guest's page draws its own, full size. */
  history?: boolean
  /** List the active alerts with Acknowledge (default); the guest's page lists its own. */
  alerts?: boolean
}

/** The expanded detail of a guest row (spec 000 §2.2); every text comes formatted from the worker. */
export function GuestDetailPanel(props: Props) {
  const { id, resourceId, name, detail, active, pageHref, history = true, alerts = true } = props
  const { os, ipAddresses, memory, filesystems, interfaces, diskReason } = detail
  return (
    <div
      id={id}
      role="region"
      aria-label={`Details of ${name}`}
      data-active={active}
      className={`grid gap-2 px-3 py-2 text-xs sm:grid-cols-2 xl:grid-cols-4 ${active ? '' : 'opacity-50'}`}
    >
      {(os || ipAddresses.length > 0) && (
        <Section title="Guest Overview">
          {os && <Line label="OS" text={os} />}
          {ipAddresses.length > 0 && (
            <div className="flex flex-wrap gap-1">
              {ipAddresses.map((ip) => (
                <Chip key={ip}>{ip}</Chip>
              ))}
            </div>
          )}
        </Section>
      )}
      {memory.length > 0 && (
        <Section title="Memory">
          {memory.map((line) => (
            <Line key={line.label} label={line.label} text={line.text} />
          ))}
        </Section>
      )}
      {filesystems.length > 0 && (
        <Section title="Filesystems">
          {filesystems.map((fs, i) => (
            <div key={`${fs.mountpoint}-${i}`} className="space-y-0.5">
              <div className="flex items-baseline gap-2">
                <span className="truncate font-medium" title={fs.mountpoint}>
                  {fs.mountpoint}
                </span>
                {fs.type && <span className="text-gray-500 dark:text-gray-400">{fs.type}</span>}
                <span className="ml-auto tabular-nums">
                  {fs.usedText} ({fs.percentText})
                </span>
              </div>
              <div
                className="h-1.5 overflow-hidden rounded bg-gray-200 dark:bg-gray-700"
                role="meter"
                aria-label={`${fs.mountpoint} usage`}
                aria-valuemin={0}
                aria-valuemax={100}
                aria-valuenow={Math.round(fs.percent)}
              >
                {/* Guest disk panel bars use the disk thresholds, 80/90 (spec 000 §9). */}
                <div
                  className={`h-full ${barClass('disk', fs.percent)}`}
                  style={{ width: `${fs.percent}%` }}
                />
              </div>
            </div>
          ))}
        </Section>
      )}
      {interfaces.length > 0 && (
        <Section title="Network Interfaces">
          {interfaces.map((nic, i) => (
            <div key={`${nic.name}-${i}`} className="space-y-0.5">
              <div className="flex items-baseline gap-2">
                <span className="font-medium">{nic.name}</span>
                {nic.mac && (
                  <span className="font-mono text-[11px] text-gray-500 dark:text-gray-400">
                    {nic.mac}
                  </span>
                )}
              </div>
              {nic.addresses.length > 0 && (
                <div className="flex flex-wrap gap-1">
                  {nic.addresses.map((address) => (
                    <Chip key={address}>{address}</Chip>
                  ))}
                </div>
              )}
              <div
                className="text-gray-500 tabular-nums dark:text-gray-400"
                title="Totals since boot"
              >
                RX {nic.rxText} · TX {nic.txText}
              </div>
            </div>
          ))}
        </Section>
      )}
      {alerts && <GuestActiveAlerts guestId={resourceId} />}
      <Section title="Backup">
        <GuestBackupSummary guestId={resourceId} />
      </Section>
      {diskReason && (
        <Section title="Disk">
          <p className="text-amber-700 dark:text-amber-300">{diskReason}</p>
        </Section>
      )}
      {/* The table scrolls sideways on a phone: the charts stay in view, as wide as the screen. */}
      {history && (
        <div className="sticky left-3 min-w-0 max-sm:max-w-[calc(100vw-2.5rem)] sm:col-span-2 xl:col-span-4">
          {pageHref && (
            <div className="mb-1 flex justify-end">
              <PageLink
                href={pageHref}
                label={`Open the page of ${name}`}
                text="Page with history, alerts and backups"
              />
            </div>
          )}
          <HistoryPanel resourceId={resourceId} kind="guest" title={name} compact />
        </div>
      )}
    </div>
  )
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="min-w-0 space-y-1 rounded border border-gray-200 bg-white p-2 dark:border-gray-700 dark:bg-gray-900">
      <h3 className="text-[11px] font-semibold tracking-wide text-gray-500 uppercase dark:text-gray-400">
        {title}
      </h3>
      {children}
    </section>
  )
}

function Line({ label, text }: { label: string; text: string }) {
  return (
    <div className="flex gap-2">
      <span className="text-gray-500 dark:text-gray-400">{label}</span>
      <span className="ml-auto text-right tabular-nums">{text}</span>
    </div>
  )
}

function Chip({ children }: { children: ReactNode }) {
  return (
    <span className="rounded bg-gray-100 px-1.5 py-0.5 font-mono text-[11px] dark:bg-gray-800">
      {children}
    </span>
  )
}
