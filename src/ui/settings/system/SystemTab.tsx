import { Loader2 } from 'lucide-react'
import { useCallback, useEffect, useState } from 'react'
import { ErrorPanel } from '../../auth/AuthCard.tsx'
import { RoleFieldset } from '../../auth/RoleFieldset.tsx'
import { useRole } from '../../auth/useRole.ts'
import { BUTTON } from '../../components/button-classes.ts'
import { showToast } from '../../components/toast-store.ts'
import { pageNavigation, reloadSoon } from '../../lib/navigation.ts'
import { BackupRestoreCards } from './BackupRestoreCards.tsx'
import { SaveBar } from './SaveBar.tsx'
import { DiscoveryCard, EmbeddingCard, HistoryCard, OriginsCard } from './SystemCards.tsx'
import {
  SAVED_TEXT,
  SAVE_FAILED_TEXT,
  SAVE_RELOAD_MS,
  formChanged,
  loadSystemSettings,
  saveSystemSettings,
  type LoadedSystemSettings,
  type SystemForm,
} from './system-api.ts'
import { VersionCard } from './VersionCard.tsx'

/** The input of each field the server may name in a refusal. */
const FIELD_INPUTS: Partial<Record<string, string>> = {
  allowedOrigins: 'system-allowed-origins',
  allowedEmbedOrigins: 'system-embed-origins',
  discoverySubnet: 'system-discovery-subnet',
  updateChannel: 'system-update-channel',
  autoUpdateCheckInterval: 'system-update-interval',
  autoUpdateTime: 'system-update-time',
  historyRetentionMinutes: 'system-history-retention',
}

type Load =
  | { kind: 'loading' }
  | { kind: 'error'; message: string }
  | { kind: 'loaded'; settings: LoadedSystemSettings }

const reason = (error: unknown) => (error instanceof Error ? error.message : String(error))

/**
 * Settings > System (spec 001 §2 System tab, §4 System settings): allowed origins, embedding and
 * discovery, version and updates, backup and restore, with a save bar. A save applies on the server at once, then the page reloads after
 * 3 s so every open view starts from the saved settings.
 */
export function SystemTab() {
  const [load, setLoad] = useState<Load>({ kind: 'loading' })
  const fetchSettings = useCallback(() => {
    setLoad({ kind: 'loading' })
    loadSystemSettings()
      .then((settings) => setLoad({ kind: 'loaded', settings }))
      .catch((error: unknown) => setLoad({ kind: 'error', message: reason(error) }))
  }, [])
  useEffect(fetchSettings, [fetchSettings])

  return (
    <div className="flex flex-col gap-4">
      {load.kind === 'loading' && (
        <p
          role="status"
          className="flex items-center gap-2 px-1 text-sm text-gray-600 dark:text-gray-400"
        >
          <Loader2 className="size-4 animate-spin" aria-hidden />
          Loading system settings...
        </p>
      )}
      {load.kind === 'error' && (
        <div className="flex flex-col items-start gap-2">
          <ErrorPanel>Failed to load system settings: {load.message}</ErrorPanel>
          <button type="button" onClick={fetchSettings} className={BUTTON.secondary}>
            Try again
          </button>
        </div>
      )}
      {load.kind === 'loaded' && (
        <RoleFieldset needs="admin" what="Changing system settings">
          <SystemFormView loaded={load.settings} />
        </RoleFieldset>
      )}
    </div>
  )
}

function SystemFormView({ loaded }: { loaded: LoadedSystemSettings }) {
  // Only an admin saves (issue 29 item 6): others get no save bar.
  const admin = useRole().can('admin')
  const [form, setForm] = useState<SystemForm>(loaded.form)
  const [saving, setSaving] = useState(false)
  const [reloading, setReloading] = useState(false)
  const [error, setError] = useState('')
  const [focusField, setFocusField] = useState('')
  const changed = formChanged(form, loaded.form)
  const locked = saving || reloading
  const set = (patch: Partial<SystemForm>) => setForm((old) => ({ ...old, ...patch }))
  const props = { form, set, fixed: loaded.envOverrides, locked }
  useEffect(() => {
    if (!focusField || saving) return
    document.getElementById(focusField)?.focus()
    setFocusField('')
  }, [focusField, saving])

  const save = async () => {
    if (locked || !changed) return
    setSaving(true)
    setError('')
    try {
      await saveSystemSettings(form, loaded.envOverrides)
      showToast(SAVED_TEXT, 'success')
      setReloading(true)
      reloadSoon(SAVE_RELOAD_MS)
    } catch (err) {
      showToast(SAVE_FAILED_TEXT, 'error')
      const message = reason(err)
      setError(message)
      // The server names the bad field first: take the user (and the keyboard) to it once the
      // form is editable again.
      setFocusField(FIELD_INPUTS[message.split(':')[0] ?? ''] ?? '')
    } finally {
      setSaving(false)
    }
  }

  return (
    <>
      <div className="grid grid-cols-1 gap-4 xl:grid-cols-2">
        <OriginsCard {...props} />
        <EmbeddingCard {...props} />
        <DiscoveryCard {...props} />
        <HistoryCard {...props} />
        <VersionCard {...props} />
        <BackupRestoreCards />
      </div>
      {admin && (
        <SaveBar
          changed={changed}
          saving={saving}
          reloading={reloading}
          onSave={() => void save()}
          onDiscard={() => pageNavigation.reload()}
          error={error && `${SAVE_FAILED_TEXT}: ${error}`}
        />
      )}
    </>
  )
}
