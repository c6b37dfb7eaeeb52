// The browser's update cache (spec 001 §3 Update info, §4 Update check, §9: 24 h): what the last
// check found, when, for which running version, and which version the user dismissed. Anything
// unreadable (another app's value, an old shape, hand edits) reads as the empty cache.
import { isRecord } from '../../shared/model/coerce.ts'
import type { UpdateChannel, UpdateInfo, VersionInfo } from '../../shared/model/updates.ts'
import { toChannel, toUpdateInfo } from './updates-api.ts'

export const UPDATE_CACHE_KEY = 'pulse.updateCache'
/** Spec 001 §9. */
export const UPDATE_CACHE_MS = 24 * 60 * 60 * 1000

export interface UpdateCache {
  /** The running version the entry was made for; '' when empty. */
  currentVersion: string
  /** Epoch ms of the last check, 0 when none. */
  lastCheck: number
  updateInfo: UpdateInfo | null
  dismissedVersion: string
  lastError: string
  /**
   * The channel the last check asked about. Not named by the spec: without it, switching to rc
   * would keep showing the stable answer for up to a day.
   */
  channel: UpdateChannel
}

export const emptyCache = (): UpdateCache => ({
  currentVersion: '',
  lastCheck: 0,
  updateInfo: null,
  dismissedVersion: '',
  lastError: '',
  channel: 'stable',
})

const text = (value: unknown) => (typeof value === 'string' ? value : '')

export function parseCache(stored: string | null): UpdateCache {
  if (!stored) return emptyCache()
  let raw: unknown
  try {
    raw = JSON.parse(stored)
  } catch {
    return emptyCache()
  }
  if (!isRecord(raw) || typeof raw.currentVersion !== 'string') return emptyCache()
  const lastCheck =
    typeof raw.lastCheck === 'number' && Number.isFinite(raw.lastCheck) ? raw.lastCheck : 0
  return {
    currentVersion: raw.currentVersion,
    lastCheck: lastCheck > 0 ? lastCheck : 0,
    updateInfo: toUpdateInfo(raw.updateInfo),
    dismissedVersion: text(raw.dismissedVersion),
    lastError: text(raw.lastError),
    channel: toChannel(raw.channel),
  }
}

export function readCache(): UpdateCache {
  try {
    return parseCache(localStorage.getItem(UPDATE_CACHE_KEY))
  } catch {
    return emptyCache()
  }
}

export function writeCache(cache: UpdateCache): void {
  try {
    localStorage.setItem(UPDATE_CACHE_KEY, JSON.stringify(cache))
  } catch {
    // Storage full or blocked: the answer then lasts until reload.
  }
}

/** A build from a working tree: git-describe (1.2.3-4-gabc123) or dirty versions. */
export function isDevelopmentVersion(version: string): boolean {
  return /-\d+-g[0-9a-f]{4,}/i.test(version) || /dirty/i.test(version)
}

/** Spec 001 §4: Docker installs and development builds check only when asked to. */
export function skipsAutomaticCheck(version: VersionInfo): boolean {
  return (
    version.isDocker ||
    version.isDevelopment ||
    version.deploymentType === 'development' ||
    isDevelopmentVersion(version.version)
  )
}

/** Spec 001 §4: the cache belongs to one running version; another version starts empty. */
export function cacheFor(cache: UpdateCache, runningVersion: string): UpdateCache {
  return cache.currentVersion === runningVersion
    ? cache
    : { ...emptyCache(), currentVersion: runningVersion }
}

/** A cached answer young enough to use instead of asking again. */
export function isFresh(cache: UpdateCache, channel: UpdateChannel, now: number): boolean {
  return (
    cache.lastCheck > 0 &&
    cache.channel === channel &&
    now - cache.lastCheck < UPDATE_CACHE_MS &&
    now >= cache.lastCheck
  )
}

/** Spec 001 §4: visible only when available and not dismissed. */
export function visibleUpdate(cache: UpdateCache): UpdateInfo | null {
  const info = cache.updateInfo
  return info?.available && info.latestVersion !== cache.dismissedVersion ? info : null
}
