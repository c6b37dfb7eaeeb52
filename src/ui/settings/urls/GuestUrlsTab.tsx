// Settings › Guest URLs (spec 001 §2, §4, §5): search, guests grouped by node with their custom
// URL, validation as the user types, and one batch save. The worker filters and windows the
// guests; the URLs and edits stay here, keyed by guest.
import { Link2 } from 'lucide-react'
import { useCallback, useEffect, useState } from 'react'
import { BUTTON } from '../../components/button-classes.ts'
import { Card } from '../../components/Card.tsx'
import { EmptyState } from '../../components/EmptyState.tsx'
import { SearchField } from '../../components/SearchField.tsx'
import { SAVE_BAR } from '../../components/toast-store.ts'
import { RoleFieldset } from '../../auth/RoleFieldset.tsx'
import { useRole } from '../../auth/useRole.ts'
import { useConnection } from '../../hooks/useConnection.ts'
import { useView } from '../../hooks/useView.ts'
import type { ViewWindow } from '../../../shared/views/guest-view-types.ts'
import { GuestUrlTable } from './GuestUrlTable.tsx'
import { useGuestUrlEdits, type GuestUrlEdits } from './useGuestUrlEdits.ts'

const FIRST_WINDOW: ViewWindow = { start: 0, count: 60 }

export function GuestUrlsTab() {
  const [search, setSearch] = useState('')
  const [viewWindow, setViewWindow] = useState(FIRST_WINDOW)
  const model = useView({ kind: 'guestUrls', search, window: viewWindow })
  const edits = useGuestUrlEdits()
  const onWindowChange = useCallback((next: ViewWindow) => setViewWindow(next), [])
  const connection = useConnection()
  // Until the first load is complete the guests arrive in chunks and rows would move under the
  // user's cursor; once shown, a later reconnect does not take the table (and the edits) away.
  const estateLoaded =
    connection.hadData &&
    !connection.loading &&
    (connection.firstPollDone || (model?.total ?? 0) > 0)
  const [shown, setShown] = useState(false)
  useEffect(() => {
    if (estateLoaded) setShown(true)
  }, [estateLoaded])

  let body
  if (edits.status === 'error') {
    body = (
      <EmptyState
        title="Guest URLs could not be loaded"
        description={edits.loadError}
        actions={
          <button type="button" className={BUTTON.secondary} onClick={edits.reload}>
            Retry
          </button>
        }
      />
    )
  } else if (edits.status === 'loading' || !model || !(shown || estateLoaded)) {
    body = (
      <EmptyState
        live
        title="Loading guest URLs..."
        description={
          connection.loading && connection.guestsExpected > 0
            ? `${connection.guestCount} of ${connection.guestsExpected} guests received`
            : undefined
        }
      />
    )
  } else if (model.rowCount === 0) {
    body = (
      <EmptyState
        live
        title="No guests found"
        description={
          model.total === 0
            ? 'Guests appear here once a Proxmox VE node is added and polled.'
            : `No guest matches "${model.search.trim()}".`
        }
      />
    )
  } else {
    body = (
      <GuestUrlTable
        model={model}
        viewWindow={viewWindow}
        onWindowChange={onWindowChange}
        valueOf={edits.valueOf}
        onChange={edits.setValue}
      />
    )
  }

  return (
    <div className="flex flex-col gap-4">
      <Card
        title="Guest URLs"
        icon={<Link2 className="h-4 w-4" aria-hidden="true" />}
        description="A custom URL makes the guest's name a link on the dashboard."
      >
        <SearchField
          label="Search guests"
          placeholder="Search by name, VMID, node or type"
          value={search}
          onChange={(value) => {
            setSearch(value)
            setViewWindow(FIRST_WINDOW)
          }}
          className="mb-3 max-w-md"
        />
        {model && edits.status === 'ready' && (shown || estateLoaded) && model.total > 0 && (
          <p className="mb-2 text-xs text-gray-500 dark:text-gray-400" aria-live="polite">
            {model.matched === model.total
              ? `${model.total.toLocaleString('en-US')} guests`
              : `${model.matched.toLocaleString('en-US')} of ${model.total.toLocaleString('en-US')} guests`}
          </p>
        )}
        <RoleFieldset needs="admin" what="Changing guest URLs">
          {body}
        </RoleFieldset>
      </Card>
      <SaveFailures edits={edits} />
      <SaveBar edits={edits} />
    </div>
  )
}

/** Spec 001 §4: Save appears only with unsaved changes and no invalid URL. */
function SaveBar({ edits }: { edits: GuestUrlEdits }) {
  // Only an admin saves guest URLs (issue 29 item 6).
  const admin = useRole().can('admin')
  if (edits.changed === 0 || !admin) return null
  return (
    <div
      role="region"
      aria-label="Unsaved changes"
      {...SAVE_BAR}
      className="sticky bottom-0 z-20 flex flex-wrap items-center justify-between gap-2 border-t border-amber-300 bg-amber-50 px-3 py-2 shadow-[0_-2px_6px_rgba(0,0,0,0.08)] sm:px-4 dark:border-amber-700 dark:bg-amber-950"
    >
      <p className="text-sm font-medium text-amber-900 dark:text-amber-100">
        {edits.changed === 1 ? '1 unsaved change' : `${edits.changed} unsaved changes`}
        {edits.invalid > 0 &&
          ` · fix ${edits.invalid === 1 ? 'the invalid URL' : `${edits.invalid} invalid URLs`} to save`}
      </p>
      {edits.invalid === 0 && (
        <button
          type="button"
          className={`${BUTTON.primary} disabled:opacity-60`}
          disabled={edits.saving}
          onClick={() => void edits.save()}
        >
          {edits.saving ? 'Saving...' : 'Save Changes'}
        </button>
      )}
    </div>
  )
}

/** The last save's failures, one per line, with the guest's name where the server named one. */
function SaveFailures({ edits }: { edits: GuestUrlEdits }) {
  if (edits.failures.length === 0) return null
  return (
    <div
      role="alert"
      className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200"
    >
      <p className="font-medium">Guest URLs were not saved:</p>
      <ul className="mt-1 list-disc space-y-0.5 pl-5">
        {edits.failures.map((failure, i) => (
          <li key={i}>
            {failure.guestId !== null ? `${edits.nameOf(failure.guestId)}: ` : ''}
            {failure.text}
          </li>
        ))}
      </ul>
    </div>
  )
}
