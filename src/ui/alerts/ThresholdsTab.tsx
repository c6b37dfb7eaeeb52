import { Search, X } from 'lucide-react'
import { useCallback, useRef, useState } from 'react'
import { FOCUS_RING } from '../components/button-classes.ts'
import { EmptyState } from '../components/EmptyState.tsx'
import { DefaultsCard } from './DefaultsCard.tsx'
import { GuestThresholdTable, SectionTable } from './ThresholdTables.tsx'
import { useAlertConfigLoad, useAlertConfigToWorker } from './useAlertConfig.ts'
import { useThresholdKeys } from './useThresholdKeys.ts'

/**
 * Alerts: thresholds (spec 001 §2): search, the global defaults and the four tables. Edits change
 * the working config only; the unsaved-changes bar writes it to the server.
 */
export function ThresholdsTab() {
  const { ready, loadError } = useAlertConfigLoad()
  useAlertConfigToWorker()
  const [search, setSearch] = useState('')
  const searchRef = useRef<HTMLInputElement>(null)
  const clearSearch = useCallback(() => setSearch(''), [])
  useThresholdKeys(searchRef, clearSearch)

  if (!ready) {
    return loadError ? (
      <EmptyState title="Failed to load alert configuration" description={loadError} live />
    ) : (
      <EmptyState title="Loading alert configuration..." live />
    )
  }
  return (
    <div className="flex flex-col gap-4 p-3 sm:p-4">
      <div className="relative max-w-md">
        <Search
          className="pointer-events-none absolute top-1/2 left-2 size-4 -translate-y-1/2 text-gray-400"
          aria-hidden
        />
        <input
          ref={searchRef}
          type="search"
          aria-label="Search resources"
          placeholder="Search by name, vmid, node or type..."
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          className={`w-full rounded-md border border-gray-300 bg-white py-1.5 pr-7 pl-8 text-sm placeholder:text-gray-400 dark:border-gray-600 dark:bg-gray-800 ${FOCUS_RING}`}
        />
        {search && (
          <button
            type="button"
            aria-label="Clear search"
            onClick={() => {
              setSearch('')
              searchRef.current?.focus()
            }}
            className={`absolute top-1/2 right-1.5 -translate-y-1/2 rounded p-0.5 text-gray-400 hover:text-gray-700 dark:hover:text-gray-200 ${FOCUS_RING}`}
          >
            <X className="size-3.5" aria-hidden />
          </button>
        )}
      </div>
      <DefaultsCard />
      <SectionTable section="nodes" search={search} />
      <SectionTable section="pbs" search={search} />
      <GuestThresholdTable search={search} />
      <SectionTable section="storage" search={search} />
    </div>
  )
}
