// Single sign-on settings (spec 001 §3 OIDC config, §4 OIDC, §5 OIDC rules; contract
// auth-api-2.md GET/PUT /api/security/oidc): the config, the form's text model, and the calls.
import {
  OIDC_DEFAULT_ROLES,
  OIDC_DEFAULTS,
  OIDC_ENV_NAMES,
  splitListItems,
  type OidcDefaultRole,
  type OidcPublicSettings,
  type OidcRoleRule,
} from '../../../shared/model/oidc-config.ts'
import { isRole } from '../../../shared/model/roles.ts'
import { HttpError, apiJson } from '../../api/http.ts'

export { OIDC_DEFAULTS }

export interface OidcConfig extends OidcPublicSettings {
  clientSecretSet: boolean
  defaultRedirect: string
  /** Fields set by environment variables (read-only here). */
  envOverrides: string[]
}

/** The PUT body: the editable fields plus a new secret or the clear mark. */
export interface OidcUpdate extends OidcPublicSettings {
  clientSecret?: string
  clearClientSecret?: true
}

/** The environment variable behind each field (contract auth-api-2.md). */
const OIDC_ENV: Readonly<Record<string, string>> = OIDC_ENV_NAMES

/** The variable name of an envOverrides entry (a field name, or already a variable name). */
export function envVariable(entry: string): string {
  return OIDC_ENV[entry] ?? entry
}

const text = (value: unknown) => (typeof value === 'string' ? value : '')
const list = (value: unknown) =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []

const roleMapping = (value: unknown): OidcRoleRule[] =>
  Array.isArray(value)
    ? value.flatMap((item: unknown) => {
        const rule = item as { group?: unknown; role?: unknown } | null
        return typeof rule?.group === 'string' && isRole(rule.role)
          ? [{ group: rule.group, role: rule.role }]
          : []
      })
    : []
const defaultRole = (value: unknown): OidcDefaultRole =>
  (OIDC_DEFAULT_ROLES as readonly unknown[]).includes(value)
    ? (value as OidcDefaultRole)
    : OIDC_DEFAULTS.defaultRole

/** A config from any answer: missing or mistyped fields become empty. */
export function normalizeOidc(raw: unknown): OidcConfig {
  const r = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>
  return {
    enabled: r.enabled === true,
    issuerUrl: text(r.issuerUrl),
    clientId: text(r.clientId),
    clientSecretSet: r.clientSecretSet === true,
    redirectUrl: text(r.redirectUrl),
    defaultRedirect: text(r.defaultRedirect),
    logoutUrl: text(r.logoutUrl),
    scopes: list(r.scopes),
    usernameClaim: text(r.usernameClaim),
    emailClaim: text(r.emailClaim),
    groupsClaim: text(r.groupsClaim),
    allowedGroups: list(r.allowedGroups),
    allowedDomains: list(r.allowedDomains),
    allowedEmails: list(r.allowedEmails),
    roleMapping: roleMapping(r.roleMapping),
    defaultRole: defaultRole(r.defaultRole),
    envOverrides: list(r.envOverrides),
  }
}

/** What the form edits: lists as text. */
export interface OidcForm {
  enabled: boolean
  issuerUrl: string
  clientId: string
  /** A new secret; '' keeps the stored one. */
  clientSecret: string
  /** Clear the stored secret on save (cancelled by typing a new one). */
  clearClientSecret: boolean
  redirectUrl: string
  logoutUrl: string
  scopes: string
  usernameClaim: string
  emailClaim: string
  groupsClaim: string
  allowedGroups: string
  allowedDomains: string
  allowedEmails: string
  /** Group → role rows as edited (a row with a blank group is dropped on save). */
  roleMapping: OidcRoleRule[]
  defaultRole: OidcDefaultRole
}

/** Spec 001 §5: lists split on commas and whitespace, blanks dropped. */
export function splitList(value: string): string[] {
  return splitListItems(value)
}

/** Spec 001 §5: domains are given without @. */
export function splitDomains(value: string): string[] {
  return splitList(value)
    .map((domain) => domain.replace(/^@+/, ''))
    .filter(Boolean)
}

const joinList = (items: readonly string[]) => items.join(', ')

/** The form showing `config` as loaded. */
export function formFromConfig(config: OidcConfig): OidcForm {
  return {
    enabled: config.enabled,
    issuerUrl: config.issuerUrl,
    clientId: config.clientId,
    clientSecret: '',
    clearClientSecret: false,
    redirectUrl: config.redirectUrl,
    logoutUrl: config.logoutUrl,
    scopes: joinList(config.scopes),
    usernameClaim: config.usernameClaim,
    emailClaim: config.emailClaim,
    groupsClaim: config.groupsClaim,
    allowedGroups: joinList(config.allowedGroups),
    allowedDomains: joinList(config.allowedDomains),
    allowedEmails: joinList(config.allowedEmails),
    roleMapping: config.roleMapping.map((rule) => ({ ...rule })),
    defaultRole: config.defaultRole,
  }
}

/** The PUT body of a form: text trimmed, lists split, blank scopes and claims at their defaults. */
export function updateFromForm(form: OidcForm): OidcUpdate {
  const scopes = splitList(form.scopes)
  const update: OidcUpdate = {
    enabled: form.enabled,
    issuerUrl: form.issuerUrl.trim(),
    clientId: form.clientId.trim(),
    redirectUrl: form.redirectUrl.trim(),
    logoutUrl: form.logoutUrl.trim(),
    scopes: scopes.length > 0 ? scopes : [...OIDC_DEFAULTS.scopes],
    usernameClaim: form.usernameClaim.trim() || OIDC_DEFAULTS.usernameClaim,
    emailClaim: form.emailClaim.trim() || OIDC_DEFAULTS.emailClaim,
    groupsClaim: form.groupsClaim.trim() || OIDC_DEFAULTS.groupsClaim,
    allowedGroups: splitList(form.allowedGroups),
    allowedDomains: splitDomains(form.allowedDomains),
    allowedEmails: splitList(form.allowedEmails),
    roleMapping: form.roleMapping
      .map((rule) => ({ group: rule.group.trim(), role: rule.role }))
      .filter((rule) => rule.group !== ''),
    defaultRole: form.defaultRole,
  }
  const secret = form.clientSecret.trim()
  if (secret) update.clientSecret = secret
  else if (form.clearClientSecret) update.clearClientSecret = true
  return update
}

const isHttpUrl = (value: string) => {
  try {
    const url = new URL(value)
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== ''
  } catch {
    return false
  }
}

/** Spec 001 §5 OIDC rules: '' when the form can be saved, else what to fix. */
export function oidcProblem(form: OidcForm): string {
  const urls: [string, string][] = [
    ['Issuer URL', form.issuerUrl.trim()],
    ['Redirect URL', form.redirectUrl.trim()],
    ['Logout URL', form.logoutUrl.trim()],
  ]
  if (form.enabled) {
    if (!form.issuerUrl.trim()) return 'Issuer URL is required'
    if (!form.clientId.trim()) return 'Client ID is required'
  }
  for (const [label, value] of urls) {
    if (value && !isHttpUrl(value)) return `${label} must start with http:// or https://`
  }
  return ''
}

/** True when the form differs from the loaded config. */
export function formChanged(form: OidcForm, loaded: OidcConfig): boolean {
  const base = formFromConfig(loaded)
  return (Object.keys(base) as (keyof OidcForm)[]).some((key) =>
    key === 'roleMapping'
      ? JSON.stringify(form.roleMapping) !== JSON.stringify(base.roleMapping)
      : form[key] !== base[key],
  )
}

/** GET /api/security/oidc. */
export async function loadOidc(): Promise<OidcConfig> {
  return normalizeOidc(await apiJson('/api/security/oidc'))
}

/** PUT /api/security/oidc → the saved config; an Error with the server's text on failure. */
export async function saveOidc(update: OidcUpdate): Promise<OidcConfig> {
  try {
    return normalizeOidc(await apiJson('/api/security/oidc', { method: 'PUT', body: update }))
  } catch (error) {
    if (error instanceof HttpError) throw new Error(error.message)
    throw error instanceof Error ? error : new Error(String(error))
  }
}
