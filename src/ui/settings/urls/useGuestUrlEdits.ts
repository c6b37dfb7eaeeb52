// The Guest URLs tab's working state (spec 001 §4 Guest URLs): the stored URLs, the user's edits
// (only the guests touched, so 100,000 guests cost nothing until edited), and the save.
import { useCallback, useEffect, useMemo, useState } from 'react'
import { HttpError } from '../../api/http.ts'
import { showToast } from '../../components/toast-store.ts'
import type { GuestUrlRow } from '../../../shared/views/guest-urls-types.ts'
import {
  loadSavedUrls,
  parseSaveFailures,
  saveGuestUrls,
  type SaveFailure,
  type SavedUrls,
} from './guest-urls-api.ts'
import { validateGuestUrl } from './url-validation.ts'

/** An edited guest: what the field holds, and what it needs for the save and for messages. */
export interface UrlEdit {
  value: string
  name: string
  nodeVmidKey: string
}

export interface GuestUrlEdits {
  /** 'loading' until the stored URLs arrive; 'error' when they could not be read. */
  status: 'loading' | 'ready' | 'error'
  loadError: string
  reload: () => void
  /** What the field of `row` shows: the edit, else the stored URL by id, else by node-vmid. */
  valueOf: (row: GuestUrlRow) => string
  setValue: (row: GuestUrlRow, value: string) => void
  /** Guests whose field differs from what is stored. */
  changed: number
  /** Edited guests whose URL is invalid. */
  invalid: number
  saving: boolean
  save: () => Promise<void>
  /** The last save's failures, one per guest (or per line the server sent). */
  failures: readonly SaveFailure[]
  /** The display name of a guest key that has an edit, else the key. */
  nameOf: (guestId: string) => string
}

const EMPTY: SavedUrls = new Map()

/** The stored URL a guest's field starts from. */
function storedOf(saved: SavedUrls, row: { id: string; nodeVmidKey: string }): string {
  return saved.get(row.id) ?? saved.get(row.nodeVmidKey) ?? ''
}

export function useGuestUrlEdits(): GuestUrlEdits {
  const [saved, setSaved] = useState<SavedUrls>(EMPTY)
  const [status, setStatus] = useState<GuestUrlEdits['status']>('loading')
  const [loadError, setLoadError] = useState('')
  const [attempt, setAttempt] = useState(0)
  const [edits, setEdits] = useState<ReadonlyMap<string, UrlEdit>>(new Map())
  const [saving, setSaving] = useState(false)
  const [failures, setFailures] = useState<readonly SaveFailure[]>([])

  useEffect(() => {
    const controller = new AbortController()
    loadSavedUrls(controller.signal)
      .then((urls) => {
        setSaved(urls)
        setStatus('ready')
      })
      .catch((err: unknown) => {
        if (controller.signal.aborted) return
        setLoadError(err instanceof Error ? err.message : String(err))
        setStatus('error')
      })
    return () => controller.abort()
  }, [attempt])

  const reload = useCallback(() => {
    setStatus('loading')
    setAttempt((n) => n + 1)
  }, [])

  const valueOf = useCallback(
    (row: GuestUrlRow) => edits.get(row.id)?.value ?? storedOf(saved, row),
    [edits, saved],
  )

  const setValue = useCallback(
    (row: GuestUrlRow, value: string) => {
      setEdits((prev) => {
        const next = new Map(prev)
        // Back to the stored value is no change at all: the save bar goes when nothing differs.
        if (value.trim() === storedOf(saved, row)) next.delete(row.id)
        else next.set(row.id, { value, name: row.name, nodeVmidKey: row.nodeVmidKey })
        return next
      })
    },
    [saved],
  )

  const invalid = useMemo(() => {
    let count = 0
    for (const edit of edits.values()) if (validateGuestUrl(edit.value)) count++
    return count
  }, [edits])

  const nameOf = useCallback((guestId: string) => edits.get(guestId)?.name ?? guestId, [edits])

  const save = useCallback(async () => {
    if (edits.size === 0 || invalid > 0) return
    const updates = new Map<string, string>()
    for (const [id, edit] of edits) {
      updates.set(id, edit.value.trim())
      // A URL shown from the older node-vmid key is moved to the guest id, not left behind.
      if (!saved.has(id) && edit.nodeVmidKey !== id && saved.has(edit.nodeVmidKey)) {
        updates.set(edit.nodeVmidKey, '')
      }
    }
    setSaving(true)
    setFailures([])
    try {
      await saveGuestUrls(updates)
      setSaved((prev) => {
        const next = new Map(prev)
        for (const [key, url] of updates) {
          if (url) next.set(key, url)
          else next.delete(key)
        }
        return next
      })
      setEdits(new Map())
      showToast('Guest URLs saved', 'success')
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err)
      setFailures(
        err instanceof HttpError && err.status === 400
          ? parseSaveFailures(message)
          : [{ guestId: null, text: `Guest URLs could not be saved: ${message}` }],
      )
    } finally {
      setSaving(false)
    }
  }, [edits, invalid, saved])

  return {
    status,
    loadError,
    reload,
    valueOf,
    setValue,
    changed: edits.size,
    invalid,
    saving,
    save,
    failures,
    nameOf,
  }
}
