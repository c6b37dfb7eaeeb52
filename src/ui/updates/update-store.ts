// One update state for the banner, the Settings tab's red dot, the footer and the version panel
// (spec 001 §2 Shell, §4 Update check). The running version comes from GET /api/version once;
// checks follow the cache rules of update-cache.ts and are never run twice at the same time.
import { proxy } from 'valtio'
import type { UpdateChannel, VersionInfo } from '../../shared/model/updates.ts'
import {
  cacheFor,
  emptyCache,
  isFresh,
  readCache,
  skipsAutomaticCheck,
  writeCache,
  type UpdateCache,
} from './update-cache.ts'
import { fetchUpdateCheck, fetchVersion } from './updates-api.ts'

export interface UpdateState {
  /** Null until GET /api/version answers (or when it failed). */
  version: VersionInfo | null
  cache: UpdateCache
  checking: boolean
}

export const updateState = proxy<UpdateState>({
  version: null,
  cache: emptyCache(),
  checking: false,
})

/** What a check call did: asked the server, used the cache, was not allowed, or failed. */
export type CheckOutcome = 'checked' | 'cached' | 'skipped' | 'error'

let versionLoad: Promise<VersionInfo | null> | null = null
let running: Promise<CheckOutcome> | null = null

/** GET /api/version once per page; later calls share the answer. */
export function loadVersion(): Promise<VersionInfo | null> {
  versionLoad ??= fetchVersion()
    .then((version) => {
      updateState.version = version
      const cache = cacheFor(readCache(), version.version)
      updateState.cache = cache
      writeCache(cache)
      return version
    })
    .catch(() => null)
  return versionLoad
}

function store(cache: UpdateCache): void {
  updateState.cache = cache
  writeCache(cache)
}

async function runCheck(force: boolean, channel: UpdateChannel | undefined): Promise<CheckOutcome> {
  const version = await loadVersion()
  if (!version) return 'error'
  const wanted = channel ?? version.channel
  const cache = cacheFor(readCache(), version.version)
  updateState.cache = cache
  if (!force && skipsAutomaticCheck(version)) return 'skipped'
  if (!force && isFresh(cache, wanted, Date.now())) return 'cached'
  updateState.checking = true
  try {
    const info = await fetchUpdateCheck(wanted)
    store({
      ...cacheFor(readCache(), version.version),
      lastCheck: Date.now(),
      updateInfo: info,
      lastError: '',
      channel: wanted,
    })
    return 'checked'
  } catch (error) {
    // Spec 001 §4: the error is kept and means no update. lastCheck is set too, so a broken
    // feed is not asked on every page load; Check for Updates still forces a new try.
    store({
      ...cacheFor(readCache(), version.version),
      lastCheck: Date.now(),
      updateInfo: null,
      lastError: error instanceof Error ? error.message : String(error),
      channel: wanted,
    })
    return 'error'
  } finally {
    updateState.checking = false
  }
}

/**
 * Checks for an update under spec 001 §4's rules. A call while one runs gets that one's outcome
 * instead of a second request. `channel` defaults to the saved one.
 */
export function checkForUpdates({
  force = false,
  channel,
}: { force?: boolean; channel?: UpdateChannel } = {}): Promise<CheckOutcome> {
  running ??= runCheck(force, channel).finally(() => {
    running = null
  })
  return running
}

/** Hides the banner and red dot for this version; a newer one shows again. */
export function dismissUpdate(version: string): void {
  store({ ...updateState.cache, dismissedVersion: version })
}

/** Forgets everything held in memory (tests; a reload does the same). */
export function resetUpdateStore(): void {
  versionLoad = null
  running = null
  updateState.version = null
  updateState.cache = emptyCache()
  updateState.checking = false
}
