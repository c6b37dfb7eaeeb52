// A page per resource (issue 25): /guests/:id, /nodes/:id, /storage/:id (PVE storage or PBS
// datastore `${pbsId}:${store}`), /pbs/:id. Header, details, charts, alerts and, for a guest,
// its backups. Opens straight from its URL: loading until the live data is here, then the
// resource or "not found". `?at=<unix s>` (notification links) marks that moment on the charts.
import { ArrowLeft } from 'lucide-react'
import { Link, useSearch } from 'wouter'
import type { HistoryResourceKind } from '../../shared/model/history.ts'
import type { ResourceViewModel } from '../../shared/views/resource-types.ts'
import { EmptyState } from '../components/EmptyState.tsx'
import { BUTTON, FOCUS_RING } from '../components/button-classes.ts'
import { HistoryPanel } from '../history/HistoryPanel.tsx'
import { useView } from '../hooks/useView.ts'
import { GuestBackups } from './GuestBackups.tsx'
import { ResourceDetails } from './ResourceDetails.tsx'
import { ActiveAlerts, AlertHistory, useResourceAlertHistory } from './ResourceAlerts.tsx'

/** What the route gives: the section's kind ('storage' may be a PBS datastore) and the id. */
export interface ResourcePageProps {
  kind: 'guest' | 'node' | 'storage' | 'pbs'
  id: string
}

/** Where the back link goes, by kind. */
const BACK: Record<HistoryResourceKind, { href: string; label: string }> = {
  guest: { href: '/', label: 'Main' },
  node: { href: '/', label: 'Main' },
  storage: { href: '/storage', label: 'Storage' },
  pbs: { href: '/backups', label: 'Backups' },
  datastore: { href: '/backups', label: 'Backups' },
}

/** `?at=` as unix seconds, when it is a sane one. */
export function atFromSearch(search: string): number | undefined {
  const raw = new URLSearchParams(search).get('at')
  if (raw === null || !/^\d{1,12}$/.test(raw)) return undefined
  const at = Number(raw)
  return at > 0 ? at : undefined
}

/**
 * The history kind of a page: on /storage/ an id with a ':' is a PBS datastore (PVE storage ids
 * are `${instance}-${node}-${name}` and a storage name cannot hold ':').
 */
export function pageResourceKind(kind: ResourcePageProps['kind'], id: string): HistoryResourceKind {
  return kind === 'storage' && id.includes(':') ? 'datastore' : kind
}

/** The resource page of `kind` and `id`. */
export function ResourcePage(props: ResourcePageProps) {
  const kind = pageResourceKind(props.kind, props.id)
  const { id } = props
  const atSec = atFromSearch(useSearch())
  const model = useView({ kind: 'resource', resourceKind: kind, id })
  const back = BACK[kind]
  if (!model || model.status === 'loading') {
    return (
      <EmptyState live title="Loading…" description="Waiting for the live data of this resource." />
    )
  }
  if (model.status === 'notFound') {
    return (
      <EmptyState
        title="Resource not found"
        description={`Nothing called “${id}” is being monitored now. It may have been removed or renamed.`}
        actions={
          <Link href={back.href} className={BUTTON.primary}>
            Back to {back.label}
          </Link>
        }
      />
    )
  }
  return <Found model={model} kind={kind} id={id} atSec={atSec} back={back} />
}

interface FoundProps {
  model: ResourceViewModel
  kind: HistoryResourceKind
  id: string
  atSec: number | undefined
  back: { href: string; label: string }
}

function Found({ model, kind, id, atSec, back }: FoundProps) {
  const history = useResourceAlertHistory(id)
  const header = model.header!
  return (
    <article
      aria-labelledby="resource-title"
      className="mx-auto w-full max-w-screen-2xl space-y-3 p-2 sm:p-3"
    >
      <header className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <Link
          href={back.href}
          aria-label={`Back to ${back.label}`}
          className={`inline-flex items-center gap-1 rounded text-sm text-blue-700 hover:underline dark:text-blue-300 ${FOCUS_RING}`}
        >
          <ArrowLeft aria-hidden className="size-4" />
          {back.label}
        </Link>
        <h1
          id="resource-title"
          className="min-w-0 truncate text-lg font-semibold text-gray-900 dark:text-gray-100"
        >
          {header.name}
        </h1>
        <span className="rounded bg-gray-100 px-1.5 py-0.5 text-xs font-medium text-gray-700 dark:bg-gray-800 dark:text-gray-300">
          {header.typeLabel}
        </span>
        <span className="inline-flex items-center gap-1 text-sm text-gray-700 dark:text-gray-300">
          <span
            aria-hidden
            className={`size-2 rounded-full ${header.up ? 'bg-emerald-500' : 'bg-gray-400'}`}
          />
          {header.status}
        </span>
        {header.place && (
          <span className="text-sm text-gray-500 dark:text-gray-400">{header.place}</span>
        )}
      </header>
      <ResourceDetails model={model} />
      <section
        aria-label="Metrics history"
        className="rounded-md border border-gray-200 bg-white p-2 dark:border-gray-800 dark:bg-gray-900"
      >
        <HistoryPanel
          key={`${kind}:${id}`}
          resourceId={id}
          title={header.name}
          kind={kind}
          atSec={atSec}
          bands={history.bands}
        />
      </section>
      <ActiveAlerts rows={model.alerts} />
      <AlertHistory model={history.model} />
      {model.guest && <GuestBackups guest={model.guest} />}
    </article>
  )
}
