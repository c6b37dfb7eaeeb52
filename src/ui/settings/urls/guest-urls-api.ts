// The Guest URLs tab's two calls (issue 16): every guest's metadata in one GET, and every change
// in one batch POST, never one request per guest.
import { apiJson } from '../../api/http.ts'

/** Stored custom URLs by metadata key (guest id, or the older node-vmid key). */
export type SavedUrls = ReadonlyMap<string, string>

/** GET /api/guests/metadata: the keys with a non-empty custom URL. */
export async function loadSavedUrls(signal?: AbortSignal): Promise<SavedUrls> {
  const body = await apiJson<unknown>('/api/guests/metadata', { signal })
  const urls = new Map<string, string>()
  if (typeof body !== 'object' || body === null) return urls
  for (const [key, value] of Object.entries(body)) {
    const url = (value as { customUrl?: unknown } | null)?.customUrl
    if (typeof url === 'string' && url) urls.set(key, url)
  }
  return urls
}

/** POST /api/guests/metadata/batch with `{ updates: { key: { customUrl } } }` ('' clears). */
export async function saveGuestUrls(updates: ReadonlyMap<string, string>): Promise<void> {
  const body = {
    updates: Object.fromEntries([...updates].map(([k, url]) => [k, { customUrl: url }])),
  }
  await apiJson('/api/guests/metadata/batch', { method: 'POST', body })
}

/** One line of a failed save: the guest's key and what is wrong, as the server named them. */
export interface SaveFailure {
  guestId: string | null
  text: string
}

// updates["<json-quoted id>"].<field>: <problem>
const LINE = /^updates\[("(?:[^"\\]|\\.)*")\]\.(\w+): (.*)$/

/** The server's 400 message, one failure per line, each tied to its guest when it names one. */
export function parseSaveFailures(message: string): SaveFailure[] {
  return message
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => {
      const match = LINE.exec(line)
      if (!match) return { guestId: null, text: line }
      let guestId: string | null = null
      try {
        guestId = JSON.parse(match[1]!) as string
      } catch {
        return { guestId: null, text: line }
      }
      const field = match[2] === 'customUrl' ? 'Custom URL' : match[2]!
      return { guestId, text: `${field} ${match[3]!}` }
    })
}
