// Version and update info (spec 001 §3 Version info, Update info; §4 Update check;
// reference/wire-protocol.md §3.8): the contract between the server's updater and the UI.

/** How this copy was installed; decides whether it may update itself and what the user is told. */
export const DEPLOYMENT_TYPES = ['proxmoxve', 'docker', 'systemd', 'manual', 'development'] as const
export type DeploymentType = (typeof DEPLOYMENT_TYPES)[number]

export const UPDATE_CHANNELS = ['stable', 'rc'] as const
export type UpdateChannel = (typeof UPDATE_CHANNELS)[number]

/** Spec 001 §2 System tab: auto-update check intervals in hours (6, 12, 24 daily, 168 weekly). */
export const AUTO_UPDATE_INTERVALS = [6, 12, 24, 168] as const

/** Spec 001 §9 defaults. */
export const UPDATE_DEFAULTS = {
  autoUpdateEnabled: false,
  autoUpdateCheckInterval: 24,
  autoUpdateTime: '03:00',
  updateChannel: 'stable' as UpdateChannel,
}

/** GET /api/version. */
export interface VersionInfo {
  /** Without a leading 'v', e.g. '0.1.0' or '0.2.0-rc.1'. */
  version: string
  /** The update channel saved in the system settings. */
  channel: UpdateChannel
  isDevelopment: boolean
  isDocker: boolean
  deploymentType: DeploymentType
  build: string
  runtime: string
  demo: boolean
}

/** GET /api/updates/check?channel=stable|rc. */
export interface UpdateInfo {
  available: boolean
  currentVersion: string
  latestVersion: string
  /** Markdown body of the release, '' when none. */
  releaseNotes: string
  /** ISO time the release was published, '' when unknown. */
  releaseDate: string
  /** The release asset this deployment would install, '' when none fits. */
  downloadUrl: string
  isPrerelease: boolean
  /** Why no update is offered although one exists (e.g. Docker: pull the new image instead). */
  warning?: string
}

/** GET /api/updates/plan: what applying would do on this deployment. */
export interface UpdatePlan {
  deploymentType: DeploymentType
  /** False for docker and development: the apply route refuses with `instructions` as reason. */
  canAutoUpdate: boolean
  /** Steps the user follows (or what happens on apply), one per line. */
  instructions: string[]
}

export const UPDATE_STATUSES = [
  'idle',
  'checking',
  'available',
  'downloading',
  'verifying',
  'extracting',
  'backing-up',
  'applying',
  'restarting',
  'completed',
  'error',
] as const
export type UpdateStatus = (typeof UPDATE_STATUSES)[number]

/** The statuses of an apply still under way (the UI shows its progress bar during these). */
export const UPDATE_RUNNING_STATUSES: ReadonlySet<UpdateStatus> = new Set<UpdateStatus>([
  'downloading',
  'verifying',
  'extracting',
  'backing-up',
  'applying',
  'restarting',
])

/** GET /api/updates/status and the data of the socket's `update:progress` event. */
export interface UpdateProgress {
  status: UpdateStatus
  /** 0-100. */
  progress: number
  message: string
  error?: string
  /** ISO time of this report. */
  updatedAt: string
}

/** The update settings kept with the system settings (POST /api/system/settings/update). */
export interface UpdateSettings {
  updateChannel: UpdateChannel
  autoUpdateEnabled: boolean
  /** Hours, one of AUTO_UPDATE_INTERVALS. */
  autoUpdateCheckInterval: number
  /** Local time of day 'HH:MM' at which the scheduled check runs. */
  autoUpdateTime: string
}
