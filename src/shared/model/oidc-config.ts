// Single sign-on (OIDC) configuration shared by the server and the browser (spec 001 §3 OIDC
// config, §5 OIDC rules, §9; contract auth-api-2.md): the fields, their defaults, the environment
// variable behind each field, and how a list is split.
import { ROLES, type Role } from './roles.ts'

/** A provider group and the role its members get (issue 29 item 3). */
export interface OidcRoleRule {
  group: string
  role: Role
}

/** The role of a user in no mapped group; 'none' refuses the sign-in. */
export const OIDC_DEFAULT_ROLES = [...ROLES, 'none'] as const
export type OidcDefaultRole = (typeof OIDC_DEFAULT_ROLES)[number]

export interface OidcSettings {
  enabled: boolean
  issuerUrl: string
  clientId: string
  /** '' when none (a public client using PKCE only). Server memory only. */
  clientSecret: string
  /** '' = auto-detect (`<request origin>/api/oidc/callback`). */
  redirectUrl: string
  /** '' = local logout only. */
  logoutUrl: string
  scopes: string[]
  usernameClaim: string
  emailClaim: string
  groupsClaim: string
  allowedGroups: string[]
  /** Lower case, without '@'. */
  allowedDomains: string[]
  /** Lower case. */
  allowedEmails: string[]
  /** Groups (of groupsClaim) to roles; a user gets the highest role of the matched groups. */
  roleMapping: OidcRoleRule[]
  /** A user in no mapped group; 'admin' (the default) keeps single sign-on as before roles. */
  defaultRole: OidcDefaultRole
}

export type OidcField = keyof OidcSettings

/** The settings as GET /api/security/oidc shows them: never the client secret itself. */
export type OidcPublicSettings = Omit<OidcSettings, 'clientSecret'>

export const OIDC_DEFAULT_SCOPES: readonly string[] = ['openid', 'profile', 'email']

export const OIDC_DEFAULTS: OidcSettings = {
  enabled: false,
  issuerUrl: '',
  clientId: '',
  clientSecret: '',
  redirectUrl: '',
  logoutUrl: '',
  scopes: [...OIDC_DEFAULT_SCOPES],
  usernameClaim: 'preferred_username',
  emailClaim: 'email',
  groupsClaim: 'groups',
  allowedGroups: [],
  allowedDomains: [],
  allowedEmails: [],
  roleMapping: [],
  defaultRole: 'admin',
}

/** The environment variable of each field. */
export const OIDC_ENV_NAMES: Readonly<Record<OidcField, string>> = {
  enabled: 'OIDC_ENABLED',
  issuerUrl: 'OIDC_ISSUER_URL',
  clientId: 'OIDC_CLIENT_ID',
  clientSecret: 'OIDC_CLIENT_SECRET',
  redirectUrl: 'OIDC_REDIRECT_URL',
  logoutUrl: 'OIDC_LOGOUT_URL',
  scopes: 'OIDC_SCOPES',
  usernameClaim: 'OIDC_USERNAME_CLAIM',
  emailClaim: 'OIDC_EMAIL_CLAIM',
  groupsClaim: 'OIDC_GROUPS_CLAIM',
  allowedGroups: 'OIDC_ALLOWED_GROUPS',
  allowedDomains: 'OIDC_ALLOWED_DOMAINS',
  allowedEmails: 'OIDC_ALLOWED_EMAILS',
  roleMapping: 'OIDC_ROLE_MAPPING',
  defaultRole: 'OIDC_DEFAULT_ROLE',
}

/** Every field, in order. */
export const OIDC_FIELDS = Object.keys(OIDC_ENV_NAMES) as OidcField[]

/**
 * Split list text on commas and whitespace, dropping blanks (spec 001 §5); repeats are kept.
 * An array is split item by item.
 */
export function splitListItems(value: string | readonly string[]): string[] {
  return (typeof value === 'string' ? [value] : value)
    .flatMap((item) => item.split(/[\s,]+/))
    .filter((part) => part !== '')
}
