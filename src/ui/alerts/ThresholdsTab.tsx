import { useCallback, useRef, useState } from 'react'
import { Link } from 'wouter'
import { RoleFieldset } from '../auth/RoleFieldset.tsx'
import { FOCUS_RING } from '../components/button-classes.ts'
import { EmptyState } from '../components/EmptyState.tsx'
import { SearchField } from '../components/SearchField.tsx'
import { BackupsCard } from './BackupsCard.tsx'
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
      <div className="flex flex-wrap items-center justify-between gap-2">
        <SearchField
          inputRef={searchRef}
          label="Search resources"
          placeholder="Search by name, vmid, node or type..."
          value={search}
          onChange={setSearch}
          className="max-w-md flex-1"
        />
        {/* Custom rules are not a tab (spec 001 §2 Routes): reached from here and the palette. */}
        <Link
          href="/alerts/custom-rules"
          className={`text-sm font-medium text-blue-700 hover:underline dark:text-blue-400 ${FOCUS_RING}`}
        >
          Custom rules →
        </Link>
      </div>
      <RoleFieldset needs="admin" what="Changing thresholds">
        <DefaultsCard />
        <BackupsCard />
        <SectionTable section="nodes" search={search} />
        <SectionTable section="pbs" search={search} />
        <GuestThresholdTable search={search} />
        <SectionTable section="storage" search={search} />
      </RoleFieldset>
    </div>
  )
}
