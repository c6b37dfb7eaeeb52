// The stored single sign-on settings: one row of oidc_config. The client secret is sealed with the
// secret box; only this module and the OIDC service see it opened. Environment overrides are not
// stored here (see oidc-config.ts). The role mapping lives beside it in oidc_roles (no row: no
// mapping and the default role admin).
import { isRole } from '../../shared/model/roles.ts'
import type { Db } from '../store/db.ts'
import type { SecretBox } from '../store/secret-box.ts'
import { isOidcDefaultRole } from './oidc-roles.ts'
import { OIDC_DEFAULTS, type OidcSettings } from './oidc-settings.ts'

export interface OidcConfigRepo {
  /** The stored settings with the secret opened, or null before the first save. */
  get(): OidcSettings | null
  /** Insert or replace the row (the secret is sealed here; '' stores none). */
  save(settings: OidcSettings, now: number): void
}

interface Row {
  enabled: number
  issuer_url: string
  client_id: string
  client_secret_enc: string | null
  redirect_url: string
  logout_url: string
  scopes: string
  username_claim: string
  email_claim: string
  groups_claim: string
  allowed_groups: string
  allowed_domains: string
  allowed_emails: string
}

interface RolesRow {
  role_mapping: string
  default_role: string
}

function parseRoleMapping(text: string | undefined): OidcSettings['roleMapping'] {
  try {
    const value: unknown = JSON.parse(text ?? '[]')
    if (!Array.isArray(value)) return []
    return value.flatMap((item: unknown) => {
      const rule = item as { group?: unknown; role?: unknown } | null
      return typeof rule?.group === 'string' && isRole(rule.role)
        ? [{ group: rule.group, role: rule.role }]
        : []
    })
  } catch {
    return []
  }
}

function parseList(text: string, fallback: readonly string[]): string[] {
  try {
    const value: unknown = JSON.parse(text)
    if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string')
  } catch {
    // A damaged cell reads as the default.
  }
  return [...fallback]
}

export interface OidcConfigRepoDeps {
  db: Db
  box: SecretBox
  /** Told when a sealed secret cannot be opened (another instance's key): it reads as none. */
  onUnreadableSecret?: (err: unknown) => void
}

/** Repository over the oidc_config table. */
export function createOidcConfigRepo(deps: OidcConfigRepoDeps): OidcConfigRepo {
  const { db, box } = deps
  const select = db.prepare('SELECT * FROM oidc_config WHERE id = 1')
  const selectRoles = db.prepare('SELECT * FROM oidc_roles WHERE id = 1')
  const upsertRoles = db.prepare(
    `INSERT INTO oidc_roles (id, role_mapping, default_role) VALUES (1, ?, ?)
     ON CONFLICT (id) DO UPDATE SET role_mapping = excluded.role_mapping,
       default_role = excluded.default_role`,
  )
  const upsert = db.prepare(
    `INSERT INTO oidc_config (id, enabled, issuer_url, client_id, client_secret_enc, redirect_url,
       logout_url, scopes, username_claim, email_claim, groups_claim, allowed_groups,
       allowed_domains, allowed_emails, updated_at)
     VALUES (1, @enabled, @issuerUrl, @clientId, @clientSecretEnc, @redirectUrl, @logoutUrl,
       @scopes, @usernameClaim, @emailClaim, @groupsClaim, @allowedGroups, @allowedDomains,
       @allowedEmails, @now)
     ON CONFLICT (id) DO UPDATE SET enabled = excluded.enabled, issuer_url = excluded.issuer_url,
       client_id = excluded.client_id, client_secret_enc = excluded.client_secret_enc,
       redirect_url = excluded.redirect_url, logout_url = excluded.logout_url,
       scopes = excluded.scopes, username_claim = excluded.username_claim,
       email_claim = excluded.email_claim, groups_claim = excluded.groups_claim,
       allowed_groups = excluded.allowed_groups, allowed_domains = excluded.allowed_domains,
       allowed_emails = excluded.allowed_emails, updated_at = excluded.updated_at`,
  )

  const openSecret = (sealed: string | null): string => {
    if (!sealed) return ''
    try {
      return box.decrypt(sealed)
    } catch (err) {
      deps.onUnreadableSecret?.(err)
      return ''
    }
  }

  return {
    get() {
      const row = select.get() as Row | undefined
      if (!row) return null
      const roles = selectRoles.get() as RolesRow | undefined
      const defaultRole = roles?.default_role
      return {
        enabled: row.enabled === 1,
        issuerUrl: row.issuer_url,
        clientId: row.client_id,
        clientSecret: openSecret(row.client_secret_enc),
        redirectUrl: row.redirect_url,
        logoutUrl: row.logout_url,
        scopes: parseList(row.scopes, OIDC_DEFAULTS.scopes),
        usernameClaim: row.username_claim,
        emailClaim: row.email_claim,
        groupsClaim: row.groups_claim,
        allowedGroups: parseList(row.allowed_groups, []),
        allowedDomains: parseList(row.allowed_domains, []),
        allowedEmails: parseList(row.allowed_emails, []),
        roleMapping: parseRoleMapping(roles?.role_mapping),
        defaultRole: isOidcDefaultRole(defaultRole) ? defaultRole : OIDC_DEFAULTS.defaultRole,
      }
    },
    save(settings, now) {
      // One transaction: the settings and their roles are saved together.
      db.transaction(() => saveRow(settings, now))()
    },
  }

  function saveRow(settings: OidcSettings, now: number): void {
    upsert.run({
      enabled: settings.enabled ? 1 : 0,
      issuerUrl: settings.issuerUrl,
      clientId: settings.clientId,
      clientSecretEnc: settings.clientSecret ? box.encrypt(settings.clientSecret) : null,
      redirectUrl: settings.redirectUrl,
      logoutUrl: settings.logoutUrl,
      scopes: JSON.stringify(settings.scopes),
      usernameClaim: settings.usernameClaim,
      emailClaim: settings.emailClaim,
      groupsClaim: settings.groupsClaim,
      allowedGroups: JSON.stringify(settings.allowedGroups),
      allowedDomains: JSON.stringify(settings.allowedDomains),
      allowedEmails: JSON.stringify(settings.allowedEmails),
      now,
    })
    upsertRoles.run(JSON.stringify(settings.roleMapping), settings.defaultRole)
  }
}
