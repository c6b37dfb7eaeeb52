// Who may talk to and frame the app (spec 001 §3 System settings): the /ws allowed origins and the
// embedding policy. Environment variables fix them when set; otherwise the values saved from the
// System tab apply at once, without a restart. Effective values are kept in memory because the
// guard and the header hook read them on every request.
import type { EmbeddingConfig } from '../auth/security-headers.ts'
import type { SystemSettingsRepo } from '../store/system-settings-repo.ts'

export const ORIGINS_KEY = 'allowedOrigins'
export const EMBED_KEY = 'allowEmbedding'
export const EMBED_ORIGINS_KEY = 'allowedEmbedOrigins'

/** The web policy part of GET /api/system/settings. */
export interface WebPolicySettings {
  /** Comma-separated; empty means same host only. */
  allowedOrigins: string
  allowEmbedding: boolean
  /** Comma-separated extra origins allowed to frame the app when embedding is on. */
  allowedEmbedOrigins: string
  /** Keys fixed by the environment (ALLOWED_ORIGINS; ALLOW_EMBEDDING / ALLOWED_EMBED_ORIGINS). */
  envOverrides: Record<string, boolean>
}

export interface WebPolicyPatch {
  allowedOrigins?: string[]
  allowEmbedding?: boolean
  allowedEmbedOrigins?: string[]
}

export interface WebPolicy {
  /** Origins accepted on /ws besides the same host ('*' accepts any). */
  allowedOrigins(): readonly string[]
  embedding(): EmbeddingConfig
  settings(): WebPolicySettings
  /** Store a validated patch; keys fixed by the environment are left as they are. */
  configure(patch: WebPolicyPatch): WebPolicySettings
  /** Read the stored settings again (a collector taking over from one that changed them). */
  reload(): void
}

export interface WebPolicyDeps {
  repo: SystemSettingsRepo
  now: () => number
  /** ALLOWED_ORIGINS; empty when unset. */
  envOrigins: readonly string[]
  /** ALLOW_EMBEDDING / ALLOWED_EMBED_ORIGINS, or null when neither is set. */
  envEmbedding: EmbeddingConfig | null
}

const ORIGIN_EXAMPLE = 'is not an origin like https://example.com'

/**
 * Split a comma- or space-separated list of origins; returns the normalised list or a problem
 * naming the first bad entry. '*' is accepted only where `star` says so.
 */
export function parseOrigins(
  text: string,
  star: boolean,
): { origins: string[] } | { problem: string } {
  const origins: string[] = []
  for (const entry of text.split(/[\s,]+/).filter(Boolean)) {
    if (entry === '*' && star) {
      origins.push('*')
      continue
    }
    let url: URL | null = null
    try {
      url = new URL(entry)
    } catch {
      url = null
    }
    if (!url || !/^https?:$/.test(url.protocol) || url.origin !== entry.replace(/\/+$/, '')) {
      return { problem: `"${entry.slice(0, 100)}" ${ORIGIN_EXAMPLE}` }
    }
    if (!origins.includes(url.origin)) origins.push(url.origin)
  }
  return { origins }
}

function storedList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []
}

/** Create the policy from the environment and the stored settings. */
export function createWebPolicy(deps: WebPolicyDeps): WebPolicy {
  const { repo, envOrigins, envEmbedding } = deps
  const originsFixed = envOrigins.length > 0
  let origins: readonly string[] = []
  let embedAllowed = false
  let embedOrigins: readonly string[] = []
  // One object per change, so the header hook can reuse its rendered headers until then.
  let embedding: EmbeddingConfig = { allowed: false, origins: [] }
  const load = () => {
    origins = originsFixed ? envOrigins : storedList(repo.get(ORIGINS_KEY))
    embedAllowed = envEmbedding ? envEmbedding.allowed : repo.get(EMBED_KEY) === true
    embedOrigins = envEmbedding ? envEmbedding.origins : storedList(repo.get(EMBED_ORIGINS_KEY))
    embedding = { allowed: embedAllowed, origins: embedOrigins }
  }
  load()

  const settings = (): WebPolicySettings => {
    const envOverrides: Record<string, boolean> = {}
    if (originsFixed) envOverrides.allowedOrigins = true
    if (envEmbedding) {
      envOverrides.allowEmbedding = true
      envOverrides.allowedEmbedOrigins = true
    }
    return {
      allowedOrigins: origins.join(','),
      allowEmbedding: embedAllowed,
      allowedEmbedOrigins: embedOrigins.join(','),
      envOverrides,
    }
  }

  return {
    allowedOrigins: () => origins,
    embedding: () => embedding,
    settings,
    reload: load,
    configure(patch) {
      const now = deps.now()
      if (patch.allowedOrigins !== undefined && !originsFixed) {
        origins = patch.allowedOrigins
        repo.set(ORIGINS_KEY, origins, now)
      }
      if (!envEmbedding) {
        if (patch.allowEmbedding !== undefined) {
          embedAllowed = patch.allowEmbedding
          repo.set(EMBED_KEY, embedAllowed, now)
        }
        if (patch.allowedEmbedOrigins !== undefined) {
          embedOrigins = patch.allowedEmbedOrigins
          repo.set(EMBED_ORIGINS_KEY, embedOrigins, now)
        }
        embedding = { allowed: embedAllowed, origins: embedOrigins }
      }
      return settings()
    },
  }
}
