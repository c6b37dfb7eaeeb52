// Single sign-on wiring: the stored configuration (with the environment's overrides) and the login
// flow, which forgets its cached discovery whenever the configuration changes.
import type { Db } from '../store/db.ts'
import type { SecretBox } from '../store/secret-box.ts'
import { createOidcConfigService, type OidcConfigService } from './oidc-config.ts'
import { createOidcConfigRepo } from './oidc-config-repo.ts'
import { createOidcFlow, type OidcFlow } from './oidc-flow.ts'
import { isOidcReady, type OidcEnvOverrides } from './oidc-settings.ts'

export interface Oidc {
  config: OidcConfigService
  flow: OidcFlow
  /** Enabled and usable (issuer and client id set). */
  ready(): boolean
  /** The configured provider logout URL ('' = local logout only). */
  logoutUrl(): string
}

export interface OidcDeps {
  db: Db
  box: SecretBox
  env: OidcEnvOverrides
  now: () => number
  log: { warn(obj: object, msg: string): void }
}

/** Create the single sign-on services. */
export function createOidc(deps: OidcDeps): Oidc {
  const repo = createOidcConfigRepo({
    db: deps.db,
    box: deps.box,
    onUnreadableSecret: () =>
      deps.log.warn({}, 'the stored OIDC client secret cannot be opened with this key; ignored'),
  })
  const config = createOidcConfigService({ repo, env: deps.env, now: deps.now })
  const flow = createOidcFlow({ settings: config.settings, now: deps.now, log: deps.log })
  config.onChange(() => flow.reset())
  return {
    config,
    flow,
    ready: () => isOidcReady(config.settings()),
    logoutUrl: () => config.settings().logoutUrl,
  }
}
