// The updater (spec 001 §4 Update check; reference/wire-protocol.md §3.8): checks the release
// feed when asked, and applies a release the last check found by downloading it, verifying its
// published SHA-256, and staging it. Every step is reported as `update:progress` and kept for
// GET /api/updates/status. It never restarts the process.
import fs from 'node:fs'
import { AppError } from '../../shared/model/errors.ts'
import { runInBackground, type JobLog } from '../background.ts'
import type {
  DeploymentType,
  UpdateChannel,
  UpdateInfo,
  UpdatePlan,
  UpdateProgress,
  UpdateStatus,
} from '../../shared/model/updates.ts'
import { downloadBounded, getBounded, UnreachableError } from './fetch-bounded.ts'
import {
  FEED_LIMITS,
  fetchFeed,
  findDigest,
  pickArchive,
  pickChecksum,
  pickRelease,
  type Release,
  type ReleaseAsset,
} from './feed.ts'
import { completedMessage, refusal, updatePlan } from './plan.ts'
import { compareVersions, parseVersion } from './semver.ts'
import { scratchPath, sha256File, stageArchive, stagedDir } from './stage.ts'

/** Largest archive accepted (a release is a few MiB); downloads give up after 10 minutes. */
export const DOWNLOAD_LIMITS = { timeoutMs: 600_000, maxBytes: 512 * 1024 * 1024 }

/** Why a check failed; an unreachable feed names UPDATE_FEED_URL (an offline server needs a mirror). */
function checkFailure(err: unknown): string {
  if (err instanceof UnreachableError) {
    return `could not reach the release feed ${err.host} (${err.reason}); set UPDATE_FEED_URL to a mirror this server can reach`
  }
  return err instanceof Error ? err.message : String(err)
}

export interface UpdaterDeps {
  feedUrl: string
  currentVersion: string
  deploymentType: DeploymentType
  dataDir: string
  now: () => number
  broadcast: (type: string, data: unknown) => void
  log: { info(obj: object, msg: string): void } & JobLog
}

export interface Updater {
  check(channel: UpdateChannel): Promise<UpdateInfo>
  plan(): UpdatePlan
  status(): UpdateProgress
  /** Start applying; throws (400/409) before anything happens when it may not. */
  apply(downloadUrl: string): { status: 'started'; message: string }
  /** Resolves when the running apply (if any) has finished. */
  idle(): Promise<void>
}

interface Found {
  release: Release
  archive: ReleaseAsset
  checksum: ReleaseAsset | null
}

export function createUpdater(deps: UpdaterDeps): Updater {
  const current = parseVersion(deps.currentVersion)
  let progress: UpdateProgress = {
    status: 'idle',
    progress: 0,
    message: '',
    updatedAt: new Date(deps.now()).toISOString(),
  }
  let found: Found | null = null
  let running: Promise<void> | null = null

  const report = (status: UpdateStatus, percent: number, message: string, error?: string) => {
    progress = { status, progress: percent, message, updatedAt: new Date(deps.now()).toISOString() }
    if (error !== undefined) progress.error = error
    deps.broadcast('update:progress', progress)
  }

  async function check(channel: UpdateChannel): Promise<UpdateInfo> {
    // Apply accepts only what the latest check offered: a failed or empty check offers nothing.
    found = null
    let releases: Release[]
    try {
      releases = await fetchFeed(deps.feedUrl)
    } catch (err) {
      throw new AppError('UPDATE_CHECK_FAILED', { reason: checkFailure(err) }, { cause: err })
    }
    const release = pickRelease(releases, channel)
    const info: UpdateInfo = {
      available: false,
      currentVersion: deps.currentVersion,
      latestVersion: release?.versionText ?? deps.currentVersion,
      releaseNotes: release?.notes ?? '',
      releaseDate: release?.publishedAt ?? '',
      downloadUrl: '',
      isPrerelease: release?.prerelease ?? false,
    }
    // An unparseable running version (a git describe string) counts as older than any release.
    const newer = release !== null && (!current || compareVersions(release.version, current) > 0)
    if (!release || !newer) return info
    const archive = pickArchive(release)
    if (deps.deploymentType === 'docker') {
      info.warning = `Pulse ${release.versionText} is available. Docker installs update by pulling the new image and recreating the container.`
      return info
    }
    info.available = true
    if (!archive) {
      info.warning = `Release ${release.versionText} has no pulse-monitor-${release.versionText}.tar.gz archive to install.`
      return info
    }
    const checksum = pickChecksum(release, archive)
    if (!checksum) {
      info.warning = `Release ${release.versionText} publishes no SHA-256 checksum, so it cannot be applied from here.`
    }
    info.downloadUrl = archive.url
    found = { release, archive, checksum }
    return info
  }

  async function install(target: Found): Promise<void> {
    const { release, archive, checksum } = target
    const file = scratchPath(deps.dataDir, 'download') + '.tar.gz'
    try {
      report('downloading', 0, `Downloading ${archive.name}`)
      let shown = 0
      await downloadBounded(
        archive.url,
        file,
        {
          timeoutMs: DOWNLOAD_LIMITS.timeoutMs,
          maxBytes:
            archive.size > 0
              ? Math.min(archive.size, DOWNLOAD_LIMITS.maxBytes)
              : DOWNLOAD_LIMITS.maxBytes,
          expectedBytes: archive.size,
        },
        (received, total) => {
          if (total <= 0) return
          const percent = Math.min(100, Math.floor((received / total) * 100))
          // One report per 5 % keeps the socket quiet on a fast link.
          if (percent - shown < 5 && percent < 100) return
          shown = percent
          report(
            'downloading',
            Math.round(percent * 0.7),
            `Downloading ${archive.name}: ${percent}%`,
          )
        },
      )
      report('verifying', 75, `Verifying the SHA-256 checksum of ${archive.name}`)
      const sums = await getBounded(checksum!.url, FEED_LIMITS)
      const perFile = checksum!.name.endsWith('.sha256')
      const expected = findDigest(sums.toString('utf8'), archive.name, perFile)
      if (!expected)
        throw new Error(`${checksum!.name} does not list ${archive.name}; nothing was staged`)
      const actual = await sha256File(file)
      if (actual !== expected) {
        throw new Error(
          `Checksum mismatch for ${archive.name}: published ${expected}, downloaded ${actual}. The download was discarded and nothing was staged.`,
        )
      }
      report('extracting', 85, `Extracting Pulse ${release.versionText}`)
      const dir = await stageArchive(file, deps.dataDir, release.versionText)
      deps.log.info({ version: release.versionText, dir }, 'update staged')
      report('completed', 100, completedMessage(deps.deploymentType, release.versionText, dir))
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err)
      deps.log.warn({ version: release.versionText, reason }, 'update failed')
      report('error', 0, `Update to ${release.versionText} failed: ${reason}`, reason)
    } finally {
      try {
        fs.rmSync(file, { force: true })
      } catch (err) {
        deps.log.warn({ file, err }, 'could not remove the update download')
      }
    }
  }

  return {
    check,
    plan: () => updatePlan(deps.deploymentType, stagedDir(deps.dataDir, '<version>')),
    status: () => progress,
    apply(downloadUrl) {
      const refused = refusal(deps.deploymentType)
      if (refused) throw new AppError('UPDATE_REFUSED', { reason: refused })
      if (running) throw new AppError('UPDATE_IN_PROGRESS')
      if (!found || found.archive.url !== downloadUrl) {
        throw new AppError('FIELD_INVALID', {
          field: 'downloadUrl',
          problem:
            'is not the download of the release found by the last update check; check for updates first',
        })
      }
      if (!found.checksum) {
        throw new AppError('UPDATE_REFUSED', {
          reason: `Release ${found.release.versionText} publishes no SHA-256 checksum; an unverified update is not installed.`,
        })
      }
      const target = found
      running = runInBackground(deps.log, 'update apply', () => install(target)).finally(() => {
        running = null
      })
      return { status: 'started', message: 'Update process started' }
    },
    idle: async () => {
      await running
    },
  }
}
