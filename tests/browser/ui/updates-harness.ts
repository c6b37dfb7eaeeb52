// A stubbed server for the update tests: GET /api/version, the update routes and the System
// settings, with the calls recorded. The real routes are tested in tests/unit/server/http.
import type {
  UpdateInfo,
  UpdatePlan,
  UpdateProgress,
  VersionInfo,
} from '../../../src/shared/model/updates.ts'
import { UPDATE_CACHE_KEY, type UpdateCache } from '../../../src/ui/updates/update-cache.ts'
import { stubServer } from './render.tsx'

export const VERSION: VersionInfo = {
  version: '1.2.3',
  channel: 'stable',
  isDevelopment: false,
  isDocker: false,
  deploymentType: 'systemd',
  build: 'release',
  runtime: 'node 20',
  demo: false,
}

export const AVAILABLE: UpdateInfo = {
  available: true,
  currentVersion: '1.2.3',
  latestVersion: '1.3.0',
  releaseNotes: '## Changes\n<img src=x onerror="window.pwned=1">\n- Faster charts',
  releaseDate: '2026-11-01T10:00:00Z',
  downloadUrl: 'http://127.0.0.1:9/pulse-v1.3.0.tar.gz',
  isPrerelease: false,
}

export const LATEST: UpdateInfo = {
  ...AVAILABLE,
  available: false,
  latestVersion: '1.2.3',
  releaseNotes: '',
  downloadUrl: '',
}

export const SYSTEM_SETTINGS = {
  discoveryEnabled: false,
  discoverySubnet: 'auto',
  allowedOrigins: '',
  allowEmbedding: false,
  allowedEmbedOrigins: '',
  updateChannel: 'stable',
  autoUpdateEnabled: false,
  autoUpdateCheckInterval: 24,
  autoUpdateTime: '03:00',
  envOverrides: {},
}

export interface UpdateServer {
  version: VersionInfo
  /** The check's answer per call; a Response is sent as is (errors). */
  check: (channel: string) => UpdateInfo | Response
  plan: UpdatePlan
  status: UpdateProgress
  apply: (body: unknown) => Response
}

export function updateServer(overrides: Partial<UpdateServer> = {}) {
  const state: UpdateServer = {
    version: VERSION,
    check: () => AVAILABLE,
    plan: {
      deploymentType: 'systemd',
      canAutoUpdate: true,
      instructions: ['Click Install update.'],
    },
    status: { status: 'idle', progress: 0, message: '', updatedAt: '2026-11-25T00:00:00Z' },
    apply: () => Response.json({ status: 'downloading' }, { status: 202 }),
    ...overrides,
  }
  const mock = stubServer({
    route: (url, init) => {
      const parsed = new URL(url, window.location.href)
      switch (parsed.pathname) {
        case '/api/version':
          return Response.json(state.version)
        case '/api/updates/check': {
          const answer = state.check(parsed.searchParams.get('channel') ?? '')
          return answer instanceof Response ? answer : Response.json(answer)
        }
        case '/api/updates/plan':
          return Response.json(state.plan)
        case '/api/updates/status':
          return Response.json(state.status)
        case '/api/updates/apply':
          return init?.method === 'POST' ? state.apply(JSON.parse(String(init.body))) : undefined
        case '/api/system/settings':
          return Response.json(SYSTEM_SETTINGS)
        default:
          return undefined
      }
    },
  })
  return { mock, state }
}

/** The update checks asked, as their channel parameter. */
export function checksOf(mock: ReturnType<typeof stubServer>): string[] {
  return mock.mock.calls
    .map(([url]) => new URL(String(url), window.location.href))
    .filter((url) => url.pathname === '/api/updates/check')
    .map((url) => url.searchParams.get('channel') ?? '')
}

export function seedCache(cache: Partial<UpdateCache>): void {
  localStorage.setItem(
    UPDATE_CACHE_KEY,
    JSON.stringify({
      currentVersion: '1.2.3',
      lastCheck: Date.now(),
      updateInfo: null,
      dismissedVersion: '',
      lastError: '',
      channel: 'stable',
      ...cache,
    }),
  )
}

export const HOUR = 60 * 60 * 1000
