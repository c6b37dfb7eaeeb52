// The update routes (spec 001 §7; src/shared/model/updates.ts), with answers coerced so a missing
// or odd field becomes a safe default instead of a crash in the banner or the panel.
import { apiJson } from '../api/http.ts'
import { isRecord, textOr, toBool, toNumber } from '../../shared/model/coerce.ts'
import {
  DEPLOYMENT_TYPES,
  UPDATE_CHANNELS,
  UPDATE_STATUSES,
  type DeploymentType,
  type UpdateChannel,
  type UpdateInfo,
  type UpdatePlan,
  type UpdateProgress,
  type UpdateStatus,
  type VersionInfo,
} from '../../shared/model/updates.ts'

const oneOf = <T extends string>(list: readonly T[], value: unknown, fallback: T): T =>
  (list as readonly unknown[]).includes(value) ? (value as T) : fallback

export const toChannel = (value: unknown): UpdateChannel => oneOf(UPDATE_CHANNELS, value, 'stable')

export function toVersionInfo(answer: unknown): VersionInfo {
  const raw = isRecord(answer) ? answer : {}
  const deploymentType: DeploymentType = oneOf(DEPLOYMENT_TYPES, raw.deploymentType, 'manual')
  return {
    version: textOr(raw.version).replace(/^v/, ''),
    channel: toChannel(raw.channel),
    isDevelopment: toBool(raw.isDevelopment) || deploymentType === 'development',
    isDocker: toBool(raw.isDocker) || deploymentType === 'docker',
    deploymentType,
    build: textOr(raw.build),
    runtime: textOr(raw.runtime),
    demo: toBool(raw.demo),
  }
}

/** Null when the value is not an update answer (a foreign or corrupt cache entry). */
export function toUpdateInfo(answer: unknown): UpdateInfo | null {
  if (!isRecord(answer) || typeof answer.available !== 'boolean') return null
  const info: UpdateInfo = {
    available: answer.available,
    currentVersion: textOr(answer.currentVersion),
    latestVersion: textOr(answer.latestVersion),
    releaseNotes: textOr(answer.releaseNotes),
    releaseDate: textOr(answer.releaseDate),
    downloadUrl: textOr(answer.downloadUrl),
    isPrerelease: toBool(answer.isPrerelease),
  }
  if (typeof answer.warning === 'string' && answer.warning) info.warning = answer.warning
  return info
}

export function toUpdatePlan(answer: unknown): UpdatePlan {
  const raw = isRecord(answer) ? answer : {}
  return {
    deploymentType: oneOf(DEPLOYMENT_TYPES, raw.deploymentType, 'manual'),
    canAutoUpdate: toBool(raw.canAutoUpdate),
    instructions: Array.isArray(raw.instructions)
      ? raw.instructions.filter((line): line is string => typeof line === 'string')
      : [],
  }
}

export function toUpdateProgress(answer: unknown): UpdateProgress {
  const raw = isRecord(answer) ? answer : {}
  const status: UpdateStatus = oneOf(UPDATE_STATUSES, raw.status, 'idle')
  const progress: UpdateProgress = {
    status,
    progress: Math.min(100, Math.max(0, toNumber(raw.progress))),
    message: textOr(raw.message),
    updatedAt: textOr(raw.updatedAt),
  }
  if (typeof raw.error === 'string' && raw.error) progress.error = raw.error
  return progress
}

/** GET /api/version. */
export async function fetchVersion(): Promise<VersionInfo> {
  return toVersionInfo(await apiJson<unknown>('/api/version'))
}

/** GET /api/updates/check?channel=. */
export async function fetchUpdateCheck(channel: UpdateChannel): Promise<UpdateInfo> {
  const info = toUpdateInfo(
    await apiJson<unknown>(`/api/updates/check?channel=${encodeURIComponent(channel)}`),
  )
  if (!info) throw new Error('The update check gave no answer')
  return info
}

/** GET /api/updates/plan. */
export async function fetchUpdatePlan(): Promise<UpdatePlan> {
  return toUpdatePlan(await apiJson<unknown>('/api/updates/plan'))
}

/** GET /api/updates/status. */
export async function fetchUpdateStatus(): Promise<UpdateProgress> {
  return toUpdateProgress(await apiJson<unknown>('/api/updates/status'))
}

/** POST /api/updates/apply; progress then arrives as `update:progress` events. */
export async function applyUpdate(downloadUrl: string): Promise<void> {
  await apiJson<unknown>('/api/updates/apply', { method: 'POST', body: { downloadUrl } })
}
