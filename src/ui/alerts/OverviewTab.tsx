import { BellOff, CheckCircle2, Loader2 } from 'lucide-react'
import { useCallback, useRef, useState } from 'react'
import type { ViewWindow } from '../../shared/views/guest-view-types.ts'
import { EmptyState } from '../components/EmptyState.tsx'
import { BUTTON } from '../components/button-classes.ts'
import { useConnection } from '../hooks/useConnection.ts'
import { useView } from '../hooks/useView.ts'
import type { AlertsOverviewRow } from '../../shared/views/alerts-overview-types.ts'
import { SearchField } from '../components/SearchField.tsx'
import { AlertList } from './AlertList.tsx'
import {
  BulkBar,
  isSelected,
  NO_SELECTION,
  toggleSelected,
  type AlertSelection,
} from './BulkActions.tsx'
import { NotesDialog } from './NotesDialog.tsx'
import { SilenceDialog } from './SilenceDialog.tsx'
import { SilencesSection, useSilences } from './SilencesSection.tsx'
import { useRole } from '../auth/useRole.ts'
import { useAlertAck } from './useAlertAck.ts'
import { useThresholdKeys } from './useThresholdKeys.ts'
import { useOverviewCounters } from './useOverviewCounters.ts'

const FIRST_WINDOW: ViewWindow = { start: 0, count: 40 }

/** Alerts: overview (spec 001 §2): four counters and the active alerts with acknowledge. */
export function OverviewTab() {
  // Selecting is for acting on alerts: operator and above (issue 29).
  const operate = useRole().can('operator')
  const [showAcknowledged, setShowAcknowledged] = useState(true)
  const [search, setSearch] = useState('')
  const [viewWindow, setViewWindow] = useState(FIRST_WINDOW)
  const [selection, setSelection] = useState<AlertSelection>(NO_SELECTION)
  const onWindowChange = useCallback((next: ViewWindow) => setViewWindow(next), [])
  const model = useView({
    kind: 'alertsOverview',
    showAcknowledged,
    window: viewWindow,
    search,
    // The ids of every matching alert only while "all matching" is selected.
    withIds: selection.all,
  })
  const searchRef = useRef<HTMLInputElement>(null)
  // As on Thresholds and History: typing anywhere filters, Escape clears.
  const clearSearch = useCallback(() => {
    setSearch('')
    setViewWindow(FIRST_WINDOW)
    setSelection(NO_SELECTION)
  }, [])
  useThresholdKeys(searchRef, clearSearch)
  // A new filter is a new set of alerts: what was selected under the old one is dropped.
  const refilter = (apply: () => void) => {
    apply()
    setViewWindow(FIRST_WINDOW)
    setSelection(NO_SELECTION)
  }
  const { hadData } = useConnection()
  const loaded = model !== null && hadData
  // Any alert that fires or ends changes the key, even when the counts stay the same.
  const { last24h, guestOverrides } = useOverviewCounters(
    loaded ? `${model.active}/${model.acknowledged}/${model.occurrences}` : null,
  )
  const { busy, toggle } = useAlertAck()
  const { silences, reload } = useSilences()
  const [silencing, setSilencing] = useState<AlertsOverviewRow | null>(null)
  const [noting, setNoting] = useState<AlertsOverviewRow | null>(null)
  const total = model ? model.active + model.acknowledged : 0

  return (
    <div className="flex flex-col gap-4 p-3 sm:p-4">
      <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        {/* Every active alert, as the list (acknowledged shown) and GET /api/alerts/active
            count them; Acknowledged is the part of them someone has taken. */}
        <Counter label="Active Alerts" value={loaded ? total : null} tone="red" />
        <Counter label="Acknowledged" value={loaded ? model.acknowledged : null} tone="blue" />
        <Counter label="Last 24 Hours" value={last24h} tone="gray" />
        <Counter label="Guest Overrides" value={guestOverrides} tone="gray" />
      </dl>
      <SilencesSection silences={silences} reload={reload} />
      <section aria-labelledby="active-alerts-title" className="flex min-h-0 flex-col gap-2">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2
            id="active-alerts-title"
            className="text-sm font-semibold text-gray-900 dark:text-gray-100"
          >
            Active Alerts
          </h2>
          <div className="flex flex-wrap items-center gap-2">
            <SearchField
              inputRef={searchRef}
              label="Filter alerts"
              placeholder="Filter: resource, node, type..."
              value={search}
              onChange={(next) => refilter(() => setSearch(next))}
              className="w-72 max-w-full"
            />
            <button
              type="button"
              aria-pressed={showAcknowledged}
              onClick={() => refilter(() => setShowAcknowledged((shown) => !shown))}
              className={`${BUTTON.secondary} px-2 py-1 text-xs`}
            >
              {showAcknowledged ? 'Hide acknowledged' : 'Show acknowledged'}
            </button>
          </div>
        </div>
        {loaded && operate && model.rowCount > 0 && (
          // On a phone the list has no header row: its select-all checkbox is here instead.
          <label className="flex items-center gap-2 text-sm sm:hidden">
            <input
              type="checkbox"
              className="size-4 accent-blue-600"
              checked={selection.all && selection.except.size === 0}
              onChange={(event) =>
                setSelection(
                  event.target.checked
                    ? { all: true, ids: new Set(), except: new Set() }
                    : NO_SELECTION,
                )
              }
            />
            Select all {model.rowCount.toLocaleString('en')} matching
          </label>
        )}
        {loaded && <BulkBar model={model} selection={selection} onSelection={setSelection} />}
        {!loaded ? (
          <EmptyState
            live
            icon={<Loader2 className="size-6 animate-spin" aria-hidden />}
            title="Loading alerts..."
          />
        ) : total === 0 ? (
          <EmptyState
            icon={<CheckCircle2 className="size-8 text-emerald-500" aria-hidden />}
            title="No active alerts"
            description="Alerts will appear here when thresholds are exceeded"
          />
        ) : model.rowCount === 0 ? (
          <EmptyState
            icon={<BellOff className="size-8" aria-hidden />}
            title={search.trim() ? 'No alerts match the filter' : 'No unacknowledged alerts'}
          />
        ) : (
          <AlertList
            model={model}
            viewWindow={viewWindow}
            onWindowChange={onWindowChange}
            busy={busy}
            onToggle={toggle}
            onSilence={setSilencing}
            onNotes={setNoting}
            isSelected={(id) => isSelected(selection, id)}
            onSelect={(id) => setSelection((current) => toggleSelected(current, id))}
            allSelected={selection.all && selection.except.size === 0}
            onSelectAll={(all) =>
              setSelection(all ? { all: true, ids: new Set(), except: new Set() } : NO_SELECTION)
            }
          />
        )}
      </section>
      {noting && <NotesDialog key={noting.id} alert={noting} onClose={() => setNoting(null)} />}
      {silencing && (
        <SilenceDialog alert={silencing} onClose={() => setSilencing(null)} onCreated={reload} />
      )}
    </div>
  )
}

const TONE = {
  red: 'text-red-600 dark:text-red-400',
  blue: 'text-blue-600 dark:text-blue-400',
  gray: 'text-gray-900 dark:text-gray-100',
} as const

function Counter({
  label,
  value,
  tone,
}: {
  label: string
  value: number | null
  tone: keyof typeof TONE
}) {
  return (
    <div className="rounded-lg border border-gray-200 bg-white px-4 py-3 dark:border-gray-800 dark:bg-gray-900">
      <dt className="text-xs font-medium text-gray-600 dark:text-gray-400">{label}</dt>
      <dd className={`mt-1 text-2xl font-semibold tabular-nums ${TONE[tone]}`}>
        {value === null ? '–' : value.toLocaleString('en')}
      </dd>
    </div>
  )
}
