// Single sign-on (OIDC) settings: list and URL rules (spec 001 §3, §5) and the environment
// variables that override fields and make them read-only. The fields, their defaults and the
// variable names are shared with the browser (src/shared/model/oidc-config.ts).

import {
  OIDC_DEFAULT_SCOPES,
  OIDC_DEFAULTS,
  OIDC_ENV_NAMES,
  OIDC_FIELDS,
  splitListItems,
  type OidcField,
  type OidcSettings,
} from '../../shared/model/oidc-config.ts'
import { parseDefaultRole, parseRoleMapping } from './oidc-roles.ts'

export {
  OIDC_DEFAULT_SCOPES,
  OIDC_DEFAULTS,
  OIDC_ENV_NAMES,
  OIDC_FIELDS,
  type OidcField,
  type OidcSettings,
}

/** Fields set by the environment (only those that are set). */
export type OidcEnvOverrides = Partial<OidcSettings>

const LIST_FIELDS = new Set<OidcField>([
  'scopes',
  'allowedGroups',
  'allowedDomains',
  'allowedEmails',
])
const URL_FIELDS = new Set<OidcField>(['issuerUrl', 'redirectUrl', 'logoutUrl'])

/** Split a list on commas and whitespace, dropping blanks and repeats (spec 001 §5). */
export function splitList(value: string | readonly string[]): string[] {
  return [...new Set(splitListItems(value))]
}

/** True for localhost, 127.0.0.0/8 and ::1: the only hosts an http:// issuer may use. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '')
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host)
}

/** The problem with an http(s) URL, or null when it is fine. */
export function urlProblem(value: string, field: OidcField): string | null {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return 'must be a valid URL'
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return 'must start with http:// or https://'
  }
  if (field === 'issuerUrl') {
    if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
      return 'must use https:// (http:// only for a loopback address)'
    }
    if (url.search !== '' || url.hash !== '') return 'must not have a query or fragment'
  }
  return null
}

/** The problem with a list entry, or null. Domains and emails are normalised first. */
export function listEntryProblem(field: OidcField, entry: string): string | null {
  if (field === 'scopes' && !/^[\x21\x23-\x5B\x5D-\x7E]+$/.test(entry)) {
    return `"${entry}" is not a valid scope`
  }
  if (field === 'allowedDomains' && !/^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/.test(entry)) {
    return `"${entry}" is not a domain (give domains without @)`
  }
  if (field === 'allowedEmails' && !/^[^@\s]+@[^@\s]+$/.test(entry)) {
    return `"${entry}" is not an email address`
  }
  return entry.length > 320 ? 'entries must be at most 320 characters' : null
}

/** Normalise a list field: lower-case domains (without a leading @) and emails. */
export function normaliseList(field: OidcField, entries: readonly string[]): string[] {
  if (field === 'allowedDomains') {
    return splitList(entries.map((entry) => entry.toLowerCase().replace(/^@+/, '')))
  }
  if (field === 'allowedEmails') return splitList(entries.map((entry) => entry.toLowerCase()))
  return splitList(entries)
}

/** 'openid' first, always: without it there is no ID token. Empty means the defaults. */
export function withOpenid(scopes: readonly string[]): string[] {
  if (scopes.length === 0) return [...OIDC_DEFAULT_SCOPES]
  return scopes.includes('openid') ? [...scopes] : ['openid', ...scopes]
}

function readEnvBool(name: string, raw: string): boolean {
  if (/^(1|true|yes|on)$/i.test(raw)) return true
  if (/^(0|false|no|off)$/i.test(raw)) return false
  throw new Error(`${name} must be true or false (got "${raw}")`)
}

/**
 * The OIDC_* variables that are set (non-blank), parsed. Throws with a message naming the
 * variable on bad input (not a boolean, not an http(s) URL, bad list entry).
 */
export function readOidcEnv(env: NodeJS.ProcessEnv): OidcEnvOverrides {
  const out: Record<string, unknown> = {}
  for (const field of OIDC_FIELDS) {
    const name = OIDC_ENV_NAMES[field]
    const raw = env[name]?.trim()
    if (raw === undefined || raw === '') continue
    if (field === 'enabled') {
      out[field] = readEnvBool(name, raw)
    } else if (field === 'roleMapping') {
      out[field] = parseRoleMapping(name, raw)
    } else if (field === 'defaultRole') {
      out[field] = parseDefaultRole(name, raw)
    } else if (LIST_FIELDS.has(field)) {
      const list = normaliseList(field, splitList(raw))
      for (const entry of list) {
        const problem = listEntryProblem(field, entry)
        if (problem) throw new Error(`${name}: ${problem}`)
      }
      out[field] = field === 'scopes' ? withOpenid(list) : list
    } else if (URL_FIELDS.has(field)) {
      const problem = urlProblem(raw, field)
      if (problem) throw new Error(`${name} ${problem} (got "${raw}")`)
      out[field] = raw
    } else {
      out[field] = raw
    }
  }
  return out as OidcEnvOverrides
}

/** The effective settings: stored values with the environment's on top. */
export function mergeOidcSettings(
  stored: OidcSettings | null,
  env: OidcEnvOverrides,
): OidcSettings {
  return { ...OIDC_DEFAULTS, ...(stored ?? {}), ...env }
}

/** Enabled with what a login needs (issuer and client id): the login button shows. */
export function isOidcReady(settings: OidcSettings): boolean {
  return settings.enabled && settings.issuerUrl !== '' && settings.clientId !== ''
}
