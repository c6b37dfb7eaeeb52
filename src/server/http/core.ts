// Core routes: health and version (GET /api/state is in state.ts).
import type { FastifyInstance } from 'fastify'
import type { DeploymentType, UpdateChannel, VersionInfo } from '../../shared/model/updates.ts'

import type { StorageStatus } from '../store/storage-health.ts'

export interface CoreRouteDeps {
  version: string
  demo: boolean
  startedAt: number
  now: () => number
  deploymentType: DeploymentType
  /** The update channel saved in the system settings. */
  channel: () => UpdateChannel
  /**
   * What /api/health adds about this process's role (PULSE_ROLE); a `status` in it ('degraded')
   * overrides the one derived here.
   */
  health?: () => Record<string, unknown>
  /** Whether the data file can be written (store/storage-health.ts). */
  storage?: () => StorageStatus
}

/** Register /api/health and /api/version. */
export function registerCoreRoutes(app: FastifyInstance, deps: CoreRouteDeps): void {
  if (deps.demo) {
    app.addHook('onSend', async (_request, reply) => {
      reply.header('X-Demo-Mode', 'true')
    })
  }
  // Always 200 while the process answers; `status` says 'degraded' when storage (or, for a role,
  // the bus) is in trouble, and the field concerned says what.
  app.get('/api/health', async () => {
    const storage = deps.storage?.()
    return {
      status: storage && !storage.ok ? 'degraded' : 'healthy',
      timestamp: Math.floor(deps.now() / 1000),
      uptime: (deps.now() - deps.startedAt) / 1000,
      ...(storage ? { storage } : {}),
      ...(deps.health?.() ?? { role: 'all' }),
    }
  })
  app.get('/api/version', async (): Promise<VersionInfo> => ({
    version: deps.version.replace(/^v/, ''),
    channel: deps.channel(),
    isDevelopment: deps.deploymentType === 'development',
    isDocker: deps.deploymentType === 'docker',
    deploymentType: deps.deploymentType,
    build: deps.deploymentType === 'development' ? 'development' : 'release',
    runtime: `node ${process.version}`,
    demo: deps.demo,
  }))
}
