// The details block of a resource page (issue 25): the same formatted rows the tables show
// (guest row and its detail panel, node summary row, storage pool row, datastore row), laid out
// as labelled facts and usage bars.
import type { ReactNode } from 'react'
import { Link } from 'wouter'
import { resourcePagePath } from '../../shared/model/history.ts'
import type { DatastoreRow, ResourceViewModel } from '../../shared/views/resource-types.ts'
import { UsageWithForecast, type UsageWithForecastRow } from '../components/ForecastNote.tsx'
import { UsageBar } from '../components/UsageBar.tsx'
import { GuestDetailPanel } from '../dashboard/GuestDetailPanel.tsx'
import { PageLink } from './PageLink.tsx'

/** Details of the resource in `model` (whichever kind it is). */
export function ResourceDetails({ model }: { model: ResourceViewModel }) {
  const { guest, node, storage, datastore } = model
  return (
    <section
      aria-label="Details"
      className="space-y-2 rounded-md border border-gray-200 bg-white p-3 text-sm dark:border-gray-800 dark:bg-gray-900"
    >
      {guest && (
        <>
          <Facts>
            <MetricBars row={guest} unavailable={guest.diskReason} />
            <Fact label="Uptime" value={guest.uptimeText} />
            <Fact
              label="Disk read / write"
              value={`${guest.diskReadText} / ${guest.diskWriteText}`}
            />
            <Fact label="Net in / out" value={`${guest.networkInText} / ${guest.networkOutText}`} />
            {guest.tags.length > 0 && <Fact label="Tags" value={guest.tags.join(', ')} />}
          </Facts>
          {guest.detail && (
            <GuestDetailPanel
              id="resource-guest-detail"
              resourceId={guest.id}
              history={false}
              alerts={false}
              name={guest.name}
              detail={guest.detail}
              active={guest.active}
            />
          )}
        </>
      )}
      {node && (
        <Facts>
          <MetricBars row={node} />
          <Fact label="Uptime" value={node.uptimeText} />
          {node.badges.version && <Fact label="Version" value={node.badges.version} />}
          {node.temperature !== null && <Fact label="Temperature" value={node.temperatureText} />}
          <Fact
            label="Web interface"
            value={
              <a
                href={node.href}
                target="_blank"
                rel="noopener noreferrer"
                className="text-blue-700 hover:underline dark:text-blue-300"
              >
                {node.href}
              </a>
            }
          />
        </Facts>
      )}
      {storage && (
        <Facts>
          <UsageFacts row={storage} />
          <Fact label="Free" value={storage.freeText} />
          <Fact label="Type" value={storage.type} />
          <Fact label="Content" value={storage.content || '-'} />
          <Fact label="Shared" value={storage.shared ? 'Yes' : 'No'} />
        </Facts>
      )}
      {datastore && <DatastoreFacts row={datastore} />}
      {model.datastores.length > 0 && (
        <div className="space-y-1">
          <h2 className="text-xs font-semibold text-gray-500 uppercase dark:text-gray-400">
            Datastores
          </h2>
          <ul className="divide-y divide-gray-100 dark:divide-gray-800">
            {model.datastores.map((row) => (
              <li key={row.id} className="flex flex-wrap items-center gap-2 py-1.5">
                <span className="w-32 truncate font-medium">{row.name}</span>
                <PageLink
                  href={resourcePagePath('datastore', row.id)}
                  label={`Open the page of datastore ${row.name}`}
                />
                <div className="min-w-48 flex-1">
                  <UsageWithForecast row={row} />
                </div>
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  )
}

function DatastoreFacts({ row }: { row: DatastoreRow }) {
  return (
    <Facts>
      <UsageFacts row={row} />
      <Fact
        label="Backup server"
        value={
          <Link
            href={resourcePagePath('pbs', row.pbsId)}
            className="text-blue-700 hover:underline dark:text-blue-300"
          >
            {row.pbsName}
          </Link>
        }
      />
    </Facts>
  )
}

/** What a guest row and a node summary row carry for their three bars. */
interface MetricRow {
  cpuPercent: number
  cpuText: string
  memoryPercent: number
  memoryText: string
  memoryDetail?: string
  diskPercent: number
  diskText: string
  diskDetail?: string
}

/** CPU, memory and disk bars as the tables draw them; '-' (or `unavailable`) below 0. */
function MetricBars({ row, unavailable }: { row: MetricRow; unavailable?: string }) {
  return (
    <>
      {(['cpu', 'memory', 'disk'] as const).map((kind) => {
        const percent = row[`${kind}Percent`]
        const label = kind === 'cpu' ? 'CPU' : kind === 'memory' ? 'Memory' : 'Disk'
        return (
          <Bar key={kind} label={label}>
            {percent >= 0 ? (
              <UsageBar
                kind={kind}
                label={label}
                percent={percent}
                text={row[`${kind}Text`]}
                title={kind === 'cpu' ? undefined : row[`${kind}Detail`] || undefined}
              />
            ) : (
              <span className="text-gray-500">{unavailable ?? '-'}</span>
            )}
          </Bar>
        )
      })}
    </>
  )
}

/** The usage bar (with its forecast) and 'used / total' of a storage or datastore. */
function UsageFacts({ row }: { row: UsageWithForecastRow }) {
  return (
    <>
      <Bar label="Usage">
        <UsageWithForecast row={row} />
      </Bar>
      <Fact label="Used / total" value={row.usageDetail} />
    </>
  )
}

function Facts({ children }: { children: ReactNode }) {
  return (
    <dl className="grid grid-cols-1 gap-x-6 gap-y-2 sm:grid-cols-2 xl:grid-cols-3">{children}</dl>
  )
}

function Fact({ label, value }: { label: string; value: ReactNode }) {
  return (
    <div className="flex min-w-0 items-baseline gap-2">
      <dt className="shrink-0 text-gray-500 dark:text-gray-400">{label}</dt>
      <dd className="ml-auto min-w-0 truncate text-right tabular-nums">{value}</dd>
    </div>
  )
}

function Bar({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex min-w-0 items-center gap-2">
      <dt className="w-16 shrink-0 text-gray-500 dark:text-gray-400">{label}</dt>
      <dd className="min-w-0 flex-1">{children}</dd>
    </div>
  )
}
