// Discovery: background scans every 5 minutes when enabled (off by default), one scan at a time,
// the last result cached. Configured servers are still returned (the UI hides them). Settings
// (discoveryEnabled, discoverySubnet) are stored in SQLite.
import { runInBackground } from '../background.ts'
import { AppError } from '../../shared/model/errors.ts'
import type { DiscoveryStatus } from '../../shared/model/node-config.ts'
import type { SystemSettingsRepo } from '../store/system-settings-repo.ts'
import { scanSubnet, type ScanOptions } from './scanner.ts'
import { assertScannable, AUTO_SUBNET, resolveTarget, type ScanTarget } from './subnet.ts'

export const DISCOVERY_INTERVAL_MS = 5 * 60_000
const ENABLED_KEY = 'discoveryEnabled'
const SUBNET_KEY = 'discoverySubnet'

export interface DiscoverySettings {
  discoveryEnabled: boolean
  /** 'auto' (loopback only) or the CIDR an administrator typed. */
  discoverySubnet: string
}

export interface DiscoveryService {
  status(): DiscoveryStatus
  /**
   * Start a background scan of `subnet` ('auto', a CIDR, or undefined for the stored setting) and
   * answer the status (scanning). While a scan runs, answers its status. FIELD_INVALID on subnet
   * for a bad or forbidden subnet, before anything is probed.
   */
  scan(subnet?: string): DiscoveryStatus
  /** Resolves when no scan is running. */
  idle(): Promise<void>
  settings(): DiscoverySettings
  /** Store settings (validated) and start or stop the background scans accordingly. */
  configure(patch: Partial<DiscoverySettings>): DiscoverySettings
  /** Start the background timer if enabled (and scan once now). */
  start(): void
  /** Stop the timer and the running scan. */
  close(): Promise<void>
}

export interface DiscoveryDeps {
  settings: SystemSettingsRepo
  now: () => number
  /**
   * Socket announcements (spec 000 §7): discovery_started when a scan starts, discovery_update
   * (the whole status) and discovery_complete when it ends.
   */
  broadcast?: (type: string, data?: unknown) => void
  log?: { warn(obj: object, msg: string): void }
  intervalMs?: number
  /** Ports, concurrency and timeouts of the scanner (tests use their own ports). */
  scan?: Omit<ScanOptions, 'signal'>
}

/** Create the discovery service; nothing runs until start() or scan(). */
export function createDiscoveryService(deps: DiscoveryDeps): DiscoveryService {
  let cache: Omit<DiscoveryStatus, 'scanning' | 'enabled'> = {
    servers: [],
    errors: [],
    subnet: '',
    lastScanStartedAt: 0,
    lastResultAt: 0,
  }
  let running: Promise<void> | undefined
  let abort: AbortController | undefined
  let timer: ReturnType<typeof setInterval> | undefined

  const settings = (): DiscoverySettings => {
    const enabled = deps.settings.get(ENABLED_KEY)
    const subnet = deps.settings.get(SUBNET_KEY)
    return {
      discoveryEnabled: enabled === true,
      discoverySubnet: typeof subnet === 'string' && subnet ? subnet : 'auto',
    }
  }
  // A stored subnet was typed by an administrator; 'auto' stays loopback.
  const storedTarget = (): ScanTarget => resolveTarget(settings().discoverySubnet, true)
  const status = (): DiscoveryStatus => ({
    ...cache,
    subnet: cache.subnet || safeCidr(storedTarget),
    scanning: running !== undefined,
    enabled: settings().discoveryEnabled,
  })

  const run = async (target: ScanTarget, signal: AbortSignal) => {
    try {
      const result = await scanSubnet(target, { ...deps.scan, signal })
      cache = { ...cache, ...result, lastResultAt: deps.now() }
    } catch (err) {
      deps.log?.warn({ err }, 'discovery scan failed')
      const reason = err instanceof AppError ? err.message : 'internal error'
      cache = {
        ...cache,
        servers: [],
        errors: [`Scan failed: ${reason}`],
        lastResultAt: deps.now(),
      }
    }
  }

  const scan = (requested?: string): DiscoveryStatus => {
    if (running) return status()
    const target = requested === undefined ? storedTarget() : resolveTarget(requested, true)
    assertScannable(target)
    abort = new AbortController()
    cache = { ...cache, subnet: target.subnet.cidr, lastScanStartedAt: deps.now() }
    // Never an unhandled rejection: reading the settings or broadcasting may throw too.
    const signal = abort.signal
    running = runInBackground(deps.log, 'discovery scan', async () => {
      try {
        await run(target, signal)
      } finally {
        running = undefined
        const done = status()
        deps.broadcast?.('discovery_update', done)
        deps.broadcast?.('discovery_complete', { scanning: false, timestamp: done.lastResultAt })
      }
    })
    deps.broadcast?.('discovery_started', status())
    return status()
  }

  const background = () => {
    try {
      scan()
    } catch (err) {
      deps.log?.warn({ err }, 'background discovery refused')
    }
  }
  const startTimer = () => {
    if (timer) return
    timer = setInterval(background, deps.intervalMs ?? DISCOVERY_INTERVAL_MS)
    timer.unref?.()
    background()
  }
  const stopTimer = () => {
    if (timer) clearInterval(timer)
    timer = undefined
  }

  return {
    status,
    scan,
    idle: async () => {
      while (running) await running
    },
    settings,
    configure(patch) {
      if (patch.discoverySubnet !== undefined) {
        const target = settingTarget(patch.discoverySubnet)
        const value = target.explicit ? target.subnet.cidr : 'auto'
        deps.settings.set(SUBNET_KEY, value, deps.now())
      }
      if (patch.discoveryEnabled !== undefined) {
        deps.settings.set(ENABLED_KEY, patch.discoveryEnabled, deps.now())
        if (patch.discoveryEnabled) startTimer()
        else stopTimer()
      }
      return settings()
    },
    start: () => {
      if (settings().discoveryEnabled) startTimer()
    },
    async close() {
      stopTimer()
      abort?.abort()
      while (running) await running
    },
  }
}

/** Validate a typed subnet setting; FIELD_INVALID names discoverySubnet. Nothing is stored yet. */
function settingTarget(text: string): ScanTarget {
  try {
    return resolveTarget(text.trim() || 'auto', true)
  } catch (err) {
    if (!(err instanceof AppError) || err.code !== 'FIELD_INVALID') throw err
    throw new AppError('FIELD_INVALID', { ...err.params, field: 'discoverySubnet' })
  }
}

function safeCidr(target: () => ScanTarget): string {
  try {
    return target().subnet.cidr
  } catch {
    return AUTO_SUBNET
  }
}
