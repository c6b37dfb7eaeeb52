// The release feed (UPDATE_FEED_URL): a JSON array in the GitHub releases API format. Only what
// the updater needs is validated; drafts and malformed entries are skipped rather than failing
// the whole check, and the highest version wins whatever the feed's order.
import { z } from 'zod'
import type { UpdateChannel } from '../../shared/model/updates.ts'
import { getBounded } from './fetch-bounded.ts'
import { compareVersions, formatVersion, parseVersion, type Version } from './semver.ts'

/** Feed requests give up after 10 s; a feed larger than 5 MiB is refused. */
export const FEED_LIMITS = { timeoutMs: 10_000, maxBytes: 5 * 1024 * 1024 }

const assetSchema = z.object({
  name: z.string().min(1),
  browser_download_url: z.string().url(),
  size: z.number().int().nonnegative(),
})

const releaseSchema = z.object({
  tag_name: z.string(),
  prerelease: z.boolean(),
  draft: z.boolean(),
  published_at: z.string().nullable().optional(),
  body: z.string().nullable().optional(),
  assets: z.array(z.unknown()),
})

export interface ReleaseAsset {
  name: string
  url: string
  size: number
}

export interface Release {
  version: Version
  /** Without a leading 'v'. */
  versionText: string
  prerelease: boolean
  publishedAt: string
  notes: string
  assets: ReleaseAsset[]
}

/** Valid, non-draft releases of a parsed feed; anything malformed is skipped. */
export function parseFeed(json: unknown): Release[] {
  if (!Array.isArray(json)) throw new Error('the feed is not a JSON array of releases')
  const out: Release[] = []
  for (const entry of json) {
    const parsed = releaseSchema.safeParse(entry)
    if (!parsed.success || parsed.data.draft) continue
    const version = parseVersion(parsed.data.tag_name)
    if (!version) continue
    const assets: ReleaseAsset[] = []
    for (const raw of parsed.data.assets) {
      const asset = assetSchema.safeParse(raw)
      if (!asset.success) continue
      const url = asset.data.browser_download_url
      if (!/^https?:\/\//i.test(url)) continue
      assets.push({ name: asset.data.name, url, size: asset.data.size })
    }
    out.push({
      version,
      versionText: formatVersion(version),
      // A version with a prerelease part is a prerelease whatever the flag says.
      prerelease: parsed.data.prerelease || version.pre.length > 0,
      publishedAt: parsed.data.published_at ?? '',
      notes: parsed.data.body ?? '',
      assets,
    })
  }
  return out
}

/** The highest release the channel may see (stable skips prereleases), or null. */
export function pickRelease(releases: readonly Release[], channel: UpdateChannel): Release | null {
  let best: Release | null = null
  for (const release of releases) {
    if (channel === 'stable' && release.prerelease) continue
    if (!best || compareVersions(release.version, best.version) > 0) best = release
  }
  return best
}

/**
 * The archive this server installs: `pulse-monitor-<version>.tar.gz` (a leading 'v' in the
 * version tolerated), else the release's only .tar.gz asset.
 */
export function pickArchive(release: Release): ReleaseAsset | null {
  const exact = new RegExp(
    `^pulse-monitor-v?${release.versionText.replace(/\./g, '\\.')}\\.tar\\.gz$`,
  )
  const named = release.assets.find((a) => exact.test(a.name))
  if (named) return named
  const archives = release.assets.filter((a) => a.name.endsWith('.tar.gz'))
  return archives.length === 1 ? archives[0]! : null
}

/** Where the archive's SHA-256 is published: `<archive>.sha256`, else SHA256SUMS / checksums.txt. */
export function pickChecksum(release: Release, archive: ReleaseAsset): ReleaseAsset | null {
  return (
    release.assets.find((a) => a.name === `${archive.name}.sha256`) ??
    release.assets.find((a) => /^(sha256sums(\.txt)?|checksums\.txt)$/i.test(a.name)) ??
    null
  )
}

/**
 * The archive's hex digest from a checksum file: lines `<hex>  <name>` (also `<hex> *<name>`),
 * or a bare `<hex>` in a per-file `.sha256`. Null when the file does not list the archive.
 */
export function findDigest(text: string, archiveName: string, perFile: boolean): string | null {
  for (const line of text.split(/\r?\n/)) {
    const m = /^([0-9a-fA-F]{64})(?:\s+\*?(\S.*))?$/.exec(line.trim())
    if (!m) continue
    const name = m[2]?.trim()
    if (name === archiveName || (perFile && name === undefined)) return m[1]!.toLowerCase()
    if (perFile && name !== undefined && name.split('/').pop() === archiveName) {
      return m[1]!.toLowerCase()
    }
  }
  return null
}

/** Fetch and parse the feed; throws with the reason (unreachable, status, not JSON, too big). */
export async function fetchFeed(url: string): Promise<Release[]> {
  const body = await getBounded(url, FEED_LIMITS)
  let json: unknown
  try {
    json = JSON.parse(body.toString('utf8'))
  } catch {
    throw new Error('the feed is not valid JSON')
  }
  return parseFeed(json)
}
