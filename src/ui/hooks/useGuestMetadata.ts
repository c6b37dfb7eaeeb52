// Guest metadata (spec 000 §3, §7): the custom URL per guest, fetched once on mount, every 60 s
// and when the window regains focus. A failed call is only logged and the map is empty.
import { useEffect, useState } from 'react'
import { apiJson } from '../api/http.ts'

/** How often the metadata is fetched again while the table is shown. */
export const METADATA_REFRESH_MS = 60_000

/** Custom URLs by metadata key (guest id or node-vmid); only http(s) URLs are kept. */
export type GuestLinks = ReadonlyMap<string, string>

const EMPTY: GuestLinks = new Map()

/** The link of a guest: by its id, else by its node-vmid key (spec 000 §3). */
export function guestLink(
  links: GuestLinks,
  row: { id: string; nodeVmidKey: string },
): string | undefined {
  return links.get(row.id) ?? links.get(row.nodeVmidKey)
}

/** `text` when it is an absolute http:// or https:// URL; anything else (javascript:, data:) is not a link. */
export function toHttpUrl(text: unknown): string | undefined {
  if (typeof text !== 'string' || !text.trim()) return undefined
  try {
    const trimmed = text.trim()
    const { protocol } = new URL(trimmed)
    return protocol === 'http:' || protocol === 'https:' ? trimmed : undefined
  } catch {
    return undefined
  }
}

/** The links of a GET /api/guests/metadata answer: `{ "<guestId>": { id, customUrl, … } }`. */
export function toGuestLinks(body: unknown): GuestLinks {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return EMPTY
  const links = new Map<string, string>()
  for (const [key, value] of Object.entries(body)) {
    if (typeof value !== 'object' || value === null) continue
    const url = toHttpUrl((value as { customUrl?: unknown }).customUrl)
    if (url) links.set(key, url)
  }
  return links
}

/** GET /api/guests/metadata through the HTTP client (spec 000 §7 HTTP rules). */
export async function fetchGuestLinks(signal?: AbortSignal): Promise<GuestLinks> {
  return toGuestLinks(await apiJson<unknown>('/api/guests/metadata', { signal }))
}

/** The custom URLs of guests, kept fresh while mounted. */
export function useGuestMetadata(): GuestLinks {
  const [links, setLinks] = useState<GuestLinks>(EMPTY)
  useEffect(() => {
    const controller = new AbortController()
    const load = () => {
      fetchGuestLinks(controller.signal)
        .then((next) => {
          if (!controller.signal.aborted) setLinks((prev) => (sameLinks(prev, next) ? prev : next))
        })
        .catch((err: unknown) => {
          if (controller.signal.aborted) return
          // Spec 000 §7: on failure the call is only logged and the map is empty.
          console.warn('Guest metadata could not be loaded:', err)
          setLinks(EMPTY)
        })
    }
    load()
    const timer = setInterval(load, METADATA_REFRESH_MS)
    window.addEventListener('focus', load)
    return () => {
      controller.abort()
      clearInterval(timer)
      window.removeEventListener('focus', load)
    }
  }, [])
  return links
}

/** Unchanged answers keep the old map, so memoised rows do not re-render every minute. */
function sameLinks(a: GuestLinks, b: GuestLinks): boolean {
  if (a.size !== b.size) return false
  for (const [key, url] of a) if (b.get(key) !== url) return false
  return true
}
