// Core routes: health and version (GET /api/state is in state.ts).
import type { FastifyInstance } from 'fastify'
import type { DeploymentType, UpdateChannel, VersionInfo } from '../../shared/model/updates.ts'

export interface CoreRouteDeps {
  version: string
  demo: boolean
  startedAt: number
  now: () => number
  deploymentType: DeploymentType
  /** The update channel saved in the system settings. */
  channel: () => UpdateChannel
  /** What /api/health adds about this process's role (PULSE_ROLE). */
  health?: () => Record<string, unknown>
}

/** Register /api/health and /api/version. */
export function registerCoreRoutes(app: FastifyInstance, deps: CoreRouteDeps): void {
  if (deps.demo) {
    app.addHook('onSend', async (_request, reply) => {
      reply.header('X-Demo-Mode', 'true')
    })
  }
  app.get('/api/health', async () => ({
    status: 'healthy',
    timestamp: Math.floor(deps.now() / 1000),
    uptime: (deps.now() - deps.startedAt) / 1000,
    ...(deps.health?.() ?? { role: 'all' }),
  }))
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
